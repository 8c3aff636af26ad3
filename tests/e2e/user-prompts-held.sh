#!/bin/sh
# A held connection (the proxy keeps it waiting while its prompt is open,
# $SANDMUX_NET_HOLD seconds) counts down in its pane's title, second by
# second, in the open prompt and in the title events; once it is
# answered the count is gone. Hosts an agent preset names (claude's
# telemetry, codex's quiet github.com) are never held: refused at once,
# with no prompt. Test hosts in a netns of the test's own.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
. "$TESTS/e2e/mux.lib"
trap 'm_cleanup; net_down' EXIT
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
command -v bash >/dev/null || { echo "ok - # SKIP bash not installed"; exit 0; }
SHELL=$(command -v bash); export SHELL # its integration says what runs (codex, below)
mkdir -p "$HOME/.sandmux"
cp "$ws/.t/policy.json" "$HOME/.sandmux/sandbox.json"
export SANDMUX_NET_HOLD=15
EV="$M_ROOT/ev"
mkdir -p "$EV"

# left: the seconds the title shows, or nothing.
left() { m_screen | head -1 | sed -n 's/.*held, refused in \([0-9]*\)s.*/\1/p'; }

m_start 150 40
(m_sandmux events --kind title >"$EV/titles" 2>"$EV/titles.err") &
m_type 'curl -sS --max-time 40 http://denied.test/counted; echo "do""ne1:$?"'
m_expect "a refused connection prompts" "prompt!"
m_expect "the title counts down the hold" "held, refused in "
first=$(left)
_i=0; while [ $_i -lt 80 ]; do
	now=$(left)
	[ -n "$now" ] && [ -n "$first" ] && [ "$now" -lt "$first" ] && break
	sleep 0.1; _i=$((_i + 1))
done
[ -n "$first" ] && [ "$first" -le 15 ] && ok "from at most the hold ($first s)" || fail "from at most the hold ($first s)"
[ -n "$now" ] && [ -n "$first" ] && [ "$now" -lt "$first" ] && ok "and decreasing ($first s, then $now s)" ||
	fail "and decreasing ($first s, then ${now:-nothing})"
case "$(m_screen)" in *done1:*) fail "the connection is still held" ;; *) ok "the connection is still held" ;; esac
contains "the prompt's bar says so too" "$(m_screen | grep 'sandbox prompt:')" "connect denied.test:80 by ?, held, refused in "
m_keys C-b a
m_expect "the open prompt shows the time left too" "the connection is held (refused in "
counts() { # the distinct countdown values in pane 1's title events
	python3 - "$EV/titles" <<'PY'
import json, re, sys
seen = set()
for l in open(sys.argv[1]).read().splitlines():
    e = json.loads(l)
    m = re.search(r"held, refused in (\d+)s", e.get("title", ""))
    if e.get("pane") == 1 and m:
        seen.add(int(m.group(1)))
print(len(seen))
PY
}
_i=0; while [ "$(counts)" -lt 2 ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
n=$(counts)
[ "$n" -ge 2 ] && ok "each second is a title event ($n values)" || fail "each second is a title event ($n values)"
m_keys s
m_expect "approved: the held connection proceeds" "hello from 198.51.100.10:80 /counted"
m_expect "curl succeeds" "done1:0"
m_waitnot main "held, refused in" 3 && ok "the countdown is gone from the title" || fail "the countdown is gone from the title"

# Hosts a preset names are never held. Claude's telemetry host: refused
# at once with no prompt, whoever asks.
t0=$(date +%s)
m_type 'clear; curl -sS --max-time 40 https://statsig.anthropic.com/ >/dev/null 2>&1; echo "tele""metry:$?"'
m_expect "claude's telemetry host is refused" "telemetry:"
t1=$(date +%s)
[ $((t1 - t0)) -lt 8 ] && ok "at once, not after the hold ($((t1 - t0)) s)" || fail "at once, not after the hold ($((t1 - t0)) s)"
case "$(m_screen | head -1)" in *"held, refused"* | *prompt!*) fail "neither held nor prompted" ;; *) ok "neither held nor prompted" ;; esac

# Codex's quiet github.com, asked for by the shell (git clone, say): not
# held, but a prompt the person may approve.
t0=$(date +%s)
m_type 'clear; curl -sS --max-time 40 https://github.com/ >/dev/null 2>&1; echo "sh""ell:$?"'
m_expect "github.com from the shell is refused" "shell:"
t1=$(date +%s)
[ $((t1 - t0)) -lt 8 ] && ok "at once, not held ($((t1 - t0)) s)" || fail "at once, not held ($((t1 - t0)) s)"
m_wait main "prompt!" 5 && ok "github.com from the shell prompts" || fail "github.com from the shell prompts"
m_keys C-b a
m_expect "its prompt opens" "connect github.com:443"
m_keys x
m_waitnot main "prompt!" 5 && ok "dismissed" || fail "dismissed"

# The same host asked for by codex itself (its update check at start):
# no prompt, while codex runs in the pane.
mkdir -p "$M_HOME/bin"
cp "$TESTS/agents/codex" "$M_HOME/bin/codex"
cat >"$HOME/.fake-agent-then" <<'EOF2'
curl -sS --max-time 40 https://github.com/ >/dev/null 2>&1; echo "qui""et:$?"
curl -sS --max-time 40 https://raw.githubusercontent.com/ >/dev/null 2>&1; echo "ra""w:$?"; sleep 30
EOF2
ndenials() { m_screen | head -1 | sed -n 's/.*denials \([0-9]*\).*/\1/p'; }
m_type "clear; export PATH=$M_HOME/bin:\$PATH"
d0=$(ndenials)
m_type 'codex' # a plain command line: the pane knows codex runs
m_expect "codex starts in the pane" "codex ready:"
m_expect "its github.com is refused" "quiet:"
# raw.githubusercontent.com: quiet for codex and for claude alike
m_expect "its raw.githubusercontent.com is refused" "raw:"
t_until 10 grep -q "raw.githubusercontent.com" "$HOME/.sandmux/state/denials.jsonl" && ok "raw.githubusercontent.com was asked for (denials.jsonl)" ||
	fail "raw.githubusercontent.com was asked for (denials.jsonl)"
_i=0; while [ "$(ndenials)" -le "$d0" ] && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
[ "$(ndenials)" -gt "$d0" ] && ok "and counted ($d0, then $(ndenials) denials in the title)" || fail "and counted ($d0, then $(ndenials) denials in the title)"
case "$(m_screen | head -1)" in *"held, refused"* | *prompt!*) fail "codex's own hosts: neither held nor prompted" ;; *) ok "codex's own hosts: neither held nor prompted" ;; esac

# ... and when its connection comes as it ends, from a child that outlives
# it, after the shell is back at its prompt (claude's at its exit)
m_keys C-c
cat >"$HOME/.fake-agent-then" <<EOF2
(sleep 2; curl -sS --max-time 40 https://raw.githubusercontent.com/ >/dev/null 2>&1; echo "late:\$?" >"$WS/late") >/dev/null 2>&1 &
EOF2
nraw() { grep -c "raw.githubusercontent.com" "$HOME/.sandmux/state/denials.jsonl"; }
r0=$(nraw)
nprompt() { grep -c "prompt: connect raw.githubusercontent.com" "$HOME/.sandmux/state/server.log"; }
p0=$(nprompt)
m_type 'clear'
m_type 'codex'
m_expect "codex starts again" "codex ready:"
t_until 30 test -s "$WS/late" && ok "its late connection was made" || fail "its late connection was made"
t_until 10 sh -c "[ \$(grep -c raw.githubusercontent.com '$HOME/.sandmux/state/denials.jsonl') -gt $r0 ]" && ok "and refused" || fail "and refused"
m_type 'echo after-$((6*7))'
m_expect "the shell goes on" "after-42"
same "an ended agent's late quiet host: no prompt (server.log)" "$(nprompt)" "$p0"
exit $T_FAILED
