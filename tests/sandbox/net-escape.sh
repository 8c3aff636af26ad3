#!/bin/sh
# Around the proxy there is nothing: a tool that ignores the proxy
# variables fails (TCP, UDP, IPv6, the resolver), also with
# networkPolicyStrict and default allow; the sandbox's own loopback still
# works. Test hosts: see tests/net/netns.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }

refuse "direct HTTP ignoring the proxy variables fails" nrun -- curl -sS --max-time 3 --noproxy '*' http://198.51.100.10/
refuse "direct IPv6 ignoring the proxy variables fails" nrun -- curl -sS --max-time 3 --noproxy '*' 'http://[2001:db8::10]/'
refuse "a raw TCP connect to a test host fails" nrun -- python3 -c '
import socket; socket.create_connection(("198.51.100.10", 80), timeout=3)'
refuse "UDP to the test resolver gets no answer" nrun -- python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(2)
q = b"\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x04good\x04test\x00\x00\x01\x00\x01"
answered = False
for a in [("127.0.0.1", 5353), ("198.51.100.10", 53)]:
    try:
        s.sendto(q, a); s.recv(512); print("answered", a); answered = True
    except OSError: pass
raise SystemExit(0 if answered else 1)'
refuse "the host's resolver is not the sandbox's: a name does not resolve directly" nrun -- python3 -c '
import socket; socket.getaddrinfo("good.test", 80)'
check "the proxy still gets there" nrun -- curl -sS --max-time 5 http://good.test/

# DNS rebinding: rebind.test answers a test host, then 127.0.0.1 (TTL 0).
# Each connection is decided on the very address it then uses: the first
# gets through, the second is refused by address, never connected.
out=$(nrun -- sh -c 'curl -sS --max-time 5 http://rebind.test/first; curl -sS --max-time 5 http://rebind.test/second' 2>&1)
contains "rebinding: the first answer is a test host" "$out" "hello from 198.51.100.10:80 /first"
contains "rebinding: the second answer (loopback) is refused" "$out" "rebind.test resolved to 127.0.0.1"

# networkPolicyStrict with default allow: anything by name through the
# proxy, nothing around it, private addresses still refused.
cat >"$ws/.t/strict.json" <<'P'
{"networkPolicy": {"default": "allow"}, "networkPolicyStrict": true}
P
srun() { (cd "$ws" && "$SANDMUX" run --config "$ws/.t/strict.json" "$@"); }
check "strict, default allow: an unlisted name through the proxy" srun -- curl -sS --max-time 5 http://denied.test/
refuse "strict, default allow: direct still fails" srun -- curl -sS --max-time 3 --noproxy '*' http://198.51.100.10/
refuse "strict, default allow: private resolution still refused" srun -- curl -sS --max-time 3 -f -p http://priv.test/
refuse "strict, default allow: the metadata address still refused" srun -- curl -sS --max-time 3 -f http://169.254.169.254/

# A server the command starts inside its own sandbox stays reachable on
# its loopback (NO_PROXY covers it).
out=$(nrun -- sh -c '
python3 -c "
import http.server, socketserver, threading, urllib.request
class H(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
s = socketserver.TCPServer((\"127.0.0.1\", 0), H)
threading.Thread(target=s.serve_forever, daemon=True).start()
print(\"local\", urllib.request.urlopen(\"http://127.0.0.1:%d/\" % s.server_address[1], timeout=5).status)
"' 2>&1)
contains "a server inside the sandbox is reachable on its loopback" "$out" "local 200"
exit $T_FAILED
