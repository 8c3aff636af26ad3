#!/bin/sh
# The weaker sandbox (no user namespaces) without the network: it starts
# and says so (stderr, doctor), its temp dir is the session's on the host,
# a protected path stays unchanged, and no process outlives the run: init
# is a subreaper and ends what escaped with setsid, also when sandmux
# itself is killed. Checked from outside (kill -0 on the pids).
. "$TESTS/sandbox/nons.inc"
(cd "$ws" && git init -q . && git config core.x 1) || { fail "a git workspace"; exit 1; }
cp "$ws/.git/config" "$ws/.t/config.before"

out=$(wrun -- sh -c 'echo "tmp=$TMPDIR"; touch "$TMPDIR/mine" && echo tmp-ok; touch /tmp/host-tmp-$$ || echo host-tmp-refused' 2>&1)
contains "weaker sandbox: says so on stderr" "$out" "sandmux: weaker sandbox: no user namespaces ("
contains "weaker sandbox: TMPDIR is the session temp dir on the host" "$out" "tmp=$HOME/.sandmux/state/tmp/"
contains "weaker sandbox: the session temp dir is writable" "$out" "tmp-ok"
contains "weaker sandbox: the host's /tmp is not" "$out" "host-tmp-refused"
tmpd=$(echo "$out" | sed -n 's/^tmp=//p')
case "$tmpd" in "$HOME"/.sandmux/state/tmp/run-?*) ok "weaker sandbox: TMPDIR names a run's own temp dir" ;;
*) fail "weaker sandbox: TMPDIR names a run's own temp dir (got: $tmpd)" ;; esac
refuse "weaker sandbox: its session temp dir is gone after the run (outside)" test -e "$tmpd"

out=$(cd "$ws" && weak "$SANDMUX" run --config "$ws/.t/policy-strong.json" -- true 2>&1)
same "without allowWeakerSandbox: refused" "$?" "1"
contains "without allowWeakerSandbox: the line names the key" "$out" '"allowWeakerSandbox": true'
out=$(wrun -- python3 -c '
import ctypes, socket
for t in (socket.SOCK_DGRAM, socket.SOCK_STREAM):
    try:
        socket.socket(socket.AF_UNIX, t); print("made", t)
    except OSError as e:
        print("refused", t, e.errno)
try:
    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); print("pair made")
except OSError as e:
    print("pair refused", e.errno)
print("dumpable", ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0))' 2>&1)
contains "weaker sandbox: no unix datagram socket" "$out" "refused 2 13"
contains "weaker sandbox: unix stream sockets still" "$out" "made 1"
contains "weaker sandbox: no unix datagram socketpair" "$out" "pair refused 13"
contains "weaker sandbox: PR_SET_DUMPABLE refused" "$out" "dumpable -1"
wrun --report "$ws/.t/report.json" -- true 2>/dev/null
check "weaker sandbox: run --report says so" python3 -c '
import json, sys; sys.exit(json.load(open(sys.argv[1]))["weaker_sandbox"] is not True)' "$ws/.t/report.json"

out=$(wrun -- sh -c 'echo "[core] hooksPath = /x" >> .git/config' 2>&1)
contains "weaker sandbox: a protected path write is refused (observer)" "$out" "denied write $ws/.git/config"
check "weaker sandbox: .git/config is unchanged" cmp "$ws/.git/config" "$ws/.t/config.before"
refuse "weaker sandbox: .git/hooks cannot be created into" wrun -- sh -c 'mkdir -p .git/hooks && echo x > .git/hooks/pre-commit'
refuse "weaker sandbox: no hook was written" test -e "$ws/.git/hooks/pre-commit"

# Another terminal of the same user (a pty opened out here, held open):
# /dev/pts is the host's in the weaker sandbox, and only the command's
# own terminal is granted. The master reads nothing afterwards.
python3 -c '
import os, pty, sys, time
m, s = pty.openpty()
open(sys.argv[1], "w").write(os.ttyname(s))
time.sleep(30)' "$ws/.t/pts" &
ptyholder=$!
i=0; while [ ! -s "$ws/.t/pts" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
other=$(cat "$ws/.t/pts")
refuse "weaker sandbox: another terminal of the same user cannot be written" wrun -- sh -c "echo injected > $other"
refuse "weaker sandbox: /dev/shm (the host's) cannot be written" wrun -- sh -c 'echo x > /dev/shm/sandmux-weak-$$'
kill "$ptyholder" 2>/dev/null

# An escapee: its own session, its parent gone at once.
rm -f "$ws/esc.pid"
check "weaker sandbox: a command leaving a setsid process behind ends" wrun -- sh -c '
setsid sh -c "echo \$\$ > esc.pid; exec sleep 1000" & i=0
while [ ! -s esc.pid ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done'
pid=$(cat "$ws/esc.pid" 2>/dev/null)
case "$pid" in ''|*[!0-9]*) fail "weaker sandbox: the escapee wrote its pid" ;; *)
	ok "weaker sandbox: the escapee wrote its pid"
	refuse "weaker sandbox: the escapee is gone after the run" kill -0 "$pid" ;; esac

# sandmux itself killed (SIGKILL): init learns it (parent-death signal)
# and ends the tree. The command names sandmux's pid (init's parent).
rm -f "$ws/esc.pid" "$ws/host.pid"
wrun -- sh -c '
setsid sh -c "echo \$\$ > esc.pid; exec sleep 1000" &
awk "{print \$4}" /proc/$PPID/stat > host.pid
exec sleep 1000' >/dev/null 2>&1 &
i=0; while { [ ! -s "$ws/esc.pid" ] || [ ! -s "$ws/host.pid" ]; } && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
pid=$(cat "$ws/esc.pid" 2>/dev/null); host=$(cat "$ws/host.pid" 2>/dev/null)
case "$pid$host" in ''|*[!0-9]*) fail "weaker sandbox: the command wrote the pids" ;; *)
	check "weaker sandbox: the escapee runs while sandmux does" kill -0 "$pid"
	kill -KILL "$host"
	i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	refuse "weaker sandbox: sandmux killed: the escapee is gone too" kill -0 "$pid" ;; esac
wait

mkdir -p "$ws/.t/home/.sandmux"
out=$(cd "$ws" && HOME="$ws/.t/home" weak "$SANDMUX" doctor 2>&1)
contains "doctor, no allowWeakerSandbox: workspace refused, saying why" "$out" "workspace  REFUSED here: no user namespaces here"
cp "$ws/.t/policy.json" "$ws/.t/home/.sandmux/sandbox.json"
out=$(cd "$ws" && HOME="$ws/.t/home" weak "$SANDMUX" doctor 2>&1)
contains "doctor: says the weaker sandbox would be used" "$out" "weaker sandbox"
contains "doctor: what stands in for the network namespace" "$out" "network: Landlock TCP rules + seccomp socket filter instead of a network namespace"
contains "doctor: workspace would start (weaker)" "$out" "workspace  WEAKER"
exit $T_FAILED
