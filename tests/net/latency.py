#!/usr/bin/env python3
"""Connect latency, direct and through a proxy (HTTP CONNECT): N times
connect, (CONNECT, wait for 200,) GET a small answer, read to the end.
usage: latency.py N TARGET_HOST TARGET_PORT [PROXY_HOST PROXY_PORT]
prints "mean_ms median_ms p99_ms"."""
import socket
import statistics
import sys
import time


def recv_until(s, marker):
    data = b""
    while marker not in data:
        b = s.recv(65536)
        if not b:
            break
        data += b
    return data


def one(host, port, proxy):
    t0 = time.perf_counter()
    if proxy:
        s = socket.create_connection(proxy)
        s.sendall(b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host.encode(), port))
        if b" 200 " not in recv_until(s, b"\r\n\r\n"):
            raise SystemExit("CONNECT refused")
    else:
        s = socket.create_connection((host, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(b"GET /64 HTTP/1.1\r\nHost: x\r\n\r\n")
    while s.recv(65536):
        pass
    s.close()
    return (time.perf_counter() - t0) * 1000


n, host, port = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
proxy = (sys.argv[4], int(sys.argv[5])) if len(sys.argv) > 5 else None
for _ in range(10):
    one(host, port, proxy)
t = sorted(one(host, port, proxy) for _ in range(n))
print("%.3f %.3f %.3f" % (statistics.mean(t), statistics.median(t), t[int(len(t) * 0.99) - 1]))
