#!/bin/sh
# A session that dies says so: the attached client tells the person that
# the server ended, why (from ~/.sandmux/state/server.log), and that the
# shell they now see is not sandboxed; the server writes the cause there.
. "$TESTS/e2e/mux.lib"
LOG="$HOME/.sandmux/state/server.log"
# The crashes below are on purpose: under ASan (tests/run.sh's second
# pass) their reports go aside, not where a real one fails the run.
[ -n "$ASAN_OPTIONS" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$M_ROOT/deliberate"

server_pid() { sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$LOG" | tail -1; }

# die SIGNAL NAME LOGTEXT CLIENTTEXT: a fresh session killed with SIGNAL.
die() {
	$TM kill-session -t main >/dev/null 2>&1
	m_start
	m_type 'echo inside-$((6*7))'
	m_wait main 'inside-42'
	pid=$(server_pid)
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || { fail "$2: the server's pid is in server.log"; return; }
	kill "-$1" "$pid"
	m_expect "$2: the client says the server ended" "server of session ws ended: $4"
	m_expect "$2: and that the shell is not sandboxed" "the shell you see now is NOT sandboxed"
	m_expect "$2: the client exits" "CLIENT-EXIT"
	# the next session must not find this one still going away
	_i=0; while [ $_i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; _i=$((_i + 1)); done
	if [ -n "$3" ]; then
		_i=0; while [ $_i -lt 50 ] && ! grep -q "ws: $3" "$LOG"; do sleep 0.1; _i=$((_i + 1)); done
		contains "$2: server.log records it" "$(cat "$LOG")" "ws: $3"
	fi
}

die TERM "SIGTERM" "signal 15 (SIGTERM): shutting down" "exiting: signal 15 (SIGTERM)"
# (under ASan the sanitizer takes SIGSEGV, and the log says so)
if [ -n "$ASAN_OPTIONS" ]; then
	die SEGV "a crash (SIGSEGV)" "died: the sanitizer" "died: the sanitizer"
else
	die SEGV "a crash (SIGSEGV)" "died of signal 11 (SEGV" "died of signal 11 (SEGV"
fi
die QUIT "SIGQUIT" "died of signal 3 (QUIT)" "died of signal 3 (QUIT)"
die KILL "SIGKILL" "" "lost the server (no reason logged"

# The log is never written through a symlink planted in its place.
$TM kill-session -t main >/dev/null 2>&1
rm -f "$LOG"
ln -s "$M_ROOT/elsewhere" "$LOG"
m_start
m_sandmux kill-session >/dev/null
[ -e "$M_ROOT/elsewhere" ] && fail "server.log is not written through a symlink" || ok "server.log is not written through a symlink"
exit $T_FAILED
