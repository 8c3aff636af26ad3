#!/bin/sh
# Soak: for SOAK_SECONDS (default 45) a session is driven hard — panes
# split and closed, output floods, the terminal resized, clients detached
# and attached, denial prompts raised and answered — and the server must
# live through it with its memory flat: the second half may not grow it
# by more than half what it was at the halfway mark (plus 16 MiB).
. "$TESTS/e2e/mux.lib"
SECS=${SOAK_SECONDS:-45}
OUT="$M_HOME/outside"
mkdir -p "$OUT" "$HOME/.sandmux"
echo '{"scrollback": 300, "net_hold": 0}' >"$HOME/.sandmux/sandmux.json"
LOG="$HOME/.sandmux/state/server.log"

m_start 120 40
pid=$(sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$LOG" | tail -1)
[ -n "$pid" ] || { fail "the server's pid is in server.log"; exit 1; }
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null; }
alive() { kill -0 "$pid" 2>/dev/null; }
panes() { m_sandmux ls 2>/dev/null | sed -n 's/.* \([0-9]*\) panes.*/\1/p'; }

# The short sleeps in this loop are its pace, kept: nothing is checked on
# any one step (a key that lands before its prompt is typed into a pane,
# which is load too); what is checked, after it, is polled.
start=$(date +%s); i=0; mid=""; died=""; attached=main
while [ $(($(date +%s) - start)) -lt "$SECS" ]; do
	i=$((i + 1))
	n=$(panes)
	if [ "${n:-0}" -lt 7 ]; then
		$TM send-keys -t "$attached" C-b "$([ $((i % 2)) = 0 ] && echo % || echo '"')"
	else
		$TM send-keys -t "$attached" C-b x
	fi
	# a flood in the active pane, another from a script
	$TM send-keys -t "$attached" -l "seq 1 30000; yes soak-$i | head -c 300000 | tr -d '\\n' | head -c 20000; echo"
	$TM send-keys -t "$attached" Enter
	m_sandmux new -n "flood$i" -- sh -c "seq 1 20000; printf '\\033[2J\\033[?1049h\\033[31mred\\033[?1049l'; exit 0" >/dev/null 2>&1
	$TM resize-window -t "$attached" -x $((60 + (i * 37) % 100)) -y $((15 + (i * 13) % 35)) 2>/dev/null
	$TM send-keys -t "$attached" C-b Space
	# a denial, a prompt, an answer (deny or dismiss)
	if [ $((i % 3)) = 0 ]; then
		m_sandmux new -n "deny$i" -- sh -c "touch '$OUT/f$i'; sleep 2" >/dev/null 2>&1
		sleep 0.3
		$TM send-keys -t "$attached" C-b a
		sleep 0.2
		$TM send-keys -t "$attached" "$([ $((i % 2)) = 0 ] && echo d || echo x)"
	fi
	# detach, and attach again from another tmux window
	if [ $((i % 4)) = 0 ]; then
		$TM send-keys -t "$attached" C-b d
		sleep 0.2
		attached="main:a$i"
		$TM new-window -t main -n "a$i" "cd '$WS' && '$SANDMUX' attach; sleep 3600"
	fi
	alive || { died=$i; break; }
	[ -z "$mid" ] && [ $(($(date +%s) - start)) -ge $((SECS / 2)) ] && mid=$(rss)
	sleep 0.2
done
if [ -z "$died" ]; then ok "the server survived $i rounds in ${SECS} s"; else
	fail "the server survived (it died in round $died)"; tail -5 "$LOG" | sed 's/^/#   log: /'; fi
m_sandmux ls >/dev/null 2>&1 && ok "the session still answers" || fail "the session still answers"
end=$(rss)
echo "# server RSS: ${mid:-?} kB at the halfway mark, ${end:-?} kB at the end"
if [ -n "$ASAN_OPTIONS" ]; then
	echo "ok - # SKIP memory growth under ASan (its quarantine holds freed memory)"
elif [ -n "$mid" ] && [ -n "$end" ] && [ "$end" -le $((mid + mid / 2 + 16384)) ]; then
	ok "its memory stays flat (${mid} -> ${end} kB)"
else
	fail "its memory stays flat (${mid:-?} -> ${end:-?} kB)"
fi
refuse "server.log records no crash" grep -q "ws: died" "$LOG"
m_sandmux kill-session >/dev/null 2>&1
_i=0; while [ $_i -lt 50 ] && alive; do sleep 0.1; _i=$((_i + 1)); done
alive && fail "kill-session ends it" || ok "kill-session ends it"
exit $T_FAILED
