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

# Hosts a preset names: refused at once, never held, no prompt.
t0=$(date +%s)
m_type 'clear; curl -sS --max-time 40 https://statsig.anthropic.com/ >/dev/null 2>&1; echo "tele""metry:$?"; curl -sS --max-time 40 https://github.com/ >/dev/null 2>&1; echo "qui""et:$?"'
m_expect "claude's telemetry host is refused" "telemetry:"
m_expect "codex's quiet host is refused" "quiet:"
t1=$(date +%s)
[ $((t1 - t0)) -lt 8 ] && ok "at once, not after the hold ($((t1 - t0)) s)" || fail "at once, not after the hold ($((t1 - t0)) s)"
case "$(m_screen | head -1)" in *"held, refused"* | *prompt!*) fail "neither held nor prompted" ;; *) ok "neither held nor prompted" ;; esac
exit $T_FAILED
