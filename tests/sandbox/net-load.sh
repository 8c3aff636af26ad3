#!/bin/sh
# Load on the proxy: 500 tunnels open at once, each answered; a
# half-closed tunnel moving 4 MiB each way through bounded buffers; a slow DNS
# answer does not hold up another connection, nor another sandbox.
# Test hosts: see tests/net/netns.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
cp "$NET/many.py" "$ws/.t/many.py"
out=$(nrun -- python3 .t/many.py 127.0.0.1 3128 good.test 500 2>&1)
same "500 concurrent tunnels, each answered" "$out" "500 tunnels up, 500 answered"
# 4 MiB through 64 KiB buffers to a server that answers only after EOF:
# the half-close must pass through, and nothing may be lost either way.
cp "$NET/probe.py" "$ws/.t/probe.py"
out=$(nrun -- python3 .t/probe.py 127.0.0.1 3128 halfclose 2>&1)
same "half-close passes through the tunnel, 4 MiB each way intact" "$out" "same"

# slow.test is answered after 3 s; good.test at once, by the same proxy.
out=$(nrun -- sh -c '
curl -sS --max-time 10 -o /dev/null -w "slow %{http_code}\n" http://slow.test/ &
i=0; until grep -qx slow.test .t/zone.queries 2>/dev/null || [ $i -ge 200 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s%N)
curl -sS --max-time 10 -o /dev/null -w "fast %{http_code}\n" http://good.test/
echo "fast took $(( ($(date +%s%N) - t0) / 1000000 )) ms"
wait' 2>&1)
contains "the slow name resolves in the end" "$out" "slow 200"
contains "another connection goes on meanwhile" "$out" "fast 200"
ms=$(echo "$out" | sed -n 's/^fast took \([0-9]*\) ms$/\1/p')
if [ -n "$ms" ] && [ "$ms" -lt 1500 ]; then ok "the other connection did not wait for the slow answer ($ms ms)"; else fail "the other connection waited (${ms:-?} ms)"; echo "$out" | sed 's/^/#   /'; fi
# Another sandbox is not held up either.
asked=$(grep -cx slow.test "$ws/.t/zone.queries")
nrun -- curl -sS --max-time 10 -o /dev/null http://slow.test/ &
slow=$!
slow_asked() { [ "$(grep -cx slow.test "$ws/.t/zone.queries")" -gt "$1" ]; }
t_until 20 slow_asked "$asked" || fail "the slow name was asked for"
t0=$(date +%s%N)
check "another sandbox's traffic goes on meanwhile" nrun -- curl -sS --max-time 5 http://good.test/
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$ms" -lt 2500 ]; then ok "the other sandbox did not wait ($ms ms)"; else fail "the other sandbox waited ($ms ms)"; fi
wait $slow
exit $T_FAILED
