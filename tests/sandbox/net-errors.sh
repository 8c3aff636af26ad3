#!/bin/sh
# Bad input to the proxy: malformed request -> 400, oversized head -> 431,
# a request cut short -> 400, unsupported SOCKS commands and address types
# -> their SOCKS reply codes, no acceptable SOCKS method -> 0xff; each
# closes cleanly and the proxy keeps serving. Test hosts: tests/net/netns.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }
cp "$NET/probe.py" "$ws/.t/probe.py"
out=$(nrun -- sh -c '
for w in garbage binary bighead truncated socks-bind socks-udp socks-atyp socks-auth; do
	echo "$w: $(python3 .t/probe.py 127.0.0.1 3128 $w 2>&1)"
done
echo "bigpost: $(python3 .t/probe.py 127.0.0.1 3128 bigpost 2>&1)"
curl -sS --max-time 5 http://good.test/after' 2>&1)
contains "malformed request line: 400" "$out" "garbage: HTTP/1.1 400 Bad Request"
contains "binary junk: 400" "$out" "binary: HTTP/1.1 400 Bad Request"
contains "a head over 16 KiB: 431" "$out" "bighead: HTTP/1.1 431 Request Header Fields Too Large"
contains "a request cut short by EOF: 400" "$out" "truncated: HTTP/1.1 400 Bad Request"
contains "SOCKS5 BIND: reply 7 (command not supported)" "$out" "socks-bind: code=7"
contains "SOCKS5 UDP ASSOCIATE: reply 7" "$out" "socks-udp: code=7"
contains "SOCKS5 unknown address type: reply 8" "$out" "socks-atyp: code=8"
contains "SOCKS5 without the no-auth method: 0xff" "$out" "socks-auth: method=255"
contains "a plain POST with its body in the same write as the head" "$out" "bigpost: HTTP/1.1 200 OK body-same"
contains "the proxy keeps serving after bad input" "$out" "hello from 198.51.100.10:80 /after"
exit $T_FAILED
