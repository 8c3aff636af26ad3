#!/bin/sh
# The client passes its terminal to the server, which draws on it and
# reads the keys from it directly (as tmux's server does), so a key's
# echo does not go through the client: the server holds the terminal
# while attached (keys typed while the client is stopped still echo),
# lets go of it on detach, and the terminal the shell gets back is not
# left non-blocking (the server's descriptor of it is one of its own).
. "$TESTS/e2e/mux.lib"

LOG="$HOME/.sandmux/state/server.log"
m_start 100 30
pid=$(sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$LOG" | tail -1)
[ -n "$pid" ] || { fail "the server's pid is in server.log"; exit 1; }
tty=$($TM display -p -t main '#{pane_tty}')
holds() { ls -l "/proc/$pid/fd" 2>/dev/null | grep -q " -> $tty\$"; }

if holds; then ok "the server holds the client's terminal"; else
	fail "the server holds the client's terminal"; ls -l "/proc/$pid/fd" | sed 's/^/#   /'; fi
m_type 'echo drawn-$((6 * 7))'
m_expect "output is drawn on it" "drawn-42"
cpid=$(pgrep -P "$($TM display -p -t main '#{pane_pid}')" -f "$SANDMUX" | head -1)
if [ -n "$cpid" ] && kill -STOP "$cpid"; then
	m_type 'echo past-the-client-$((2 + 3))'
	m_expect "keys and their echo skip the client (stopped)" "past-the-client-5"
	kill -CONT "$cpid"
else
	fail "the client's pid"
fi

m_keys C-b d
m_expect "prefix d detaches" "[detached (from session ws)]"
m_expect "the client exits" "CLIENT-EXIT 0"
_i=0
while holds && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
if holds; then fail "the server lets go of it on detach"; else ok "the server lets go of it on detach"; fi
# the shell after the client: its terminal blocks, as it did before
sh_pid=$(pgrep -f 'sleep 3600' -P "$($TM display -p -t main '#{pane_pid}')" | head -1)
flags=$(awk '/^flags:/ {print $2}' "/proc/$sh_pid/fdinfo/0" 2>/dev/null)
if [ -n "$flags" ] && [ $((0$flags & 04000)) = 0 ]; then ok "the terminal is left blocking"; else
	fail "the terminal is left blocking"; echo "#   flags: $flags"; fi
kill -0 "$pid" 2>/dev/null && ok "the server is still running" || fail "the server is still running"
exit $T_FAILED
