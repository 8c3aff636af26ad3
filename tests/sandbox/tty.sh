#!/bin/sh
# With a terminal on stdin the command gets a PTY of its own: /dev/tty
# opens, it leads its session with the PTY as controlling terminal and is
# in the foreground, resizes arrive, and the outer terminal is restored.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
in_tty() { script -qec "$1" /dev/null </dev/null; }
out=$(in_tty "'$SANDMUX' run -- '$esc' devtty")
contains "/dev/tty opens inside" "$out" "open /dev/tty: succeeded"
out=$(in_tty "'$SANDMUX' run -- sh -c 'tty; ps -o sid=,tpgid=,pid= -p \$\$'")
contains "the command's terminal is a pty of its own" "$out" "/dev/pts/"
set -- $(echo "$out" | tr -d "\r" | tail -1)
same "the command leads its session and is in the foreground" "$1 $2" "$3 $3"
out=$(in_tty "stty cols 77 rows 22; '$SANDMUX' run -- stty size")
contains "the PTY has the outer terminal's size" "$out" "22 77"
out=$(in_tty "stty -a | grep -o -- '-\\?icanon' | head -1; '$SANDMUX' run -- true; stty -a | grep -o -- '-\\?icanon' | head -1")
same "the outer terminal's modes are restored" "$(echo "$out" | tr -d '\r' | tr '\n' ' ')" "icanon icanon "
out=$(in_tty "'$SANDMUX' run -- sh -c 'exit 7'; echo rc=\$?")
contains "exit status through the PTY" "$out" "rc=7"
out=$(in_tty "'$SANDMUX' run -- sh -c 'kill -TERM \$\$'; echo rc=\$?")
contains "signal status 128+N" "$out" "rc=143"
out=$(in_tty "'$SANDMUX' run -- sh -c ': >tty.up; sleep 5 & wait' & i=0; while [ ! -e tty.up ] && [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done; kill -TERM \$!; wait \$!; echo rc=\$?")
contains "SIGTERM to run reaches the command" "$out" "rc=143"
check "job control works inside (bash -i)" sh -c "script -qec \"'$SANDMUX' run -- bash --norc -ic 'sleep 0.1 & wait; fg 2>/dev/null; exit 0'\" /dev/null </dev/null"
out=$(script -qec "bash --norc -ic \"'$SANDMUX' run -- sh -c 'echo bgdone' & wait; echo waited\"" /dev/null </dev/null | tr -d '\r' | tr '\n' ' ')
case "$out" in *Stopped*|*stopped*) fail "a background run is not stopped by the terminal" ;;
*bgdone*waited*) ok "a background run is not stopped by the terminal" ;;
*) fail "a background run is not stopped by the terminal"; echo "#   $out" ;; esac
out=$(script -qec "'$SANDMUX' run -- python3 -c 'import os; print(os.isatty(1)); os.read(1, 1)' </dev/null 2>&1" /dev/null </dev/null | tr -d '\r')
contains "stdin not a terminal: stdout is still the terminal" "$out" "True"
contains "stdin not a terminal: the terminal on stdout cannot be read (keystrokes)" "$out" "Bad file descriptor"
exit $T_FAILED
