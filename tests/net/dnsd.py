#!/usr/bin/env python3
"""A minimal DNS responder the network tests control (never the internet).

usage: dnsd.py ADDR PORT ZONE
ZONE lines: "NAME A 198.51.100.10", "NAME AAAA 2001:db8::10",
"NAME DELAY 3" (answer NAME only after 3 seconds), "NAME REBIND A1,A2"
(IPv4 A1, then A2, then A1... with TTL 0: a rebinding name). Unknown names get
NXDOMAIN. Each query is answered on its own thread, so a delayed answer
never holds up another one. Each name asked is logged, a line each, to
ZONE.queries when it comes (a test can tell a query is under way)."""
import socket
import struct
import sys
import threading
import time


def load(path):
    zone = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3:
            zone.setdefault(f[0].lower().rstrip("."), []).append((f[1].upper(), f[2]))
    return zone


def qname(msg):
    labels, o = [], 12
    while msg[o]:
        n = msg[o]
        labels.append(msg[o + 1:o + 1 + n].decode("ascii", "replace"))
        o += 1 + n
    return ".".join(labels).lower(), o + 1


def answer(sock, zone, msg, peer, turns, log):
    try:
        name, o = qname(msg)
        qtype = struct.unpack(">H", msg[o:o + 2])[0]
    except (IndexError, struct.error):
        return
    with open(log, "a") as f:
        f.write(name + "\n")
    records = zone.get(name, [])
    for kind, value in records:
        if kind == "DELAY":
            time.sleep(float(value))
    rdata, ttl = [], 60
    for kind, value in records:
        if kind == "REBIND" and qtype == 1:
            addrs = value.split(",")
            n = turns.get(name, 0)
            turns[name] = n + 1
            rdata.append((1, socket.inet_pton(socket.AF_INET, addrs[n % len(addrs)])))
            ttl = 0
        if kind == "A" and qtype == 1:
            rdata.append((1, socket.inet_pton(socket.AF_INET, value)))
        elif kind == "AAAA" and qtype == 28:
            rdata.append((28, socket.inet_pton(socket.AF_INET6, value)))
    rcode = 0 if records else 3
    head = msg[:2] + struct.pack(">HHHHH", 0x8180 | rcode, 1, len(rdata), 0, 0)
    body = msg[12:o + 4]
    for t, data in rdata:
        body += struct.pack(">HHHIH", 0xC00C, t, 1, ttl, len(data)) + data
    sock.sendto(head + body, peer)


def main():
    addr, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    sock.bind((addr, port))
    zone = load(path)
    turns = {}
    while True:
        msg, peer = sock.recvfrom(2048)
        threading.Thread(target=answer, args=(sock, zone, msg, peer, turns, path + ".queries"), daemon=True).start()


main()
