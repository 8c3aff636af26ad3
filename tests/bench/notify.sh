#!/bin/sh
# The floor under the observer's cost: one seccomp user notification
# answered "continue" by a handler that decides nothing, with and without
# SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (tests/bench/notify-floor.c), five
# runs each, interleaved. Compare the handler's CPU with the observer's
# cpu_us_per_call in tests/bench/work.sh. Asserts nothing.
#   sh tests/bench/notify.sh
: "${CALLS:=100000}"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
cc -O2 -std=c11 -D_GNU_SOURCE -o "$out/notify-floor" "$(dirname "$0")/notify-floor.c" || exit 1
echo "seccomp user notification, $CALLS calls a run; $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in 1 2 3 4 5; do
	for s in 1 0; do
		"$out/notify-floor" "$CALLS" "$s" | tr '\n' ' ' | sed "s/^/sync=$s /"
		echo
	done
done | awk '
	{ s = $1; rt[s] = rt[s] " " $4; cpu[s] = cpu[s] " " $10 }
	function med(list,   v, n, i, j, t) {
		n = split(list, v, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return sprintf("%.2f (%.2f, %.2f)", v[int((n + 1) / 2)], v[1], v[n])
	}
	END {
		for (s in rt) printf "%-12s round trip %s us, handler CPU %s us a call (median (min, max))\n", s == "sync=1" ? "sync wake" : "no sync wake", med(rt[s]), med(cpu[s])
	}'
