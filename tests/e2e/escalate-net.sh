#!/bin/sh
# A connection the proxy refuses is held while its prompt is open: once
# approved it proceeds (no restart); after deny it fails at once; left
# alone it fails when the hold ends ($SANDMUX_NET_HOLD seconds, 30 by
# default; 4 here); what no allow entry can open is neither held nor
# prompted. Test hosts in a netns of the test's own (tests/net/netns.inc).
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
. "$TESTS/e2e/mux.lib"
trap 'm_cleanup; net_down' EXIT
mkdir -p "$HOME/.sandmux"
cp "$ws/.t/policy.json" "$HOME/.sandmux/sandbox.json"
export SANDMUX_NET_HOLD=4

m_start 150 40
m_type 'curl -sS --max-time 20 http://denied.test/held-then-allowed; echo "do""ne1:$?"'
m_expect "a refused connection prompts" "prompt!"
# Kept: a second into the 4 s hold, curl must still be waiting. (That it
# was held, not failed, is proven below: the same curl succeeds.)
sleep 1
case "$(m_screen)" in *done1:*) fail "the connection is held, not failed" ;; *) ok "the connection is held, not failed" ;; esac
m_keys C-b a
m_expect "the prompt says the connection is held" "the connection is held"
contains "and offers the exact host" "$(m_screen)" "networkPolicy.allow += denied.test"
m_keys s
m_expect "approved: the held connection proceeds" "hello from 198.51.100.10:80 /held-then-allowed"
m_expect "curl succeeds" "done1:0"
contains "without a restart of the shell" "$(m_screen | head -1)" "running"

m_type 'curl -sS --max-time 20 http://other.test/refused; echo "do""ne2:$?"'
m_expect "another refused host prompts" "prompt!"
t0=$(date +%s)
m_keys C-b a
m_expect "its prompt opens" "other.test"
m_keys d
m_expect "deny: the held connection fails with the rule" "denied connect other.test:80"
m_expect "curl ends" "done2:"
t1=$(date +%s)
[ $((t1 - t0)) -lt 4 ] && ok "at once, not at the end of the hold" || fail "at once, not at the end of the hold ($((t1 - t0)) s)"

m_type 'clear; curl -sS --max-time 20 http://porty.test/late; echo "do""ne3:$?"'
m_expect "a third one prompts" "prompt!"
t0=$(date +%s)
m_expect "left alone, it fails when the hold ends" "denied connect porty.test:80"
t1=$(date +%s)
[ $((t1 - t0)) -ge 2 ] && ok "after the hold ($((t1 - t0)) s)" || fail "after the hold ($((t1 - t0)) s)"
m_keys C-b a
m_expect "its prompt is still open" "porty.test"
m_keys x
m_waitnot main "prompt!" && ok "dismissed: no prompt left" || fail "dismissed: no prompt left"

# What no allow entry can open (the literal of this host's own address,
# ::1) is neither held nor prompted: it fails at once, named for what it
# is, and once the refusals are in (each is told before its answer) no
# prompt comes.
denials() { m_sandmux ls --json | tr -d ' \t\n' | sed -n 's/.*"denials":\([0-9]*\).*/\1/p'; }
d0=$(denials)
t0=$(date +%s)
m_type 'clear; curl -sS --max-time 20 http://198.51.100.1/own; curl -sS --max-time 20 --noproxy "" -x "$HTTP_PROXY" "http://[::1]/lo"; echo "do""ne4:$?"'
m_expect "fixed refusals end" "done4:"
t1=$(date +%s)
[ $((t1 - t0)) -lt 3 ] && ok "fixed refusals are not held ($((t1 - t0)) s)" || fail "fixed refusals are not held ($((t1 - t0)) s)"
contains "the host's own address is named as such" "$(m_screen)" "(hardcoded: an address of this host)"
contains "::1 is named loopback" "$(m_screen)" "(hardcoded: loopback ::1)"
case "$(m_screen)" in *"allow with"*) fail "nothing offered for them" ;; *) ok "nothing offered for them" ;; esac
# (both refusals are counted: the server has taken them in, prompt or not)
counted() { [ "$(denials)" -ge $((d0 + 2)) ]; }
t_until 10 counted || fail "the server counted both refusals"
m_wait main "prompt!" 1 && fail "no prompt for them" || ok "no prompt for them"
exit $T_FAILED
