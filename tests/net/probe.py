#!/usr/bin/env python3
"""Probes the proxy with raw requests and prints what came back, one word
per probe, for tests/sandbox/net-*.sh. usage: probe.py HOST PORT WHAT
WHAT: garbage (-> the status line), bighead (17 KiB of headers -> status),
socks-bind (SOCKS5 BIND -> reply code), socks-auth (only user/password
offered -> method byte), socks-udp (UDP ASSOCIATE -> reply code),
truncated (half a request line, then EOF -> status line or "closed"),
bigpost (head and a 64 KB body in one write -> status and "body-same"),
halfclose (through CONNECT to good.test:7, an echo server that answers
only after EOF: 4 MiB out, half-close, 4 MiB back -> "same" or why not)."""
import socket
import sys


def talk(host, port, data, shut=False):
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(data)
    if shut:
        s.shutdown(socket.SHUT_WR)
    out = b""
    try:
        while True:
            b = s.recv(4096)
            if not b:
                break
            out += b
    except socket.timeout:
        pass
    s.close()
    return out


def status(out):
    return out.split(b"\r\n")[0].decode("latin-1") if out else "closed"


def socks(host, port, request):
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        return "no-method"
    s.sendall(request)
    r = s.recv(10)
    return "code=%d" % r[1] if len(r) >= 2 else "closed"


def halfclose(host, port):
    blob = bytes(range(256)) * 16384
    s = socket.create_connection((host, port), timeout=10)
    s.sendall(b"CONNECT good.test:7 HTTP/1.1\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    if b" 200 " not in head:
        return "refused"
    s.sendall(blob)
    s.shutdown(socket.SHUT_WR)
    back = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        back += b
    return "same" if back == blob else "differs (%d bytes back)" % len(back)


def bigpost(host, port):
    """A plain POST whose head and a body of nearly the buffer's size
    arrive in one write: the head's rewrite must still fit."""
    body = b"b" * 65500
    out = talk(host, port, b"POST http://good.test/post HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    return status(out) + (" body-same" if out.endswith(body) else " body-differs")


host, port, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if what == "garbage":
    print(status(talk(host, port, b"GARBAGE\r\n\r\n")))
elif what == "binary":
    print(status(talk(host, port, b"\x00\x01\x02\xff\r\n\r\n")))
elif what == "bighead":
    head = b"GET http://good.test/ HTTP/1.1\r\n" + b"X-Pad: " + b"a" * 17000 + b"\r\n\r\n"
    print(status(talk(host, port, head)))
elif what == "truncated":
    print(status(talk(host, port, b"CONNECT good.te", shut=True)))
elif what == "socks-bind":
    print(socks(host, port, b"\x05\x02\x00\x01\xc6\x33\x64\x0a\x00\x50"))
elif what == "socks-udp":
    print(socks(host, port, b"\x05\x03\x00\x01\xc6\x33\x64\x0a\x00\x50"))
elif what == "socks-atyp":
    print(socks(host, port, b"\x05\x01\x00\x09\xc6\x33\x64\x0a\x00\x50"))
elif what == "bigpost":
    print(bigpost(host, port))
elif what == "halfclose":
    print(halfclose(host, port))
elif what == "socks-auth":
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(b"\x05\x01\x02")
    r = s.recv(2)
    print("method=%d" % r[1] if len(r) == 2 else "closed")
