#!/bin/sh
# Observer overhead on file-heavy work, side by side: bare (no sandbox),
# sandboxed with Landlock alone (--no-observer), and sandboxed with the
# observer. Runs the three modes interleaved (the order rotating, since a
# file system is slower right after a mass deletion), $RUNS rounds, and
# reports the best wall-clock time of each, plus the host's CPU time per
# notification from the --report. Asserts nothing: a loaded machine moves
# these numbers a lot. As root the workspace is a tmpfs (the file system's
# own cost out of the way) unless BENCH_FS=disk.
#   SANDMUX=./sandmux sh tests/bench/observer.sh
: "${SANDMUX:=./sandmux}"
: "${RUNS:=3}"
: "${FILES:=20000}"
ws=$(mktemp -d "$HOME/.sandmux-bench.XXXXXX")
fs=disk
if [ "$(id -u)" = 0 ] && [ "${BENCH_FS:-tmpfs}" = tmpfs ] && mount -t tmpfs -o size=1g tmpfs "$ws"; then
	fs=tmpfs
fi
trap 'cd /; [ $fs = tmpfs ] && umount "$ws"; rm -rf "$ws"' EXIT
# A copy: a build running meanwhile must not replace the binary under us.
cp "$SANDMUX" "$ws/.sandmux" && SANDMUX="$ws/.sandmux"
cd "$ws" || exit 1

# A tarball of many small files (the system headers), made outside.
tar -cf src.tar -C /usr include 2>/dev/null
tarfiles=$(tar -tf src.tar | wc -l)

create="rm -rf d; mkdir d && cd d && seq 1 $FILES | xargs touch && cd .. && rm -rf d"
untar="rm -rf x; mkdir x && tar --no-same-owner -xf src.tar -C x && rm -rf x"

now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
min() { if [ -z "$1" ] || [ "$(calc "$2 < $1")" = 1.000 ]; then echo "$2"; else echo "$1"; fi; }

# one MODE CMD: the wall time of one run.
one() {
	t0=$(now)
	case $1 in
	bare) sh -c "$2" ;;
	landlock) "$SANDMUX" run --no-observer -- sh -c "$2" ;;
	observer) "$SANDMUX" run --report "$ws/report.json" -- sh -c "$2" ;;
	esac
	t1=$(now)
	calc "$t1 - $t0"
}

row() {
	name=$1; cmd=$2; b=""; l=""; o=""
	for i in $(seq 1 "$RUNS"); do
		case $((i % 3)) in
		1) order="bare landlock observer" ;;
		2) order="landlock observer bare" ;;
		0) order="observer bare landlock" ;;
		esac
		for m in $order; do
			t=$(one $m "$cmd")
			case $m in bare) b=$(min "$b" "$t") ;; landlock) l=$(min "$l" "$t") ;; observer) o=$(min "$o" "$t") ;; esac
		done
	done
	pct=$(awk "BEGIN { printf \"%+.1f\", ($o - $l) * 100 / $l }")
	n=$(tr -d '\t\n ' <"$ws/report.json" | sed -n 's/.*"notified":\([0-9]*\).*/\1/p')
	cpu=$(tr -d '\t\n ' <"$ws/report.json" | sed -n 's/.*"host_cpu_us":\([0-9]*\).*/\1/p')
	printf "%-30s %8.3f %9.3f %10.3f %8s%% %10s %8s\n" "$name" "$b" "$l" "$o" "$pct" "$n" \
		"$(awk "BEGIN { printf \"%.1f\", $cpu / ($n + 1) }")"
}

echo "observer overhead: best of $RUNS rounds, seconds, workspace on $fs; $(nproc) CPUs, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-30s %8s %9s %10s %9s %10s %8s\n" "workload" "bare" "landlock" "+observer" "overhead" "notified" "cpu us/n"
row "create+remove $FILES files" "$create"
row "untar+remove $tarfiles entries" "$untar"
