#!/usr/bin/env python3
"""A fast HTTP/1.1 server for the proxy benchmark: GET /N answers N bytes
(default 1 KiB), one request per connection. usage: blast.py ADDR PORT"""
import socket
import sys
import threading

CHUNK = b"x" * (1 << 20)


def serve(c):
    try:
        req = b""
        while b"\r\n\r\n" not in req:
            b = c.recv(4096)
            if not b:
                return
            req += b
        path = req.split(b" ")[1].decode()
        n = int(path.rsplit("/", 1)[-1] or 1024) if path.rsplit("/", 1)[-1].isdigit() else 1024
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % n)
        while n > 0:
            k = min(n, len(CHUNK))
            c.sendall(CHUNK[:k])
            n -= k
    except OSError:
        pass
    finally:
        c.close()


addr, port = sys.argv[1], int(sys.argv[2])
s = socket.socket(socket.AF_INET6 if ":" in addr else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr, port))
s.listen(1024)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
