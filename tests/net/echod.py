#!/usr/bin/env python3
"""Reads a connection to its end (the peer's half-close), then sends all
of it back and closes. usage: echod.py ADDR PORT"""
import socket
import sys
import threading


def serve(c):
    data = b""
    while True:
        b = c.recv(65536)
        if not b:
            break
        data += b
    c.sendall(data)
    c.close()


s = socket.socket(socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], int(sys.argv[2])))
s.listen(64)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
