#!/bin/sh
# Kernel-level escapes, each tried for real inside `sandmux run` and, where
# it could touch something outside, checked from outside: terminal
# injection, kernel surface, namespaces and mounts, other processes
# (ptrace, signals, /proc), abstract unix sockets, leaked descriptors.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
for p in workspace strict; do
	for op in tiocsti io_uring bpf keyctl userns mount remount raw packet sctp mptcp netlink clone3; do
		refuse "$p: $op fails" sbx --sandbox "$p" -- "$esc" $op 0 </dev/null
	done
	refuse "$p: TIOCSTI on the terminal fails" script -qec "'$SANDMUX' run --sandbox $p -- '$esc' tiocsti tty" /dev/null
done

# /dev: no disks, none of the person's terminals; the command's own PTY
# comes from a private devpts.
# (--no-observer: the listing itself is what is checked, and the observer
# does not yet let strict list /dev, which Landlock allows.)
for p in workspace strict devbox; do
	out=$(sbx --no-observer --sandbox $p -- sh -c 'ls /dev | grep -c . >/dev/null || exit 9; ls /dev/pts | tr "\n" " "; ls /dev | grep -cE "^(sd|vd|nvme|xvd|hd|loop|mem|kmem|port|console|tty[0-9S])"')
	same "$p: /dev has no host terminals, disks, memory devices or consoles" "$(echo "$out" | tr '\n' ' ')" "ptmx 0 "
done
out=$(script -qec "'$SANDMUX' run -- sh -c 'ls /dev/pts | tr \"\\n\" \" \"; tty'" /dev/null </dev/null | tr -d '\r' | tr '\n' ' ')
same "/dev/pts: only the command's own PTY, and ttyname finds it" "$out" "0 ptmx /dev/pts/0 "

# Other processes: invisible, untraceable, unkillable.
sleep 987.$$ &
victim=$!
out=$(sbx -- sh -c "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' '; echo; ls /proc | grep -c '^[0-9]'")
case "$out" in *"987.$$"*) fail "a host process is invisible in /proc" ;; *) ok "a host process is invisible in /proc" ;; esac
n=$(echo "$out" | tail -1)
[ "$n" -le 6 ] && ok "only the sandbox's own processes in /proc ($n)" || fail "only the sandbox's own processes in /proc ($n)"
for p in workspace strict devbox; do
	sbx --sandbox $p -- "$esc" ptrace $victim >/dev/null 2>&1
	same "$p: ptrace of an outside process fails (seen from outside)" "$(awk '/TracerPid/ {print $2}' /proc/$victim/status)" "0"
	refuse "$p: ptrace reports failure" sbx --sandbox $p -- "$esc" ptrace $victim
	sbx --sandbox $p -- "$esc" kill $victim >/dev/null 2>&1
	check "$p: a signal to an outside process fails (it lives)" kill -0 $victim
done
kill $victim 2>/dev/null

# init (pid 1 inside) is no less restricted than the command.
out=$(sbx -- sh -c 'grep -E "^(Seccomp|NoNewPrivs|CapEff|CapBnd):" /proc/1/status' 2>/dev/null | tr -s '\t ' ' ' | sort | tr '\n' ' ')
same "init inside is restricted like the command" "$out" "CapBnd: 0000000000000000 CapEff: 0000000000000000 NoNewPrivs: 1 Seccomp: 2 "
refuse "init's /proc/1/comm is not writable" sbx -- sh -c 'echo hacked > /proc/1/comm'
refuse "init's memory is not writable" sbx -- sh -c 'echo x > /proc/1/mem'
refuse "init's environment is not readable" sbx -- sh -c 'tr "\0" "\n" < /proc/1/environ | grep -q "^HOME="'


# Abstract unix sockets of an outside process, also without a netns (devbox).
name=sandmux-t-abs-$$
log="$ws/.t/abs.log"
python3 -c '
import socket, sys, os
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("\0" + sys.argv[1]); s.listen(8)
open(sys.argv[2] + ".ready", "w").close()
s.settimeout(30)
n = 0
try:
    while True:
        c, _ = s.accept(); n += 1
        open(sys.argv[2], "w").write(str(n))
except Exception:
    pass
' "$name" "$log" &
srv=$!
i=0; while [ ! -e "$log.ready" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
check "the outside abstract socket works from outside" "$esc" abstract "$name"
i=0; while [ ! -s "$log" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done # its accept, logged
rm -f "$log"
for p in workspace strict devbox; do
	refuse "$p: connecting to an outside abstract socket fails" sbx --sandbox $p -- "$esc" abstract "$name"
done
refuse "no connection reached the outside abstract socket" test -e "$log"
kill $srv 2>/dev/null

# Pathname sockets of host daemons (Landlock does not mediate connect):
# a gpg-agent-like socket in ~/.gnupg is out of reach; checked outside.
made_gnupg=""
[ -d "$HOME/.gnupg" ] || { mkdir -m 700 "$HOME/.gnupg" && made_gnupg=1; }
sock="$HOME/.gnupg/S.sandmux-t-$$"
python3 -c '
import socket, sys, os
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
open(sys.argv[2] + ".ready", "w").close()
s.settimeout(20)
try:
    s.accept(); open(sys.argv[2], "w").write("hit")
except Exception:
    pass
' "$sock" "$log.u" &
usrv=$!
i=0; while [ ! -e "$log.u.ready" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
for p in workspace strict; do
	refuse "$p: connecting to a host daemon's socket in ~/.gnupg fails" sbx --sandbox $p -- python3 -c "
import socket; socket.socket(socket.AF_UNIX).connect('$sock')"
done
refuse "no connection reached the host daemon's socket" test -e "$log.u"
kill $usrv 2>/dev/null; wait $usrv 2>/dev/null
rm -f "$sock"; [ -n "$made_gnupg" ] && rmdir "$HOME/.gnupg"

# Descriptors opened by the caller are not inherited (file and directory).
exec 7<"$ws/.t/escape" 8<"$HOME"
refuse "a leaked file fd is closed inside" sbx -- "$esc" fd 7
refuse "a leaked directory fd is closed inside" sbx -- "$esc" fd 8
# No pipeline inside: while sh sets one up it holds the pipe's ends itself,
# and ls would list them (a race in the test, not a leak).
out=$(sbx -- sh -c 'ls -1 /proc/$$/fd' | tr '\n' ' ')
same "the command holds fds 0-2 only" "$out" "0 1 2 "
out=$(script -qec "'$SANDMUX' run -- sh -c 'ls -1 /proc/\$\$/fd'" /dev/null </dev/null | tr -d '\r' | tr '\n' ' ')
same "with a PTY too" "$out" "0 1 2 "
exec 7<&- 8<&-
check "stdio passes through" sh -c "echo in | (cd '$ws' && '$SANDMUX' run -- cat) | grep -q in"

# Landlock does not mediate chmod, chown, utimes or xattrs: outside the
# writable roots the mounts are read-only, so a file the caller owns (a
# root-owned binary, for root) cannot be made set-uid or world-writable.
own="$HOME/.sandmux-t-own-$$"
echo x >"$own" && chmod 755 "$own"
for obs in "" --no-observer; do
	sbx $obs -- sh -c "chmod 4777 '$own'; touch -d 2000-01-01 '$own'" 2>/dev/null
	same "chmod/utimes of a file outside the writable roots fail ${obs:-(observer on)}" "$(stat -c %a "$own")$(test "$own" -nt "$esc" && echo new)" "755new"
done
rm -f "$own"
check "chmod inside the workspace still works" sbx --no-observer -- sh -c 'echo x > m.sh && chmod +x m.sh && test -x m.sh'

if [ "$(id -u)" = 0 ]; then
	refuse "root: mount -o remount,rw / fails" sbx -- mount -o remount,rw /
	sbx -- sh -c "echo x > /etc/sandmux-t-$$" 2>/dev/null
	refuse "root: no write into /etc" test -e /etc/sandmux-t-$$
	refuse "root: no capabilities inside" sbx -- sh -c 'grep -q "CapEff:.*[1-9a-f]" /proc/self/status'
fi
exit $T_FAILED
