#!/bin/sh
# Sandbox start overhead, side by side: bare `true`, `sandmux run -- true`
# (workspace, strict, and workspace without the observer), and a
# comparable bubblewrap invocation (user, pid and net namespaces, the
# root read-only, a fresh /proc, /dev and /tmp, the workspace writable).
# Prints median, mean, min and max times of interleaved rounds and the
# time each adds over bare `true`; asserts nothing.
#   SANDMUX=./sandmux sh tests/bench/start.sh
# SANDMUX_OLD=PATH adds that binary's `run -- true` to the same rounds (a
# build before a change, say), with its ratio to bubblewrap.
: "${SANDMUX:=./sandmux}"
: "${RUNS:=200}"
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
ws=$(mktemp -d "$HOME/.sandmux-bench.XXXXXX")
trap 'rm -rf "$ws"' EXIT
cd "$ws" || exit 1

bare="true"
smx_old=""
[ -n "$SANDMUX_OLD" ] && smx_old="$SANDMUX_OLD run -- true"
smx="$SANDMUX run -- true"
smx_strict="$SANDMUX run --sandbox strict -- true"
smx_noobs="$SANDMUX run --no-observer -- true"
echo '{"outsideWrites": "capture"}' >"$ws/capture.json"
smx_capture="$SANDMUX run --config $ws/capture.json -- true"
bwrap="bwrap --unshare-user --unshare-pid --unshare-net --die-with-parent --ro-bind / / --proc /proc --dev /dev --tmpfs /tmp --bind $ws $ws --chdir $ws -- true"
$SANDMUX run --no-observer -- true 2>/dev/null || smx_noobs=""
command -v bwrap >/dev/null 2>&1 && $bwrap 2>/dev/null || { echo "# bwrap unavailable or not working here: skipped"; bwrap=""; }

# Every round runs each command once, in turn, so that the load of a
# shared machine falls on all of them alike; medians (and means) of the
# rounds, in milliseconds.
python3 - "$RUNS" "bare true" "$bare" "sandmux run -- true" "$smx" \
	"sandmux run --sandbox strict" "$smx_strict" "sandmux run --no-observer" "$smx_noobs" \
	"sandmux run, capture mode" "$smx_capture" "older sandmux run -- true" "$smx_old" \
	"bwrap (comparable)" "$bwrap" <<'PY'
import shlex, statistics, subprocess, sys, time
runs, rows = int(sys.argv[1]), [(l, shlex.split(c)) for l, c in zip(sys.argv[2::2], sys.argv[3::2]) if c]
times = {l: [] for l, _ in rows}
for i in range(10 + runs):
    for l, c in rows:
        t = time.perf_counter()
        subprocess.run(c)
        if i >= 10:  # the first rounds warm the caches
            times[l].append((time.perf_counter() - t) * 1000)
med = {l: statistics.median(v) for l, v in times.items()}
print("%-34s %9s %9s %9s %9s %12s" % ("start overhead (%d rounds)" % runs, "median ms", "mean ms", "min ms", "max ms",
                                      "added ms"))
for l, _ in rows:
    print("%-34s %9.3f %9.3f %9.3f %9.3f %12s" % (l, med[l], statistics.mean(times[l]), min(times[l]), max(times[l]),
                                                  "-" if l == "bare true" else "%.3f" % (med[l] - med["bare true"])))
bw = "bwrap (comparable)"
if bw in med:
    add = lambda l: med[l] - med["bare true"]
    print("sandmux adds %.2fx bubblewrap's added time (target: <= 0.33x)" % (add("sandmux run -- true") / add(bw)))
    print("sandmux run -- true takes %.2fx bubblewrap's total time (target: <= 1.00x); min %.2fx, max %.2fx" % (
        med["sandmux run -- true"] / med[bw], min(times["sandmux run -- true"]) / min(times[bw]),
        max(times["sandmux run -- true"]) / max(times[bw])))
    if "older sandmux run -- true" in med:
        print("the older sandmux: %.2fx bubblewrap's total time" % (med["older sandmux run -- true"] / med[bw]))
    if "sandmux run --no-observer" in med:
        print("without the observer: %.2fx, %.2fx" % (add("sandmux run --no-observer") / add(bw), med["sandmux run --no-observer"] / med[bw]))
PY
