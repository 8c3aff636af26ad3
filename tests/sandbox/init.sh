#!/bin/sh
# The sandbox's init (pid 1 inside, without a terminal): it reports the
# command's exit status and a signal death as 128+N, forwards a signal
# sent to it from outside to the command, reaps an orphan re-parented to
# it, and once the command runs keeps almost nothing of the memory it was
# forked with resident (it gives back every mapping: read from outside in
# its /proc, where the test user may: init is not dumpable).
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1

sbx -- sh -c 'exit 7'
same "the command's exit status" "$?" 7
sbx -- sh -c 'kill -USR1 $$'
same "a signal death is 128+N" "$?" 138

# The inner sh leaves its sleep behind at once: init (pid 1) is its parent
# now, and once the sleep ends it is reaped (a zombie keeps /proc/PID).
out=$(sbx -- sh -c '
p=$(sh -c "sleep 1 >/dev/null & echo \$!")
i=0; while [ "$(awk "/^PPid/ {print \$2}" /proc/$p/status 2>/dev/null)" != 1 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
echo "ppid $(awk "/^PPid/ {print \$2}" /proc/$p/status 2>/dev/null)"
i=0; while [ -e /proc/$p ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -e /proc/$p ] && echo "left $(cut -d" " -f3 /proc/$p/stat)" || echo reaped' 2>&1)
contains "an orphan is re-parented to init" "$out" "ppid 1"
contains "init reaps the orphan" "$out" "reaped"

# init_pid RUN_PID: the run's child in a pid namespace of its own (pid 1 there).
init_pid() {
	for _c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		[ "$(awk '/^NSpid/ {print NF}' /proc/"$_c"/status 2>/dev/null)" = 3 ] && echo "$_c" && return
	done
}
rm -f up
"$SANDMUX" run -- sh -c 'trap "exit 5" HUP; : >up; while :; do sleep 0.1; done' >/dev/null 2>&1 &
run=$!
t_until 60 test -e up || fail "the command started"
ipid=$(init_pid $run)
case "$ipid" in '' | *[!0-9]*) fail "the run has an init in its own pid namespace" ;; *)
	ok "the run has an init in its own pid namespace"
	rss=$(awk '/^Rss:/ {print $2}' /proc/"$ipid"/smaps_rollup 2>/dev/null)
	if [ -z "$rss" ]; then
		ok "init's memory # SKIP its /proc/PID/smaps_rollup is not readable here (init is not dumpable)"
	elif [ "$(uname -m)" != x86_64 ]; then
		ok "init's memory # SKIP init gives its mappings back on x86_64 only (resident: $rss kB)"
	elif [ "$rss" -le 512 ]; then
		ok "init keeps at most 512 kB resident ($rss kB)"
	else
		fail "init keeps at most 512 kB resident ($rss kB)"
	fi
	kill -HUP "$ipid"
	wait $run
	same "a signal to init reaches the command" "$?" 5 ;;
esac
kill $run 2>/dev/null
exit $T_FAILED
