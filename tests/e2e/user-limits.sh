#!/bin/sh
# Resource limits in panes: the title says which are in force, a fork
# bomb stops at the process limit while the host still forks, and the hit
# shows in the pane, in the denials pane and as a "limit" event.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
mkdir -p "$HOME/.sandmux"
# memory: roomy, as the sandbox's init (a copy of sandmux, a large one
# under ASan) is counted too; tests/sandbox/limits.sh tries a memory hog
echo '{"limits": {"pids": 64, "memory": 512, "tmp": 16}}' >"$HOME/.sandmux/sandmux.json"
EV="$M_ROOT/events"

m_start
m_expect "the title shows the limits in force" "pids 64 mem 512M tmp 16M"
if m_screen | grep -q 'pids 64!'; then # root, no cgroup: no process limit, and the title says so
	echo "ok - # SKIP no cgroup for root here: the process limit is not enforced (the title says pids 64!)"
	exit $T_FAILED
fi
(m_sandmux events >"$EV" 2>&1 &)
t_fork_hold "$WS/hold.py" 4 3
m_type 'python3 hold.py'
m_expect "fork fails inside the pane" "FORK-STOPPED-11"
sh -c 'echo host-forks' | grep -q host-forks && ok "the host still forks meanwhile" || fail "the host still forks meanwhile"
m_wait main "sandmux: limit reached: limits.pids: 64" 15 && ok "the pane says which limit was reached" ||
	{ fail "the pane says which limit was reached"; m_screen | sed 's/^/#   | /'; }
m_expect "the denial is counted in the title" "denials 1"
i=0; while [ $i -lt 50 ] && ! grep -q '"op":"limit"' "$EV"; do sleep 0.1; i=$((i + 1)); done
contains "sandmux events has the limit event" "$(cat "$EV")" '"op":"limit","target":"pids"'
m_keys C-b D
m_expect "the denials pane lists it" "limits.pids"
m_keys q

# a request's command, in its broader sandbox, is bounded the same way
# (the plain build: under the pane's limits a sanitizer's build, started
# afresh, cannot reserve its shadow memory)
mkdir -p "$M_HOME/bin" && cp "${SANDMUX_PLAIN:-$SANDMUX}" "$M_HOME/bin/sandmux"
m_type 'clear'
m_type "$M_HOME/bin/sandmux request --reason bounded -- python3 hold.py; echo REQ-RC=\$?"
m_wait main "prompt!" 10
m_keys C-b a
m_expect "the request prompts" "sandbox request"
m_keys o
m_expect "fork fails in the request's command too" "FORK-STOPPED-11"
m_expect "and the request ends" "REQ-RC=0"

# a huge file in the pane's /tmp stops at its 16 MiB
m_type 'dd if=/dev/zero of=/tmp/big bs=1M count=100; sleep 2; echo DD-DONE'
m_expect "dd in the pane hits the bound" "No space left on device"
m_wait main DD-DONE 15
m_wait main "limits.tmp: 16M" 10 && ok "the full /tmp is reported" || fail "the full /tmp is reported"
exit $T_FAILED
