# The kernel's audit switch (AUDIT_GET/AUDIT_SET over netlink, as
# auditctl -s / -e do): prints the value it found; with an argument, sets
# it. Exits 1 with one line when this process may not (CAP_AUDIT_CONTROL).
import socket, struct, sys

AUDIT_GET, AUDIT_SET, NLMSG_ERROR = 1000, 1001, 2


def request(kind, payload=b""):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 9)  # NETLINK_AUDIT
    s.bind((0, 0))
    s.sendto(struct.pack("=IHHII", 16 + len(payload), kind, 5, 1, 0) + payload, (0, 0))  # REQUEST|ACK
    s.settimeout(2)
    while True:
        d = s.recv(8192)
        t = struct.unpack("=H", d[4:6])[0]
        if t == NLMSG_ERROR:
            err = struct.unpack("=i", d[16:20])[0]
            if err != 0:
                sys.exit("audit-set: %s: errno %d" % ("AUDIT_GET" if kind == AUDIT_GET else "AUDIT_SET", -err))
            if kind != AUDIT_GET:
                return None
        elif t == AUDIT_GET:
            return struct.unpack("=II", d[16:24])[1]  # mask, enabled


try:
    old = request(AUDIT_GET)
    if len(sys.argv) > 1:
        request(AUDIT_SET, struct.pack("=8I", 1, int(sys.argv[1]), 0, 0, 0, 0, 0, 0))  # AUDIT_STATUS_ENABLED
except OSError as e:
    sys.exit("audit-set: %s" % e)
print(old)
