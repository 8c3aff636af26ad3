#!/bin/sh
# The request channel, as an agent in a pane uses it: `sandmux request`
# asks for one command in a new, broader sandbox; the person approves (o)
# and the command runs with exactly that grant, its status coming back,
# or denies (d) and the requester exits 126 with one line. Garbage and
# other uses of the descriptor are refused and the server keeps serving;
# requests over the pane's rate are refused; an unanswered one times out.
# `sandmux why` lists the pane's denials. Every write checked from outside.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT"
export SANDMUX_REQUEST_TIMEOUT=6
m_start
# the pane sees its own /tmp: a copy of sandmux it can run
mkdir -p "$M_HOME/bin" && cp "$SANDMUX" "$M_HOME/bin/sandmux"
S=$M_HOME/bin/sandmux

# approved: the command runs with the grant; its exit status comes back
# (the new sandbox has no request channel: neither fd 4 nor its variable)
m_type "$S request --write $OUT/r --reason 'to test' -- sh -c 'echo hi >$OUT/r; [ -e /proc/self/fd/4 ] && exit 9; [ -n \"\$SANDMUX_REQUEST_FD\" ] && exit 8; exit 7'; echo RC=\$?"
m_expect "a request raises a prompt" "prompt!"
m_keys C-b a
m_expect "the prompt shows the request" "sandbox request"
contains "the prompt shows the grant" "$(m_screen)" "write $OUT/r"
contains "the prompt shows the reason" "$(m_screen)" "to test"
contains "the prompt shows the command" "$(m_screen)" "run, in a new sandbox: sh -c"
[ ! -e "$OUT/r" ] && ok "nothing runs before the approval" || fail "nothing runs before the approval"
m_keys o
m_expect "approved: the command's exit status comes back" "RC=7"
[ "$(cat "$OUT/r" 2>/dev/null)" = hi ] && ok "the approved write happened (seen from outside)" ||
	fail "the approved write happened (seen from outside)"

# the grant was for that command only: the pane itself still cannot write
m_type "touch $OUT/r2 2>/dev/null || echo STILL-DENIED-\$((6*7))"
m_expect "the pane's own policy is unchanged" "STILL-DENIED-42"
[ ! -e "$OUT/r2" ] && ok "and the file is absent" || fail "and the file is absent"

# why: the pane's denials, read-only
m_type "$S why | grep -c outside/r2; echo WHY=\$?"
m_expect "why lists the pane's denial" "WHY=0"
# the touch's own prompt, dismissed
m_keys C-b a
m_wait main "o once" 5
m_keys x
m_waitnot main "prompt!" 5

# denied: 126, one line, nothing written
m_type "$S request --write $OUT/d -- touch $OUT/d; echo RC=\$?"
m_wait main "prompt!" 5
m_keys C-b a
m_expect "the second request prompts" "sandbox request"
m_keys d
m_expect "denied: the requester exits 126" "RC=126"
contains "with one line saying so" "$(m_screen)" "sandmux: request: denied by the person"
[ ! -e "$OUT/d" ] && ok "a denied request writes nothing (seen from outside)" || fail "a denied request writes nothing (seen from outside)"

# other uses of the descriptor: refused, counted, and nothing answers them
m_type "printf garbage >&4; printf '{\"verb\":\"answer\",\"pane\":\"2.1\",\"scope\":\"session\"}\\n' >&4; printf 'sandmux-request/1\\0why\\0' >&4; timeout 2 cat <&4; echo READ=\$?"
m_expect "reading the channel yields nothing (end of file)" "READ=0"
m_type "$S why >/dev/null; echo WHY2=\$?"
m_expect "the server keeps serving after garbage" "WHY2=0"
log="$HOME/.sandmux/state/server.log"
grep -q "request channel: refused" "$log" && ok "the garbage was refused and counted" || fail "the garbage was refused and counted"
m_type "$S request -- true <&4; echo RC2=\$?"
m_expect "the channel itself as a stdio descriptor is refused" "RC2=126"
contains "saying what a request carries" "$(m_screen)" "a request comes with its reply socket, stdin, stdout and stderr"
m_type "$S request --write $HOME/.sandmux/x -- true; echo RC=\$?"
m_expect "a grant of sandmux's own files is refused at once" "cannot be granted"

# on a terminal the command gets a PTY of its own (in a pane of its
# own: a fresh pane's rate): tty names it, /dev/tty opens, keys typed
# reach it, it sees the pane's size, and the new one after a resize
m_sandmux new -n tty -- sh >/dev/null
# size_of NAME: the last "NAME=ROWS COLS" on the screen, waited for
size_of() {
	_i=0
	while [ $_i -lt 100 ]; do
		_v=$(m_screen | sed -n "s/.*$1=\([0-9][0-9]* [0-9][0-9]*\).*/\1/p" | tail -n 1)
		[ -n "$_v" ] && { echo "$_v"; return; }
		sleep 0.1; _i=$((_i + 1))
	done
}
m_type "stty size | sed 's/^/PANESIZE=/'"
psize=$(size_of PANESIZE)
CMD='tty | sed s/^/TTY=/; s0=$(stty size </dev/tty); echo REQSIZE=$s0; read x </dev/tty; echo GOT=$x; i=0; while [ $i -lt 100 ] && [ "$(stty size </dev/tty)" = "$s0" ]; do sleep 0.1; i=$((i+1)); done; stty size </dev/tty | sed s/^/NEWSIZE=/'
m_type "$S request -- sh -c '$CMD'; echo RC=\$?"
m_wait main "prompt!" 5
m_keys C-b a
m_wait main "sandbox request" 5
m_keys o
m_expect "on a terminal the request's command has one" "TTY=/dev/pts/"
same "it opens /dev/tty and sees the pane's size" "$(size_of REQSIZE)" "$psize"
m_type "typed"
m_expect "keys typed reach its /dev/tty" "GOT=typed"
$TM resize-window -t main -x 100 -y 30
nsize=$(size_of NEWSIZE)
m_expect "the request ends after the resize" "RC=0"
m_type "stty size | sed 's/^/PANESIZE2=/'"
psize2=$(size_of PANESIZE2)
if [ -n "$psize2" ] && [ "$psize2" != "$psize" ]; then same "a resize reaches its terminal" "$nsize" "$psize2"
else fail "a resize reaches its terminal (the pane went $psize -> $psize2)"; fi

# a denial of a request's command prompts in the requesting pane and is
# in its `sandmux why`; approved (s), nothing of the pane restarts, and
# the pane's later requests have it
m_type "X=alive"
m_type "$S request -- sh -c 'touch $OUT/q 2>/dev/null; echo Q-\$?'; echo RC=\$?"
m_wait main "sandbox prompt: request" 5
m_keys C-b a
m_wait main "sandbox request" 5
m_keys o
m_expect "the request's command is denied" "Q-1"
m_expect "its denial raises a prompt in the pane" "sandbox prompt: create"
m_type "$S why | grep -c outside/q; echo WHY3=\$?"
m_expect "why lists the request's command's denial" "WHY3=0"
m_keys C-b a
m_expect "the prompt says nothing re-runs" "denied in a request's command"
m_keys s
m_waitnot main "sandbox prompt: create" 5
m_type "echo STILL-\$X"
m_expect "the pane's own command did not restart" "STILL-alive"
m_type "$S request -- sh -c 'touch $OUT/q && echo Q2-\$((6*7))'"
m_wait main "sandbox prompt: request" 5
m_keys C-b a
m_wait main "sandbox request" 5
m_keys o
m_expect "a later request of the pane has the grant" "Q2-42"
[ -e "$OUT/q" ] && ok "the approved file exists (seen from outside)" || fail "the approved file exists (seen from outside)"

# over the rate (per pane: a fresh pane has a burst of 4): the fifth and
# sixth are refused at once; the four others time out unanswered
m_sandmux new -n burst -- sh -c "for i in 1 2 3 4 5 6; do $S request -- true 2>>$WS/rl.txt & done; wait; echo RATE-DONE-\$((6*7)); sleep 60" >/dev/null
if m_wait main "RATE-DONE-42" 30; then ok "the burst of requests ends"; else fail "the burst of requests ends"; m_screen | sed 's/^/#   | /'; fi
same "requests over the pane's rate are refused" "$(grep -c "rate limit" "$WS/rl.txt")" 2
same "an unanswered request times out with 126" "$(grep -c "timed out" "$WS/rl.txt")" 4

# outside a pane there is no channel
"$S" request -- true 2>"$WS/none.txt"; rc=$?
[ $rc = 126 ] && ok "outside a pane: 126" || fail "outside a pane: 126 (got $rc)"
