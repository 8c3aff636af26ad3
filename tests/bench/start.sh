#!/bin/sh
# Sandbox start overhead, side by side: bare `true`, `sandmux run -- true`
# (workspace, strict, and workspace without the observer), and a
# comparable bubblewrap invocation (user, pid and net namespaces, the
# root read-only, a fresh /proc, /dev and /tmp, the workspace writable).
# Prints mean times and the time each adds over bare `true`; asserts
# nothing. Uses hyperfine when installed, else a timed loop.
#   SANDMUX=./sandmux sh tests/bench/start.sh
: "${SANDMUX:=./sandmux}"
: "${RUNS:=200}"
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
ws=$(mktemp -d "$HOME/.sandmux-bench.XXXXXX")
trap 'rm -rf "$ws"' EXIT
cd "$ws" || exit 1

bare="true"
smx="$SANDMUX run -- true"
smx_strict="$SANDMUX run --sandbox strict -- true"
smx_noobs="$SANDMUX run --no-observer -- true"
echo '{"outsideWrites": "capture"}' >"$ws/capture.json"
smx_capture="$SANDMUX run --config $ws/capture.json -- true"
bwrap="bwrap --unshare-user --unshare-pid --unshare-net --die-with-parent --ro-bind / / --proc /proc --dev /dev --tmpfs /tmp --bind $ws $ws --chdir $ws -- true"
$SANDMUX run --no-observer -- true 2>/dev/null || smx_noobs=""
command -v bwrap >/dev/null 2>&1 && $bwrap 2>/dev/null || { echo "# bwrap unavailable or not working here: skipped"; bwrap=""; }

# mean_ms CMD: the mean wall time of CMD in milliseconds.
mean_ms() {
	if command -v hyperfine >/dev/null 2>&1; then
		hyperfine -N -w 20 -r "$RUNS" --export-json "$ws/h.json" "$1" >/dev/null 2>&1 &&
			python3 -c 'import json,sys; print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["mean"] * 1000))' "$ws/h.json"
	else
		python3 - "$1" "$RUNS" <<'PY'
import subprocess, sys, time, shlex
cmd, n = shlex.split(sys.argv[1]), int(sys.argv[2])
for _ in range(10): subprocess.run(cmd)
t = time.perf_counter()
for _ in range(n): subprocess.run(cmd)
print("%.3f" % ((time.perf_counter() - t) / n * 1000))
PY
	fi
}

b=$(mean_ms "$bare")
printf '%-34s %9s %12s\n' "start overhead ($RUNS runs)" "mean ms" "added ms"
printf '%-34s %9s %12s\n' "bare true" "$b" "-"
row() { # row LABEL CMD -> prints, and echoes the added ms into $added
	m=$(mean_ms "$2")
	added=$(python3 -c "print('%.3f' % ($m - $b))")
	printf '%-34s %9s %12s\n' "$1" "$m" "$added"
}
row "sandmux run -- true" "$smx"; a_smx=$added
row "sandmux run --sandbox strict" "$smx_strict"
[ -n "$smx_noobs" ] && { row "sandmux run --no-observer" "$smx_noobs"; a_noobs=$added; }
row "sandmux run, capture mode" "$smx_capture"
if [ -n "$bwrap" ]; then
	row "bwrap (comparable)" "$bwrap"; a_bw=$added
	python3 -c "print('sandmux adds %.2fx bubblewrap\'s added time (target: <= 0.33x)' % ($a_smx / $a_bw))"
	[ -n "$a_noobs" ] && python3 -c "print('without the observer: %.2fx' % ($a_noobs / $a_bw))"
fi
