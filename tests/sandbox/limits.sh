#!/bin/sh
# Resource limits: a fork bomb, a memory hog and a huge file in /tmp stop
# at the pane's limits (small ones here: the machine is shared), the host
# is unaffected (checked from outside), each hit is a denial of op
# "limit" in run --report, and doctor names what holds each limit.
. "$TESTS/sandbox/common.inc"
t_dir h
export HOME="$h"
mkdir -p "$HOME/.sandmux"
echo '{"limits": {"pids": 64, "memory": 64, "tmp": 16}}' >"$HOME/.sandmux/sandmux.json"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }

# Root with no cgroup to write has no process limit (RLIMIT_NPROC does not
# bind root): then it must be said, and no fork bomb is tried.
sbx --report "$ws/.t/probe.json" -- true
probe=$(cat "$ws/.t/probe.json")
case "$probe" in
*"NOT ENFORCED"*)
	ok "no cgroup for root here: the report says the process limit is NOT ENFORCED"
	echo "ok - # SKIP the fork bomb and the process count: nothing here can bound root's processes"
	pids_held=no ;;
*) pids_held=yes ;;
esac

if [ "$pids_held" = yes ]; then
# A fork bomb for 4 s; meanwhile the host (this user, outside) still forks.
cat >"$ws/bomb.sh" <<'SH'
b() { b | b & }
sleep 4 & s=$! # (forked first: the bomb leaves no room to fork it)
b 2>/dev/null
: >.t/bomb.up
wait $s
SH
start=$(date +%s)
sbx --report "$ws/.t/bomb.json" -- sh bomb.sh >/dev/null 2>&1 &
run=$!
t_until 20 test -e "$ws/.t/bomb.up" || fail "the fork bomb went off"
check "the host can still fork while a pane fork-bombs" sh -c 'sh -c "echo forked" | grep -q forked'
out=$(sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.1 & done; wait; echo eight' 2>&1)
same "and start several processes at once" "$out" "eight"
kill -0 $run 2>/dev/null || fail "the fork bomb still ran during those checks"
wait $run
end=$(date +%s)
[ $((end - start)) -lt 30 ] && ok "the fork bomb ends with its command" || fail "the fork bomb ends with its command ($((end - start)) s)"
rep=$(cat "$ws/.t/bomb.json" 2>/dev/null)
contains "run --report lists the limits in force" "$rep" '"pids":	64'
# A cgroup counts every refused fork; RLIMIT_NPROC has no counter, and a
# bomb that collapses between two looks (once a second) goes unreported
# there (README, Known gaps): the held load below is reported either way.
case "$rep" in
*'(cgroup'*) contains "a limit event for the processes" "$rep" '"op":	"limit"'
	contains "its target is pids" "$rep" '"target":	"pids"' ;;
esac

# Exactly how many: 64 counted in the sandbox (init and the shell included).
t_fork_hold "$ws/count.py" 3 2.5 # held: the server looks once a second
out=$(sbx --report "$ws/.t/count.json" -- python3 count.py 2>&1)
contains "fork fails with EAGAIN at the limit" "$out" "FORK-STOPPED-11"
n=$(echo "$out" | sed -n 's/^FORK-STOPPED-[0-9]* at //p')
[ -n "$n" ] && [ "$n" -lt 64 ] && [ "$n" -gt 40 ] && ok "about 64 processes, no more ($n forked)" || fail "about 64 processes, no more (${n:-none} forked)"
rep=$(cat "$ws/.t/count.json" 2>/dev/null)
contains "holding the limit is a limit event" "$rep" '"op":	"limit"'
contains "of target pids" "$rep" '"target":	"pids"' 

fi

# A memory hog: 256 MiB with a 64 MiB limit is killed or refused.
sbx --report "$ws/.t/mem.json" -- python3 -c 'x = bytearray(256 << 20); x[-1] = 1; print("ALLOCATED")' >"$ws/.t/mem.out" 2>&1
rc=$?
[ "$rc" != 0 ] && ok "the memory hog fails (status $rc)" || fail "the memory hog fails"
refuse "it never got its memory" grep -q ALLOCATED "$ws/.t/mem.out"
contains "run --report lists the memory limit" "$(cat "$ws/.t/mem.json")" '"memory_mib":	64'
case "$(cat "$ws/.t/mem.json")" in
*'(cgroup'*) contains "a cgroup kill is a limit event" "$(cat "$ws/.t/mem.json")" '"target":	"memory"' ;;
*) contains "without a cgroup, RLIMIT_DATA refuses it" "$(cat "$ws/.t/mem.out")" "MemoryError" ;;
esac

# A huge file in /tmp stops at 16 MiB; the host's file system never sees it.
before=$(du -sk "$HOME" | cut -f1)
sbx --report "$ws/.t/tmp.json" -- sh -c 'dd if=/dev/zero of=/tmp/big bs=1M count=200 2>&1; stat -c %s /tmp/big; dd if=/dev/zero of=/var/tmp/more bs=1M count=1 2>&1; touch /tmp/written; echo HELD; n=0; while [ ! -e .t/tmp.go ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done' >"$ws/.t/tmp.out" 2>&1 &
run=$!
t_until 30 grep -qx HELD "$ws/.t/tmp.out" || fail "the sandbox filled its /tmp"
during=$(du -sk "$HOME" | cut -f1) # while the sandbox holds its /tmp
runs=$(ls -A "$HOME/.sandmux/state/tmp" 2>/dev/null | grep -c '^run-')
touch "$ws/.t/tmp.go"
wait $run
out=$(cat "$ws/.t/tmp.out")
contains "writing /tmp stops: no space left" "$out" "No space left on device"
size=$(echo "$out" | grep -E '^[0-9]+$' | head -1)
[ -n "$size" ] && [ "$size" -le $((16 << 20)) ] && ok "the file is at most 16 MiB ($size bytes)" || fail "the file is at most 16 MiB (${size:-?})"
[ $((during - before)) -lt 1024 ] && ok "the host's file system is unaffected (HOME grew $((during - before)) KiB)" || fail "the host's file system is unaffected (HOME grew $((during - before)) KiB)"
contains "/var/tmp shares the bound" "$out" "No space left on device
"
same "with a tmpfs on /tmp, no session temp dir on the host (outside, while it runs)" "$runs" 0
contains "a limit event for /tmp" "$(cat "$ws/.t/tmp.json")" '"target":	"tmp"'

# A profile can lower the limits, never lift them; 0 in sandmux.json turns one off.
cat >"$ws/.t/prof.json" <<'JSON'
{"profiles": {"tiny": {"limits": {"pids": 32}}, "huge": {"limits": {"pids": 100000, "tmp": 0}}}}
JSON
sbx --config "$ws/.t/prof.json" --sandbox tiny --report "$ws/.t/tiny.json" -- true
contains "a profile lowers a limit" "$(cat "$ws/.t/tiny.json")" '"pids":	32'
sbx --config "$ws/.t/prof.json" --sandbox huge --report "$ws/.t/huge.json" -- true
contains "a profile cannot lift one" "$(cat "$ws/.t/huge.json")" '"pids":	64'
contains "nor turn one off" "$(cat "$ws/.t/huge.json")" '"tmp_mib":	16'

out=$(cd "$ws" && "$SANDMUX" doctor 2>&1)
contains "doctor shows the limits" "$out" "a pane of profile workspace gets: pids 64"
contains "doctor shows the /tmp bound" "$out" "/tmp 16M (tmpfs)"
rm -f "$HOME/.sandmux/sandmux.json"
out=$(cd "$ws" && "$SANDMUX" doctor 2>&1)
contains "without sandmux.json the defaults apply" "$out" "defaults: pids 4096, memory 8192M, tmp 1024M"
exit $T_FAILED
