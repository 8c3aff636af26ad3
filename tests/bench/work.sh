#!/bin/sh
# Real work, side by side in one run: unpacking the system headers and
# removing them, `git clone --no-local` of this repository (with its
# checkout), `npm ci` of a real lockfile (tests/bench/npm/) from an offline
# cache, and `make -j2` of sandmux, each bare, under bubblewrap with a
# comparable profile (user, pid, net namespaces; / read-only; the
# workspace writable; fresh /proc, /dev, /tmp), under Landlock alone
# (`run --no-observer`), and under sandmux's default and capture modes,
# and as root with Landlock's audit records as the denial channel
# ("audit": a HOME of its own whose sandmux.json has "denials": "audit";
# auditing is turned on for those runs alone, then back to what it was;
# BENCH_AUDIT=0 leaves it out).
# The modes run interleaved, their order rotating; each cell is the median
# of $RUNS rounds with the min and max, then the ratio to bubblewrap, the
# notified calls and the observer's CPU per call (from --report; the
# median, min and max over the rounds).
# The workspace is a tmpfs (root only) and then a directory on disk.
# Asserts nothing.
#   SANDMUX=./sandmux sh tests/bench/work.sh
#   RUNS=3 DISK_RUNS=1 MAKE_RUNS=1 BENCH_FS="tmpfs disk" BENCH_WORK="untar clone npm make" MAKE_FS=tmpfs
# npm's cache is filled once from the registry, outside any sandbox, into
# $NPM_CACHE (kept between runs); the rounds themselves run `npm ci
# --offline` on a copy of it in the workspace. Without the registry and
# without a filled cache the npm row is skipped, saying so.
# Takes about 3 minutes on a quiet machine (the disk and make rows the most).
: "${SANDMUX:=./sandmux}"
: "${RUNS:=3}"
: "${MAKE_RUNS:=1}"
: "${DISK_RUNS:=1}" # a shared disk makes each untar take seconds
: "${BENCH_FS:=tmpfs disk}"
: "${BENCH_WORK:=untar clone npm make}"
: "${NPM_CACHE:=$HOME/.sandmux-bench-npm-cache}"
: "${MAKE_FS:=tmpfs}" # make on disk too: MAKE_FS="tmpfs disk" (5 builds per file system)
: "${BENCH_AUDIT:=1}"
top=$(cd "$(dirname "$0")/../.." && pwd)
base=$(mktemp -d "$HOME/.sandmux-bench-work.XXXXXX") || exit 1
chmod 755 "$base"
auditsw="$top/tests/sandbox/audit-set.py"
audit_old=
[ "$BENCH_AUDIT" = 1 ] && [ "$(id -u)" = 0 ] && audit_old=$(python3 "$auditsw" 2>/dev/null)
trap 'cd /; umount "$base/ws" 2>/dev/null; rm -rf "$base"; [ -n "$audit_old" ] && python3 "$auditsw" "$audit_old" >/dev/null' EXIT
cp "$SANDMUX" "$base/sandmux" && SANDMUX="$base/sandmux"
echo '{"outsideWrites": "capture"}' >"$base/capture.json"
mkdir -p "$base/audit-home/.sandmux" && echo '{"denials": "audit"}' >"$base/audit-home/.sandmux/sandmux.json"

# Inputs, made once outside: the headers as a tar, a bare copy of this
# repository, the source tree as a tar.
tar -cf "$base/include.tar" -C /usr include 2>/dev/null
entries=$(tar -tf "$base/include.tar" | wc -l)
have_git=0
git clone -q --bare --no-local "$top" "$base/src.git" 2>/dev/null && have_git=1
(cd "$top" && tar -cf "$base/tree.tar" Makefile .clang-format policy backends pty ui shell 2>/dev/null)
have_npm=0
npm_fill() { # the cache, filled once: npm ci online into a scratch directory
	[ -f "$NPM_CACHE/.filled" ] && return 0
	command -v npm >/dev/null || return 1
	d="$base/npm-fill" && mkdir -p "$d" && cp "$top/tests/bench/npm/package.json" "$top/tests/bench/npm/package-lock.json" "$d/" &&
		(cd "$d" && npm ci --cache "$NPM_CACHE" --no-audit --no-fund --ignore-scripts --no-update-notifier >/dev/null 2>&1) &&
		rm -rf "$d" && touch "$NPM_CACHE/.filled"
}
case " $BENCH_WORK " in *" npm "*)
	if npm_fill; then have_npm=1; else echo "# npm: no npm or no registry to fill $NPM_CACHE once: the npm row is skipped"; fi ;;
esac
have_bwrap=0
bwrap --unshare-user --unshare-pid --unshare-net --ro-bind / / true 2>/dev/null && have_bwrap=1

now() { date +%s.%N; }

# one MODE CMD: runs CMD in the workspace under MODE, prints seconds.
one() {
	[ "$1" = audit ] && python3 "$auditsw" 1 >/dev/null
	t0=$(now)
	case $1 in
	bare) sh -c "$2" ;;
	bwrap) bwrap --unshare-user --unshare-pid --unshare-net --die-with-parent --ro-bind / / --bind "$ws" "$ws" \
		--proc /proc --dev /dev --tmpfs /tmp --chdir "$ws" sh -c "$2" ;;
	landlock) "$SANDMUX" run --no-observer -- sh -c "$2" ;;
	default) "$SANDMUX" run --report "$base/report-default.json" -- sh -c "$2" ;;
	capture) "$SANDMUX" run --config "$base/capture.json" --report "$base/report-capture.json" -- sh -c "$2" ;;
	audit) HOME="$base/audit-home" "$SANDMUX" run --report "$base/report-audit.json" -- sh -c "$2" ;;
	esac >/dev/null 2>"$base/err"
	rc=$?
	t1=$(now)
	[ "$1" = audit ] && python3 "$auditsw" "$audit_old" >/dev/null
	[ $rc = 0 ] || echo "# $1 exited $rc: $(head -c 300 "$base/err")" >&2
	awk "BEGIN { printf \"%.3f\", $t1 - $t0 }"
}

# stats T...: "median min max" of the arguments.
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f %.3f %.3f", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
field() { tr -d '\t\n ' <"$1" 2>/dev/null | sed -n "s/.*\"$2\":\([0-9.]*\).*/\1/p"; }
# A capture run that wrote anything outside leaves a layer: not kept.
drop_layer() {
	l=$(tr -d '\t\n ' <"$base/report-capture.json" 2>/dev/null | sed -n 's/.*"capture_layer":"\([^"]*\)".*/\1/p')
	[ -n "$l" ] && "$SANDMUX" captured --layer "$l" discard >/dev/null 2>&1
}

row() { # row NAME ROUNDS CMD
	name=$1; rounds=$2; cmd=$3
	modes="bare landlock default capture"
	[ $have_bwrap = 1 ] && modes="bare bwrap landlock default capture"
	[ -n "$audit_old" ] && modes="$modes audit"
	for m in $modes; do eval "t_$m='' c_$m=''"; done
	for i in $(seq 1 "$rounds"); do
		set -- $modes
		k=$((i % $#))
		order=$modes
		while [ $k -gt 0 ]; do order="${order#* } $1"; shift; k=$((k - 1)); done
		for m in $order; do
			t=$(one "$m" "$cmd")
			eval "t_$m=\"\$t_$m $t\""
			case $m in default | capture | audit)
				c=$(field "$base/report-$m.json" cpu_us_per_call)
				[ -n "$c" ] && eval "c_$m=\"\$c_$m $c\"" ;;
			esac
			[ "$m" = capture ] && drop_layer
		done
	done
	eval "ref=\$(stats \$t_bwrap)"
	ref=${ref%% *}
	for m in $modes; do
		eval "s=\$(stats \$t_$m)"
		med=${s%% *}
		ratio=-
		[ -n "$ref" ] && [ $have_bwrap = 1 ] && ratio=$(awk "BEGIN { printf \"%.2fx\", $med / $ref }")
		n=- cpu=-
		case $m in default | capture | audit)
			n=$(field "$base/report-$m.json" notified)
			eval "cs=\$c_$m"
			[ -n "$cs" ] && cpu=$(stats $cs | awk '{ printf "%.1f (%.1f-%.1f)", $1, $2, $3 }') ;;
		esac
		printf "%-26s %-8s %-6s %-23s %7s %9s %s\n" "$name" "$m" "$fs" "$s" "$ratio" "${n:--}" "${cpu:--}"
	done
}

echo "real work: median min max of $RUNS rounds ($DISK_RUNS on disk, $MAKE_RUNS for make), seconds; ratio to bubblewrap;"
echo "$(nproc) CPUs, $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-26s %-8s %-6s %-23s %7s %9s %s\n" "workload" "mode" "fs" "median min max" "ratio" "notified" "us/call median (min-max)"
for fs in $BENCH_FS; do
	ws="$base/ws"
	mkdir -p "$ws"
	if [ "$fs" = tmpfs ]; then
		[ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1g tmpfs "$ws" 2>/dev/null || { echo "# tmpfs: root only, skipped"; continue; }
	fi
	cp "$base/include.tar" "$base/tree.tar" "$ws/" 2>/dev/null
	[ $have_git = 1 ] && cp -r "$base/src.git" "$ws/src.git"
	[ $have_npm = 1 ] && cp -r "$NPM_CACHE" "$ws/npm-cache" && cp -r "$top/tests/bench/npm" "$ws/npm"
	cd "$ws" || exit 1
	rounds=$RUNS
	[ "$fs" = disk ] && rounds=$DISK_RUNS
	for w in $BENCH_WORK; do
		case $w in
		untar) row "untar+rm $entries entries" "$rounds" \
			"rm -rf x; mkdir x && tar --no-same-owner -xf include.tar -C x && rm -rf x" ;;
		clone) [ $have_git = 1 ] && row "git clone --no-local" "$rounds" \
			"rm -rf c; git clone -q --no-local src.git c && rm -rf c" ;;
		npm) [ $have_npm = 1 ] && row "npm ci (179 packages)" "$rounds" \
			"rm -rf n; mkdir n && cp npm/package.json npm/package-lock.json n/ && cd n && npm ci --offline --cache ../npm-cache --logs-dir ../npm-logs --no-audit --no-fund --ignore-scripts --no-update-notifier && cd .. && rm -rf n" ;;
		make) case " $MAKE_FS " in *" $fs "*) ;; *) continue ;; esac
			row "make -j2 sandmux" "$MAKE_RUNS" \
			"rm -rf m; mkdir m && tar -xf tree.tar -C m && make -s -C m -j2 sandmux && rm -rf m" ;;
		esac
	done
	cd "$base" || exit 1
	[ "$fs" = tmpfs ] && umount "$ws"
	rm -rf "$ws"
done
