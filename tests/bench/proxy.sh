#!/bin/sh
# The proxy against a direct connection, side by side: download throughput
# (a 512 MiB transfer, best of three) and connect latency (connect, CONNECT, a 64-byte
# GET, to the end; by IP and by name through the test resolver), for
#   direct        the client connects to the test host itself
#   proxyd        sandmux's proxy alone on a host port (tests/net/proxyd.c)
#   sandmux run   curl inside a sandbox, through its proxy, as a person would
# All inside a network namespace of the bench's own (tests/net/netns.inc:
# documentation addresses on a veth pair, never the internet). Asserts
# nothing.  SANDMUX=./sandmux sh tests/bench/proxy.sh
: "${SANDMUX:=./sandmux}"
: "${RUNS:=300}"
: "${MIB:=512}"
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
top=$(cd "$(dirname "$0")/../.." && pwd)
export TESTS="${TESTS:-$top/tests}" SANDMUX
. "$TESTS/net/netns.inc"
net_up || { echo "# no test hosts: skipped"; exit 0; }
# proxyd: built from sandmux's objects (make has built them).
objs=$(ls "$top"/build/policy/*.o "$top"/build/backends/*.o 2>/dev/null)
cc -O2 -std=c11 -D_GNU_SOURCE -I"$top" $(pkg-config --cflags libcjson) -o "$ws/.t/proxyd" "$TESTS/net/proxyd.c" \
	$objs $(pkg-config --libs libcjson libseccomp) || { echo "# proxyd does not build: skipped"; exit 0; }
srv python3 "$NET/blast.py" 198.51.100.10 9000 & T_PIDS="$T_PIDS $!"
(cd "$ws" && "$ws/.t/proxyd" "$ws/.t/policy.json" 18080 2>"$ws/.t/proxyd.log") & T_PIDS="$T_PIDS $!"
i=0 # python and the proxy take a moment to listen on a loaded machine
until curl -s -o /dev/null http://198.51.100.10:9000/1 && curl -s -o /dev/null -p -x http://127.0.0.1:18080 \
	http://198.51.100.10:9000/1 || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
bytes=$((MIB * 1048576))

mbps() { # mbps CURL-ARGS...: MiB/s, the best of three downloads (the machine may be shared)
	for _ in 1 2 3; do curl -s -o /dev/null -w '%{speed_download}\n' "$@"; done |
		awk '$1 > m { m = $1 } END { printf "%.0f", m / 1048576 }'
}
echo "throughput, a ${MIB} MiB download, best of 3 (MiB/s):"
printf '  %-34s %s\n' "direct" "$(mbps "http://198.51.100.10:9000/$bytes")"
printf '  %-34s %s\n' "proxyd, HTTP CONNECT" "$(mbps -p -x http://127.0.0.1:18080 "http://198.51.100.10:9000/$bytes")"
printf '  %-34s %s\n' "proxyd, plain HTTP" "$(mbps -x http://127.0.0.1:18080 "http://198.51.100.10:9000/$bytes")"
printf '  %-34s %s\n' "proxyd, SOCKS5" "$(mbps -x socks5h://127.0.0.1:18080 "http://198.51.100.10:9000/$bytes")"
sb=$(cd "$ws" && "$SANDMUX" run --config "$ws/.t/policy.json" -- curl -s -o /dev/null -w '%{speed_download}' -p \
	"http://198.51.100.10:9000/$bytes" 2>/dev/null | awk '{ printf "%.0f", $1 / 1048576 }')
printf '  %-34s %s\n' "sandmux run, curl via its proxy" "$sb"

echo "connect latency, $RUNS connections (ms: mean median p99):"
printf '  %-34s %s\n' "direct" "$(python3 "$NET/latency.py" "$RUNS" 198.51.100.10 9000)"
printf '  %-34s %s\n' "proxyd, CONNECT by IP" "$(python3 "$NET/latency.py" "$RUNS" 198.51.100.10 9000 127.0.0.1 18080)"
printf '  %-34s %s\n' "proxyd, CONNECT by name (+DNS)" "$(python3 "$NET/latency.py" "$RUNS" good.test 9000 127.0.0.1 18080)"
cp "$NET/latency.py" "$ws/.t/"
sb=$(cd "$ws" && "$SANDMUX" run --config "$ws/.t/policy.json" -- python3 .t/latency.py "$RUNS" 198.51.100.10 9000 127.0.0.1 3128 2>/dev/null)
printf '  %-34s %s\n' "sandmux run, CONNECT by IP" "$sb"
