#!/bin/sh
# Panes reach the network through their own proxy in the server's one
# loop: curl in a pane gets an allowed test host, a denied host is said in
# the 403 and counted on the pane's title, and a slow DNS answer in one
# pane does not hold up another pane. Test hosts in a network namespace
# of the test's own: tests/net/netns.inc (it re-runs this script under
# unshare -Urn, so the server and its sandboxes live in there too).
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
. "$TESTS/e2e/mux.lib"
trap 'm_cleanup; net_down' EXIT
mkdir -p "$HOME/.sandmux"
cp "$ws/.t/policy.json" "$HOME/.sandmux/sandbox.json"
export SANDMUX_NET_HOLD=0 # answered at once: held connections are tests/e2e/escalate-net.sh

m_start 150 40
m_type 'curl -sS --max-time 5 http://good.test/pane-one'
m_expect "a pane fetches an allowed host through its proxy" "hello from 198.51.100.10:80 /pane-one"
m_type 'curl -sS --max-time 5 http://denied.test/'
m_expect "a denied host: the answer names the rule" "sandmux proxy: denied connect denied.test:80 (networkPolicy: not in allow list)"
m_expect "the pane's title counts the denial" "denials 1"

# Pane 1 waits 3 s for slow.test; pane 2 fetches meanwhile.
m_type 'curl -sS --max-time 10 http://slow.test/slow-done'
m_keys C-b %
m_wait main ' 2: ' || fail "split"
m_type 't0=$(date +%s%N); curl -sS --max-time 5 http://good.test/other-pane; echo "tim""e:$(( ($(date +%s%N) - t0) / 1000000 )):ms"'
m_expect "another pane's traffic goes on during a slow DNS answer" "/other-pane"
i=0 # the command line says "tim""e", so only the answer matches
while [ $i -lt 50 ] && ! m_screen | grep -q 'time:[0-9]*:ms'; do sleep 0.1; i=$((i + 1)); done
ms=$(m_screen | sed -n 's/.*time:\([0-9]*\):ms.*/\1/p' | head -1)
if [ -n "$ms" ] && [ "$ms" -lt 1500 ]; then ok "the other pane did not wait ($ms ms)"; else fail "the other pane waited (${ms:-?} ms)"; m_screen | sed 's/^/#   | /'; fi
m_expect "the slow name arrives in the end" "/slow-done"
exit $T_FAILED
