#!/usr/bin/env python3
"""Opens N tunnels through the proxy at once (HTTP CONNECT), keeps them
all open, then sends one request down each and counts the answers.
usage: many.py PROXY_HOST PROXY_PORT TARGET_HOST N -> prints "N ok"."""
import selectors
import socket
import sys
import time

phost, pport, target, n = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
sel = selectors.DefaultSelector()
socks, buf = [], {}
for i in range(n):
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex((phost, pport))
    socks.append(s)
    buf[s] = b""
    sel.register(s, selectors.EVENT_WRITE)

def pump(want, deadline):
    """Reads until each socket's buffer contains `want`; returns how many did."""
    done = set()
    while len(done) < n and time.time() < deadline:
        for key, ev in sel.select(timeout=1):
            s = key.fileobj
            try:
                b = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                b = b""
            if not b:
                sel.unregister(s)
                done.add(s)
                continue
            buf[s] += b
            if want in buf[s] and s not in done:
                done.add(s)
    return sum(1 for s in socks if want in buf[s])

deadline = time.time() + 60
# connect, then send CONNECT on each
pending = set(socks)
while pending and time.time() < deadline:
    for key, ev in sel.select(timeout=1):
        s = key.fileobj
        if s in pending:
            s.send(("CONNECT %s:80 HTTP/1.1\r\nHost: %s:80\r\n\r\n" % (target, target)).encode())
            pending.discard(s)
            sel.modify(s, selectors.EVENT_READ)
up = pump(b"\r\n\r\n", deadline)
for s in socks:
    buf[s] = b""
    try:
        s.send(("GET /t HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % target).encode())
    except OSError:
        pass
    try:
        sel.register(s, selectors.EVENT_READ)
    except (KeyError, ValueError):
        pass
got = pump(b"hello from", deadline)
print("%d tunnels up, %d answered" % (up, got))
