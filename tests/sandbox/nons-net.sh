#!/bin/sh
# The weaker sandbox (no user namespaces) and the network: the proxy is on
# the host's loopback at a free port, Landlock allows TCP connect to that
# port only, the observer allows it only to 127.0.0.1/::1 and seccomp
# refuses every socket but AF_UNIX, NETLINK_ROUTE and TCP. Each check
# verified from outside where it can be (the test servers' logs). Test
# hosts: tests/net/netns.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
. "$TESTS/sandbox/nons.inc"

out=$(weak unshare -U true 2>&1)
contains "inside the test's namespace, a new user namespace is refused" "$out" "No space left on device"

out=$(wrun -- curl -sS --max-time 5 http://good.test/ 2>&1)
contains "weaker sandbox: says so on stderr" "$out" "sandmux: weaker sandbox: no user namespaces ("
contains "weaker sandbox: an allowed host through the proxy (plain HTTP)" "$out" "hello from 198.51.100.10:80"
check "weaker sandbox: an allowed host through CONNECT" wrun -- curl -sS --max-time 5 -p http://good.test/
check "weaker sandbox: an allowed host through SOCKS5" wrun -- sh -c 'curl -sS --max-time 5 -x "$ALL_PROXY" http://good.test/'
out=$(wrun -- curl -sS --max-time 5 -f http://denied.test/ 2>&1)
contains "weaker sandbox: a denied host is a proxy denial" "$out" "denied connect denied.test:80 (networkPolicy: not in allow list)"

# The proxy listens on the host's loopback, where every local process can
# reach it: only the pane's own processes, which have its credentials in
# the proxy variables, may use it. From outside (this script is not in
# the pane) every way in is refused while the pane runs, and the target
# server, which logs each request's path, never sees one of them; the
# pane's own curl gets through to the same server.
rm -f "$ws/.t/pane.port" "$ws/.t/pane.done" "$ws/.t/seen.log"
srv python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        open(sys.argv[1], "a").write(self.path + "\n")
        self.send_response(200); self.send_header("Content-Length", "3"); self.end_headers(); self.wfile.write(b"hi\n")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("198.51.100.10", 9098), H).serve_forever()' "$ws/.t/seen.log" & T_PIDS="$T_PIDS $!"
i=0; until curl -s -o /dev/null http://198.51.100.10:9098/ready || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
(wrun -- sh -c 'echo "$HTTP_PROXY" | sed "s/[0-9a-f]\{32\}/SECRET/" >.t/pane.url; echo "${HTTP_PROXY##*:}" >.t/pane.port
i=0; while [ ! -e .t/pane.done ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
curl -sS --max-time 5 http://198.51.100.10:9098/inside' >"$ws/.t/pane.log" 2>&1) & ppid=$!
i=0; while [ ! -s "$ws/.t/pane.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
pport=$(cat "$ws/.t/pane.port")
contains "weaker sandbox: the proxy variables carry the pane's credentials" "$(cat "$ws/.t/pane.url")" \
	"http://sandmux:SECRET@127.0.0.1:$pport"
x="http://127.0.0.1:$pport"
out=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -x "$x" http://198.51.100.10:9098/outside-plain 2>&1)
same "outside the pane: plain HTTP through the proxy gets 407" "$out" 407
out=$(curl -sS --max-time 5 -p -x "$x" http://198.51.100.10:9098/outside-connect 2>&1)
contains "outside the pane: CONNECT gets 407" "$out" "407"
out=$(curl -sS --max-time 5 -o /dev/null -w '%{http_code}' -x "http://sandmux:guess@127.0.0.1:$pport" \
	http://198.51.100.10:9098/outside-guess 2>&1)
same "outside the pane: a wrong password gets 407" "$out" 407
refuse "outside the pane: SOCKS5 without authentication is refused" \
	curl -sS --max-time 5 -x "socks5h://127.0.0.1:$pport" http://198.51.100.10:9098/outside-socks
refuse "outside the pane: SOCKS5 with a wrong password is refused" \
	curl -sS --max-time 5 -x "socks5h://sandmux:guess@127.0.0.1:$pport" http://198.51.100.10:9098/outside-socks-guess
: >"$ws/.t/pane.done"; wait $ppid
contains "the pane's own curl gets through" "$(cat "$ws/.t/pane.log")" "hi"
seen=$(cat "$ws/.t/seen.log" 2>/dev/null)
contains "the target server saw the pane's request" "$seen" "/inside"
case "$seen" in *outside*) fail "the target server saw none from outside the pane"; echo "$seen" | sed 's/^/#   /' ;;
	*) ok "the target server saw none from outside the pane" ;; esac

# Real clients with the credentials: git over HTTP answers the 407 it
# gets first (its proxy authentication is "any": it waits for the
# challenge) and sends them; npm (its own agent) tunnels HTTPS.
if command -v git >/dev/null; then
	git_serve 8081
	out=$(wrun -- sh -c 'git clone -q -b main http://good.test:8081/repo.git clone && cat clone/f' 2>&1)
	contains "weaker sandbox: git clone over HTTP through the proxy, with its credentials" "$out" "hello-git"
fi
if command -v npm >/dev/null && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=good.test \
	-keyout "$ws/.t/key.pem" -out "$ws/.t/cert.pem" >/dev/null 2>&1; then
	mkdir -p "$ws/.t/reg" && echo '{"name":"left-pad","dist-tags":{"latest":"9.8.7"},"versions":{"9.8.7":{"name":"left-pad","version":"9.8.7"}}}' >"$ws/.t/reg/left-pad"
	(cd "$ws/.t/reg" && exec nsenter -t "$SRV_NS" -n python3 -c '
import http.server, ssl, sys
srv = http.server.ThreadingHTTPServer(("198.51.100.10", 8443), http.server.SimpleHTTPRequestHandler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(sys.argv[1], sys.argv[2])
srv.socket = ctx.wrap_socket(srv.socket, server_side=True); srv.serve_forever()' "$ws/.t/cert.pem" "$ws/.t/key.pem" >/dev/null 2>&1) &
	T_PIDS="$T_PIDS $!"
	i=0; until curl -sk -o /dev/null https://198.51.100.10:8443/ || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	out=$(wrun -- sh -c 'npm_config_cache=$PWD/.t/npmcache npm_config_update_notifier=false npm_config_strict_ssl=false \
		npm view left-pad version --registry https://good.test:8443/ --fetch-retries=0' 2>&1)
	contains "weaker sandbox: npm through HTTPS_PROXY (CONNECT), with its credentials" "$out" "9.8.7"
fi

# A server on a test host that logs every connection it accepts.
log="$ws/.t/direct.log"
srv python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.51.100.11", int(sys.argv[2]))); s.listen(8); s.settimeout(60)
open(sys.argv[1] + ".up", "w").write("up")
while True:
    try: c, a = s.accept()
    except OSError: break
    c.settimeout(2)
    try: d = c.recv(16)
    except OSError: d = b""
    open(sys.argv[1], "a").write("control\n" if d == b"control" else "hit\n"); c.close()
' "$log" 9099 & T_PIDS="$T_PIDS $!"
# direct_only NAME: nothing reached that server but a control connection from outside.
direct_only() {
	t_only "$1" "$log" python3 -c 'import socket; socket.create_connection(("198.51.100.11", 9099), timeout=5).sendall(b"control")'
	rm -f "$log"
}
i=0; while [ ! -e "$log.up" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
refuse "weaker sandbox: a direct TCP connect ignoring the proxy fails" wrun -- python3 -c '
import socket; socket.create_connection(("198.51.100.11", 9099), timeout=3)'
refuse "weaker sandbox: direct curl ignoring the proxy fails" wrun -- curl -sS --max-time 3 --noproxy '*' http://198.51.100.11:9099/

# The proxy's port at a test host: Landlock's port rule would allow it,
# the observer does not. The server listens on that very port.
out=$(wrun -- sh -c 'echo "${HTTP_PROXY##*:}"' 2>/dev/null)
case "$out" in ''|*[!0-9]*) fail "weaker sandbox: the proxy port is named in HTTP_PROXY ($out)" ;; *) ok "weaker sandbox: the proxy port is named in HTTP_PROXY" ;; esac
out=$(wrun -- python3 -c '
import os, socket, subprocess, sys
port = int(os.environ["HTTP_PROXY"].rsplit(":", 1)[1])
try:
    socket.create_connection(("198.51.100.11", port), timeout=3); print("connected", port)
except OSError as e:
    print("refused", port, e.errno)
' 2>&1)
contains "weaker sandbox: <test host>:<proxy port> is refused" "$out" "refused"
contains "weaker sandbox: ... with EACCES" "$out" " 13"
contains "weaker sandbox: ... and is a denial" "$out" "denied connect"
direct_only "nothing reached the test host's server directly"

for s in 'socket.AF_INET, socket.SOCK_DGRAM' 'socket.AF_INET6, socket.SOCK_DGRAM' \
	'socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP' 'socket.AF_PACKET, socket.SOCK_RAW' \
	'socket.AF_NETLINK, socket.SOCK_RAW, 9' 'socket.AF_INET, socket.SOCK_STREAM, 132' \
	'socket.AF_INET, socket.SOCK_SEQPACKET'; do
	refuse "weaker sandbox: socket($s) fails" wrun -- python3 -c "import socket; socket.socket($s)"
done
check "weaker sandbox: a NETLINK_ROUTE socket works (ip, getaddrinfo)" wrun -- python3 -c "
import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)"
refuse "weaker sandbox: socketpair(AF_INET) fails" wrun -- python3 -c "
import socket; socket.socketpair(socket.AF_INET)"
check "weaker sandbox: AF_UNIX sockets work" wrun -- python3 -c "
import socket; a, b = socket.socketpair(); a.send(b'x'); assert b.recv(1) == b'x'"
refuse "weaker sandbox: sendto with MSG_FASTOPEN fails" wrun -- python3 -c '
import socket; s = socket.socket(); s.sendto(b"GET / HTTP/1.0\r\n\r\n", 0x20000000, ("198.51.100.11", 9099))'
direct_only "nothing reached the test host's server (fast open either)"

# strict: no TCP at all, not even to the host's own loopback.
out=$(cd "$ws" && weak "$SANDMUX" run --config "$ws/.t/policy.json" --sandbox strict -- python3 -c '
import socket
for a in [("198.51.100.11", 9099), ("127.0.0.1", 5353)]:
    try: socket.create_connection(a, timeout=3); print("connected", a)
    except OSError as e: print("refused", e.errno)' 2>&1)
contains "weaker sandbox, strict: says so" "$out" "weaker sandbox: no user namespaces (network: no TCP"
# python's own line; a denial hint quotes the script, print("connected", a)
case "$out" in *"connected ('"*) fail "weaker sandbox, strict: no TCP connect at all"; echo "$out" | sed 's/^/#   /' ;;
	*) ok "weaker sandbox, strict: no TCP connect at all" ;; esac
direct_only "nothing reached the test host's server (strict)"

# No listener either: a remote peer could connect in, no connect() needed.
out=$(wrun -- python3 -c '
import socket
for a in [("0.0.0.0", 0), ("127.0.0.1", 18080)]:
    try: s = socket.socket(); s.bind(a); s.listen(1); print("listening", s.getsockname())
    except OSError as e: print("refused", e.errno)' 2>&1)
case "$out" in *listening*) fail "weaker sandbox: no TCP listener"; echo "$out" | sed 's/^/#   /' ;;
	*) ok "weaker sandbox: no TCP listener" ;; esac

# listen() with no bind() first: the kernel binds the socket itself, to
# 0.0.0.0:<ephemeral> (or [::]) of the host's network, where Landlock's
# bind rule never looks. The sandboxed program stays up while, from
# outside, the test looks for any listener on a wildcard address and a
# test host (a remote peer) and the host's loopback try the ports it got.
rm -f "$ws/.t/listen.out" "$ws/.t/listen.done"
(wrun -- python3 -c '
import os, socket, time
keep, res = [], []
for fam in (socket.AF_INET, socket.AF_INET6):
    s = socket.socket(fam); keep.append(s)
    try: s.listen(8); res.append("listening %d" % s.getsockname()[1])
    except OSError as e: res.append("refused %d" % e.errno)
u = socket.socket(socket.AF_UNIX); u.bind(".t/own.sock"); u.listen(1); res.append("unix listening")
open(".t/listen.tmp", "w").write("\n".join(res) + "\n"); os.rename(".t/listen.tmp", ".t/listen.out")
for i in range(400):
    if os.path.exists(".t/listen.done"): break
    time.sleep(0.05)
' >"$ws/.t/listen.log" 2>&1) & lpid=$!
i=0; while [ ! -e "$ws/.t/listen.out" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
out=$(cat "$ws/.t/listen.out" 2>/dev/null)
# Every TCP socket listening in this network namespace on 0.0.0.0 or ::
# (state 0A): sandmux's own proxy listens on 127.0.0.1 only.
wild=$(awk '$4 == "0A" && ($2 ~ /^00000000:/ || $2 ~ /^00000000000000000000000000000000:/) { print $2 }' \
	/proc/net/tcp /proc/net/tcp6)
hits=""
for p in $(echo "$out" | sed -n 's/^listening //p'); do
	srv python3 -c 'import socket, sys; socket.create_connection(("198.51.100.1", int(sys.argv[1])), timeout=3)' "$p" \
		2>/dev/null && hits="$hits remote:$p"
	python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)' "$p" \
		2>/dev/null && hits="$hits local:$p"
done
: >"$ws/.t/listen.done"; wait $lpid
same "weaker sandbox: listen() without bind() is refused (IPv4 and IPv6, EACCES)" "$(echo "$out" | grep -c '^refused 13$')" 2
contains "weaker sandbox: ... and is a denial" "$(cat "$ws/.t/listen.log")" "denied bind"
same "weaker sandbox: no wildcard listener appeared in the host's network" "$wild" ""
same "weaker sandbox: neither a test host nor the host's loopback could connect in" "$hits" ""
contains "weaker sandbox: a unix socket still listens" "$out" "unix listening"

# A thread swaps inet sockets onto the number a unix socket's listen() is
# made on: the observer listens on the very socket it checked, so no
# swap becomes an inet listener (looked for from outside meanwhile).
rm -f "$ws/.t/race.out" "$ws/.t/race.done"
(wrun -- python3 -c '
import ctypes, os, socket, threading, time
libc = ctypes.CDLL(None, use_errno=True)
u = socket.socket(socket.AF_UNIX); u.bind(".t/race.sock")
inets = [socket.socket(socket.AF_INET) for _ in range(3)] + [socket.socket(socket.AF_INET6) for _ in range(3)]
n, spare = u.fileno(), os.dup(u.fileno())
stop, res = time.time() + 2, {0: 0, 13: 0}
def swap():
    while time.time() < stop:
        for s in inets:
            os.dup2(s.fileno(), n); os.dup2(spare, n)
threading.Thread(target=swap, daemon=True).start()
while time.time() < stop:
    r = libc.listen(n, 8); e = ctypes.get_errno() if r else 0; res[e] = res.get(e, 0) + 1
time.sleep(0.1)
open(".t/race.tmp", "w").write("listened %d refused %d\n" % (res[0], res[13])); os.rename(".t/race.tmp", ".t/race.out")
for i in range(400):
    if os.path.exists(".t/race.done"): break
    time.sleep(0.05)
' >"$ws/.t/race.log" 2>&1) & lpid=$!
i=0; while [ ! -e "$ws/.t/race.out" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
wild=$(awk '$4 == "0A" && ($2 ~ /^00000000:/ || $2 ~ /^00000000000000000000000000000000:/) { print $2 }' \
	/proc/net/tcp /proc/net/tcp6)
: >"$ws/.t/race.done"; wait $lpid
out=$(cat "$ws/.t/race.out" 2>/dev/null)
case "$out" in "listened "[1-9]*" refused "[1-9]*) ok "weaker sandbox: the race ran both ways ($out)" ;;
	*) fail "weaker sandbox: the race ran both ways"; sed 's/^/#   /' "$ws/.t/race.log" | head; echo "#   $out" ;; esac
same "weaker sandbox: no swap became a listener in the host's network" "$wild" ""
exit $T_FAILED
