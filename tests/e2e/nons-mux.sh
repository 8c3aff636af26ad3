#!/bin/sh
# The weaker sandbox (no user namespaces) in panes: the pane's title says
# "(weak)", curl reaches an allowed test host through the pane's proxy on
# the host's loopback (which refuses a process outside the pane), and a process that escaped with setsid is gone once
# the pane is killed (checked from outside with kill -0). Test hosts:
# tests/net/netns.inc; no user namespaces: tests/sandbox/nons.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
. "$TESTS/sandbox/nons.inc"
. "$TESTS/e2e/mux.lib"
trap 'm_cleanup; net_down' EXIT
mkdir -p "$HOME/.sandmux"
cp "$ws/.t/policy.json" "$HOME/.sandmux/sandbox.json"
export SANDMUX_NET_HOLD=0

(cd "$WS" && $TM new -d -s main -x 150 -y 40 \
	"unshare -U --map-user=1000 --map-group=1000 -- $SANDMUX; echo CLIENT-EXIT \$?; sleep 3600")
m_expect "a pane starts in the weaker sandbox and its title says so" "workspace (weak: landlock · seccomp · proxy (landlock tcp) · observer)"
m_type 'curl -sS --max-time 5 http://good.test/weak-pane'
m_expect "a weak pane fetches an allowed host through its proxy" "hello from 198.51.100.10:80 /weak-pane"
# The pane's proxy is on the host's loopback: a process outside the pane
# (this script) is refused without the pane's credentials.
m_type 'echo "${HTTP_PROXY##*:}" > proxy.port'
i=0; while [ ! -s "$WS/proxy.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
out=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -x "http://127.0.0.1:$(cat "$WS/proxy.port")" \
	http://good.test/outside 2>&1)
same "outside the pane, its proxy answers 407" "$out" 407
m_type 'setsid sh -c "echo \$\$ > esc.pid; exec sleep 1000" &'
i=0; while [ ! -s "$WS/esc.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
pid=$(cat "$WS/esc.pid" 2>/dev/null)
case "$pid" in ''|*[!0-9]*) fail "the escapee wrote its pid"; exit 1 ;; esac
check "the escapee runs while the pane does" kill -0 "$pid"
m_keys C-b x; m_wait main "(y/n)"; m_keys y # the pane is killed (its sandbox's tree with it)
i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
refuse "the pane killed: the escapee is gone" kill -0 "$pid"
exit $T_FAILED
