#!/bin/sh
# A pane's sandbox init (pid 1 inside), forked from the server: the
# server's crash handlers do not come with it, so a pane's command
# signalling pid 1 with one of their signals (SIGALRM, SIGVTALRM) is
# ignored as pid 1 ignores what it has no handler for, and the pane goes
# on (it used to end the pane's sandbox). And the init keeps little of
# the server's memory resident (read from outside, where the test user
# may: init is not dumpable).
. "$TESTS/e2e/mux.lib"
m_start 120 40
# (a pane made after the server installed them: not the first)
m_sandmux new -- sh -c ': >started; kill -ALRM 1; kill -VTALRM 1; sleep 1; : >still; exec sleep 3600' >/dev/null
t_until 60 test -e "$WS/started" && ok "the second pane started" || fail "the second pane started"
t_until 30 test -e "$WS/still" && ok "a pane signalling its init (pid 1) with the server's crash signals goes on" ||
	fail "a pane signalling its init (pid 1) with the server's crash signals goes on"
spid=$(sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
ipid=
for c in $(cat /proc/"$spid"/task/*/children 2>/dev/null); do
	[ "$(awk '/^NSpid/ {print NF}' /proc/"$c"/status 2>/dev/null)" = 3 ] && ipid=$c
done
rss=$(awk '/^Rss:/ {print $2}' /proc/"$ipid"/smaps_rollup 2>/dev/null)
if [ -z "$ipid" ]; then
	fail "the server has a pane's init among its children"
elif [ -z "$rss" ]; then
	ok "a pane's init's memory # SKIP its /proc/PID/smaps_rollup is not readable here (init is not dumpable)"
elif [ "$(uname -m)" != x86_64 ] || [ -n "$ASAN_OPTIONS" ]; then
	ok "a pane's init's memory # SKIP init gives its mappings back on x86_64 only, not under ASan (resident: $rss kB)"
elif [ "$rss" -le 512 ]; then
	ok "a pane's init keeps at most 512 kB resident ($rss kB)"
else
	fail "a pane's init keeps at most 512 kB resident ($rss kB)"
fi
exit $T_FAILED
