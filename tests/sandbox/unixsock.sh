#!/bin/sh
# Host unix sockets stay unreachable from every sandbox, wherever they lie
# (a directory the sandbox may only read, the workspace it may write, an
# $XDG_RUNTIME_DIR-like directory granted read-write): the observer takes
# connect() over and lets through only sockets the sandbox bound itself.
# Checked from outside: the host's servers log every accept, and the logs
# stay empty. A server the sandbox starts in the workspace or /tmp stays
# reachable, and no swap of the name or of the address in memory while
# the call waits reaches the host.
. "$TESTS/sandbox/common.inc"
out_dir="$HOME/.sandmux-us-$$"
trap 't_cleanup; kill $srvs 2>/dev/null; rm -rf "$out_dir"' EXIT
mkdir -p "$out_dir/ro" "$out_dir/xdg" && chmod 700 "$out_dir/xdg"
srvs=""
cat >"$ws/.t/hostsrv.py" <<'PY'
import os, socket, sys
path, log = sys.argv[1], sys.argv[2]
dgram = len(sys.argv) > 3
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM if dgram else socket.SOCK_STREAM)
s.bind(path)
open(log, "w").close()
open(log + ".ready", "w").close()
while dgram:
    d = s.recv(100)
    with open(log, "a") as f:
        f.write("control\n" if d == b"control" else "datagram\n")
s.listen(64)
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        d = c.recv(16)
    except OSError:
        d = b""
    with open(log, "a") as f:
        f.write("control\n" if d == b"control" else "accept\n")
    c.close()
PY
# host_server NAME SOCKET: a host server (outside any sandbox) logging to $out_dir/NAME.log.
host_server() {
	python3 "$ws/.t/hostsrv.py" "$2" "$out_dir/$1.log" $3 &
	srvs="$srvs $!"
	i=0; while [ ! -e "$out_dir/$1.log.ready" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
}
# streams_only NAME NAME...: those servers got nothing but a control
# connection sent from outside now (they accept in order: anything from
# before would be logged before it). Their logs are emptied after.
streams_only() {
	_n=$1; shift; _got=""; _want=""
	for _s; do python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.send(b"control")' "$(sock_of "$_s")"; done
	for _s; do
		t_until 20 grep -qx control "$out_dir/$_s.log"
		_got="$_got$_s: $(tr '\n' ' ' <"$out_dir/$_s.log")"; _want="$_want$_s: control "
		: >"$out_dir/$_s.log"
	done
	same "$_n" "$_got" "$_want"
}
sock_of() { case $1 in ro) echo "$out_dir/ro/agent.sock" ;; ws) echo "$ws/host.sock" ;; xdg) echo "$out_dir/xdg/bus" ;; esac; }
host_server ro "$out_dir/ro/agent.sock"
host_server ws "$ws/host.sock"
host_server xdg "$out_dir/xdg/bus"
host_server dg "$out_dir/ro/log.sock" dgram
check "the host servers answer from outside" python3 -c "
import socket
for p in ['$out_dir/ro/agent.sock', '$ws/host.sock', '$out_dir/xdg/bus']:
    socket.socket(socket.AF_UNIX).connect(p)"
i=0; while [ "$(cat "$out_dir"/*.log | wc -l)" -lt 3 ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
same "the host servers log their accepts" "$(cat "$out_dir"/*.log | wc -l | tr -d ' ')" "3"
: >"$out_dir/ro.log"; : >"$out_dir/ws.log"; : >"$out_dir/xdg.log"

cli='import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("refused", e.errno)
    sys.exit(1)
print("connected")'
cfg="$ws/.t/xdg.json"
printf '{"additionalReadwritePaths": ["%s"]}\n' "$out_dir/xdg" >"$cfg"
for p in workspace strict devbox; do
	refuse "$p: a host socket in a read-only directory" sbx --sandbox $p -- python3 -c "$cli" "$out_dir/ro/agent.sock"
	refuse "$p: a host socket in the writable workspace" sbx --sandbox $p -- python3 -c "$cli" "$ws/host.sock"
	refuse "$p: a host socket by a relative name" sbx --sandbox $p -- python3 -c "$cli" host.sock
	refuse "$p: a host socket through a symlink in the workspace" sbx --sandbox $p -- sh -c \
		"ln -sf '$ws/host.sock' lnk && python3 -c '$cli' lnk"
done
refuse "a host socket through /proc/self/fd of an O_PATH fd" sbx -- python3 -c "
import os, socket
fd = os.open('$out_dir/ro/agent.sock', os.O_PATH)
socket.socket(socket.AF_UNIX).connect('/proc/self/fd/%d' % fd)"
refuse "a host socket through /proc/self/cwd" sbx -- python3 -c "
import socket
socket.socket(socket.AF_UNIX).connect('/proc/self/cwd/host.sock')"
refuse "workspace: the session bus in a read-write \$XDG_RUNTIME_DIR" \
	sbx --config "$cfg" -- python3 -c "$cli" "$out_dir/xdg/bus"
check "the granted directory is writable all the same" sbx --config "$cfg" -- touch "$out_dir/xdg/probe"
sbx_out out --report "$ws/.t/rep.json" -- python3 -c "$cli" "$out_dir/ro/agent.sock"
contains "the command sees EACCES" "$out" "refused 13"
r=$(tr -d '\t\n' <"$ws/.t/rep.json")
contains "the report: op connect, the path, the rule" "$r" \
	"\"op\":\"connect\",\"target\":\"$out_dir/ro/agent.sock\",\"rule\":\"host unix socket"
sbx_out out -- python3 -c "$cli" "$out_dir/ro/agent.sock"
contains "a hint line names the socket and the rule" "$out" "denied connect $out_dir/ro/agent.sock (host unix socket"
streams_only "the host servers never saw a connection" ro ws xdg

send='import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    s.sendto(b"x", sys.argv[1])
except OSError as e:
    print("refused", e.errno)
    sys.exit(1)'
check "a datagram to the host's socket arrives from outside" python3 -c "$send" "$out_dir/ro/log.sock"
i=0; while [ ! -s "$out_dir/dg.log" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
same "the host's datagram server logs it" "$(cat "$out_dir/dg.log")" "datagram"
: >"$out_dir/dg.log"
refuse "sendto a host datagram socket" sbx -- python3 -c "$send" "$out_dir/ro/log.sock"
refuse "connect to a host datagram socket (then send)" sbx -- python3 -c "
import socket; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.connect('$out_dir/ro/log.sock'); s.send(b'x')"
# sendmsg names its destination inside a struct seccomp cannot read: the
# observer sends every unix datagram itself.
sendmsg='import array, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
r, w = os.pipe()
try:
    s.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [w]).tobytes())] if len(sys.argv) > 2 else [], 0, sys.argv[1])
except OSError as e:
    print("refused", e.errno)
    sys.exit(1)'
sbx_out out -- python3 -c "$sendmsg" "$out_dir/ro/log.sock"
contains "sendmsg to a host datagram socket: EACCES" "$out" "refused 13"
refuse "sendmsg with an fd to a host datagram socket" sbx -- python3 -c "$sendmsg" "$out_dir/ro/log.sock" fd
cat >"$ws/.t/mmsg.c" <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
/* sendmmsg of two datagrams to argv[1]: prints what it returned. */
int main(int argc, char **argv)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s", argv[argc - 1]);
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (argc > 2 && bind(s, (struct sockaddr *)&a, sizeof a) < 0)
		return 2;
	struct iovec iov[2] = {{"one", 3}, {"three", 5}};
	struct mmsghdr m[2];
	memset(m, 0, sizeof m);
	for (int i = 0; i < 2; i++) {
		m[i].msg_hdr.msg_name = &a;
		m[i].msg_hdr.msg_namelen = sizeof a;
		m[i].msg_hdr.msg_iov = &iov[i];
		m[i].msg_hdr.msg_iovlen = 1;
	}
	int n = sendmmsg(s, m, 2, 0);
	char buf[8] = "";
	if (argc > 2 && n > 0)
		buf[recv(s, buf, sizeof buf - 1, 0)] = 0;
	printf("%d %u %u %s\n", n, m[0].msg_len, m[1].msg_len, buf);
	return n < 0;
}
C
cc -o "$ws/.t/mmsg" "$ws/.t/mmsg.c"
# iovec lengths that wrap a size_t sum, then a cmsg_len beyond the
# buffer: both refused, and the observer is still there afterwards.
cat >"$ws/.t/msgbad.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
int main(void)
{
	int sv[2];
	static char a[8192], ctl[64];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	struct iovec iov[2] = {{a, 4096}, {a + 4096, SIZE_MAX - 4095}};
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = 2};
	int r1 = (int)sendmsg(sv[0], &mh, 0);
	struct cmsghdr *c = (struct cmsghdr *)(void *)ctl;
	c->cmsg_len = 4000;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	iov[1].iov_len = 1;
	mh.msg_control = ctl;
	mh.msg_controllen = sizeof ctl;
	int r2 = (int)sendmsg(sv[0], &mh, 0);
	printf("%d %d\n", r1, r2);
	return 0;
}
C
cc -o "$ws/.t/msgbad" "$ws/.t/msgbad.c"
sbx_out out -- sh -c "'$ws/.t/msgbad' && echo alive > '$ws/alive'"
same "sendmsg with wrapping iovecs or a bad cmsg_len: refused" "$out" "-1 -1"
same "the observer still answers after them" "$(cat "$ws/alive" 2>/dev/null)" "alive"
refuse "sendmmsg to a host datagram socket" sbx -- "$ws/.t/mmsg" "$out_dir/ro/log.sock"
sbx_out out -- "$ws/.t/mmsg" own "$ws/mmsg.sock"
same "sendmmsg to the sandbox's own socket: both sent, lengths written back" "$out" "2 3 5 one"
rm -f "$ws/mmsg.sock"
t_only "the host's datagram server got nothing" "$out_dir/dg.log" python3 -c "
import socket; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b'control', '$out_dir/ro/log.sock')"

# The sandbox's own servers stay reachable, by absolute and relative name
# (devbox shares the host's network: there the socket's holder decides).
own='import os, socket, sys, threading
path = sys.argv[1]
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(8)
srv.settimeout(20)
def serve():
    c, _ = srv.accept()
    c.sendall(c.recv(16).upper())
    c.close()
threading.Thread(target=serve, daemon=True).start()
os.system("python3 -c \"import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b\x27hi\x27); print(s.recv(16).decode())\" " + sys.argv[2])'
for p in workspace strict devbox; do
	out=$(sbx --sandbox $p -- python3 -c "$own" "$ws/own.sock" "$ws/own.sock" 2>/dev/null)
	same "$p: a server in the workspace, a client in the same sandbox" "$out" "HI"
	rm -f "$ws/own.sock"
	out=$(sbx --sandbox $p -- sh -c "cd /tmp && python3 -c '$(echo "$own" | sed "s/'/'\\\\''/g")' own.sock own.sock" 2>/dev/null)
	same "$p: a server in /tmp, a client by a relative name" "$out" "HI"
done
sbx_out out -- python3 -c '
import socket
a = socket.socket(socket.AF_UNIX); a.bind("\0sandmux-us-own"); a.listen(1)
b = socket.socket(socket.AF_UNIX); b.connect("\0sandmux-us-own"); print("abstract ok")'
same "an abstract socket of the sandbox's own" "$out" "abstract ok"
sbx_out out -- python3 -c '
import socket
a, b = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
a.bind("dgram.sock"); b.connect("dgram.sock"); b.send(b"d"); print(a.recv(4).decode())'
same "a datagram socket of the sandbox's own" "$out" "d"
sbx_out out -- python3 -c '
import socket
a, b = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
a.bind("/tmp/dgram.sock"); n = b.sendto(b"to", "/tmp/dgram.sock"); print(n, a.recv(4).decode())'
same "sendto a datagram socket of the sandbox's own" "$out" "2 to"
sbx_out out -- python3 -c '
import array, os, socket
a, b = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM), socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
a.bind("/tmp/dgram2.sock")
r, w = os.pipe()
n = b.sendmsg([b"f", b"d"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [w]).tobytes())], 0, "/tmp/dgram2.sock")
msg, anc, _, _ = a.recvmsg(8, socket.CMSG_SPACE(4))
fd = array.array("i", anc[0][2])[0]
os.write(fd, b"through"); os.close(fd); os.close(w)
print(n, msg.decode(), os.read(r, 16).decode())'
same "sendmsg with an fd to a datagram socket of the sandbox's own" "$out" "2 fd through"
sbx_out out -- python3 -c '
import socket
s = socket.socket(socket.AF_UNIX)
try:
    s.connect("/nonexistent/sock")
except OSError as e:
    print(e.errno)'
same "a missing socket: ENOENT, as without the observer" "$out" "2"
sbx_out out -- python3 -c '
import os, socket, threading
srv = socket.socket(socket.AF_UNIX); srv.bind("thr.sock"); srv.listen(1)
res = []
def client():
    socket.socket(socket.AF_UNIX).connect("thr.sock"); res.append("connected")
t = threading.Thread(target=client); t.start(); t.join(); print(*res); os.unlink("thr.sock")'
same "a connect from a thread other than the main one" "$out" "connected"

# Swaps while the call waits: the name (symlinks renamed onto it) and the
# address in the caller's memory.
race="$ws/.t/unixsock-race"
cc -O1 -pthread -o "$race" "$TESTS/sandbox/unixsock-race.c" || { fail "build the race helper"; exit 1; }
sbx_out out -- "$race" swap "$ws/r-own.sock" "$ws/host.sock" "$ws/r-name" 2000
echo "# swap race: $out"
contains "swap race: the sandbox's own socket was reached" "$out" "own="
case "$out" in *"own=0 "*) fail "swap race: never reached its own socket (vacuous)";; esac
contains "swap race: nothing else connected" "$out" "other=0"
sbx_out out --sandbox devbox -- "$race" swap "$ws/d-own.sock" "$ws/host.sock" "$ws/d-name" 500
echo "# devbox swap race: $out"
case "$out" in *"own=0 "*) fail "devbox swap race: never reached its own socket (vacuous)";; esac
contains "devbox (host network) swap race: nothing else connected" "$out" "other=0"
sbx_out out -- "$race" flip "$ws/f-own.sock" "$out_dir/ro/agent.sock" - 2000
echo "# flip race: $out"
case "$out" in *"own=0 "*) fail "flip race: never reached its own socket (vacuous)";; esac
contains "flip race: nothing else connected" "$out" "other=0"
sbx_out out -- "$race" fdflip - "$out_dir/ro/agent.sock" - 3000
echo "# fd flip race: $out"
case "$out" in *"refused=0 "*|*"unsupported=0 "*) fail "fd flip race: both kinds of socket were met (vacuous)";; esac
contains "fd flip race: no connect succeeded" "$out" "other=0"
streams_only "races: the host servers never saw a connection" ro ws
exit $T_FAILED
