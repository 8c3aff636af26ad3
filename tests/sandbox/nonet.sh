#!/bin/sh
# Profiles without network get an empty network namespace: a server on the
# host's loopback is out of reach (TCP and UDP), checked from outside;
# loopback inside the sandbox still works.
. "$TESTS/sandbox/common.inc"
log="$ws/.t/net.log"
python3 -c '
import socket, sys, select
t = socket.socket(); t.bind(("127.0.0.1", 0)); t.listen(8)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", t.getsockname()[1]))
open(sys.argv[1] + ".port", "w").write(str(t.getsockname()[1]))
while True:
    r, _, _ = select.select([t, u], [], [], 30)
    if not r: break
    for s in r:
        if s is t: s.accept()
        elif s.recv(100) == b"control":
            open(sys.argv[1], "a").write("control\n"); continue
        open(sys.argv[1], "a").write("hit\n")
' "$log" &
srv=$!
i=0; while [ ! -s "$log.port" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
port=$(cat "$log.port")
check "the host's loopback server answers from outside" "$esc" tcp "$port"
i=0; while [ ! -s "$log" ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done # its accept, logged
rm -f "$log"
for p in strict read-only workspace; do
	refuse "$p: TCP to the host's loopback fails" sbx --sandbox $p -- "$esc" tcp "$port"
	sbx --sandbox $p -- python3 -c "
import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', $port))" 2>/dev/null
done
# (a datagram from outside: the server takes connections before datagrams)
t_only "nothing reached the host's server (TCP or UDP)" "$log" python3 -c "
import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'control', ('127.0.0.1', $port))"
kill $srv 2>/dev/null
check "strict: loopback inside works" sbx --sandbox strict -- python3 -c '
import socket
a = socket.socket(); a.bind(("127.0.0.1", 0)); a.listen(1)
b = socket.create_connection(a.getsockname()); a.accept()'
out=$(sbx --sandbox strict -- cat /proc/net/dev 2>/dev/null | awk -F: 'NR > 2 {gsub(/ /, "", $1); print $1}' | tr '\n' ' ')
same "strict: only lo in the network namespace" "$out" "lo "
exit $T_FAILED
