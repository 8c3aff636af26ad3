#!/bin/sh
# The control interface under hostile input from a client outside the
# sandbox: requests that are deep, huge, of the wrong types, ids that are
# objects, targets that look like ids, half-closed and never-reading
# connections, and many connections at once. The server answers each with
# an error (or drops the client), keeps its memory bounded, and goes on
# serving the session.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }

m_start 100 20
SOCK="$XDG_RUNTIME_DIR/sandmux/ws"
m_sandmux ctl '{"verb":"new-pane","name":"2","command":["sh","-c","echo NAMED-TWO; sleep 100"]}' >/dev/null
m_sandmux ctl '{"verb":"new-pane","name":"lines","new_window":true,"command":["sh","-c","seq 100000 102000; sleep 100"]}' >/dev/null
i=0; until m_sandmux capture -t lines 2>/dev/null | grep -q 102000 || [ $i -gt 300 ]; do i=$((i + 1)); sleep 0.1; done

SERVER=$(sed -n 's/.*started: .*, pid \([0-9]*\)$/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
[ -n "$SERVER" ] || fail "the server's pid is in its log"
python3 - "$SOCK" "$SERVER" <<'PY'
import json, os, socket, struct, sys, time
path, server = sys.argv[1], int(sys.argv[2])
def conn():
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(20)
    return s
def lines(s, n):
    buf = b""
    while buf.count(b"\n") < n:
        d = s.recv(65536)
        if not d:
            break
        buf += d
    return [json.loads(l) for l in buf.split(b"\n")[:n]]
def say(name, good):
    print(("ok - " if good else "not ok - ") + name)

s = conn()
bad = [
    b'{"verb":"nosuch"}',                           # '{' first: a ctl connection
    b"[" * 60000,                                   # deeper than cJSON's limit
    b'{"verb":"capture","start":1e999}',            # infinity
    b'{"verb":"capture","start":-1e999}',
    b'{"verb":"capture","start":-2147483649}',
    b'{"verb":"resize","dx":1e308,"dy":0}',
    b'{"verb":"new-pane","window":4294967296}',
    b'{"id":{"a":[1,{"b":null}]},"verb":"nosuch"}',
    b'{"verb":"capture","target":{"x":1}}',
    b'{"verb":"capture","target":1e12}',
    b'{"verb":"capture","target":"0.99999999999999999999"}',
    b'{"verb":"capture","target":"-1"}',
    b'{"verb":"capture","target":"0.-1"}',
    b'{"verb":"capture","target":""}',
    b'{"verb":"answer","prompt":"1.4294967296","scope":"once"}',
    b'{"verb":"answer","prompt":{"x":1},"scope":"once"}',
    b'{"verb":"answer","prompt":"1.0","scope":1}',
    b'{"verb":"send-keys","target":1,"keys":[1]}',
    b'{"verb":"new-pane","command":[]}',
    b'{"verb":"new-pane","command":["' + b"a" * 60000 + b'"],"cwd":"rel"}',
    b'{"verb":"subscribe","events":"' + b"denial," * 100 + b'"}',
    b'{"verb":"subscribe","events":","}',
    b'{"verb":"x"\x00}',
    b'\xff\xfe{"verb":"list"}',
    b'{"verb":"list"',
]
s.sendall(b"\n".join(bad) + b"\n")
got = lines(s, len(bad))
say("every malformed request gets one answer, an error (# %d)" % len(got),
    len(got) == len(bad) and all("error" in r for r in got))
s.sendall(b'{"id":{"nested":[1]},"verb":"capture","target":"2"}\n')
r = lines(s, 1)[0]
say("an id that is an object comes back as it was", r.get("id") == {"nested": [1]})
say("a pane named \"2\" does not stand for pane id 2 (ids win)", r.get("pane") == 2)
s.sendall(b'{"id":"frac","verb":"capture","target":2.7}\n')
r = lines(s, 1)[0]
say("a fractional target is refused, not rounded to a pane", r.get("field") == "target" and "pane" not in r)
s.sendall(b"x" * 70000 + b'\n{"id":"after","verb":"hello"}\n')
got = lines(s, 2)
say("a line too long is refused, the next request is served",
    "error" in got[0] and got[1].get("id") == "after")
s.close()

# Half closed: the answers still come.
s = conn()
s.sendall(b'{"id":1,"verb":"hello"}\n{"id":2,"verb":"list"}\n')
s.shutdown(socket.SHUT_WR)
got = lines(s, 2)
say("a half-closed client still gets its answers", [r.get("id") for r in got] == [1, 2])
s.close()

# Many connections, each left open and silent.
many = []
for i in range(200):
    try:
        many.append(conn())
    except OSError as e:
        print("# connection", i, e)
        break
say("200 silent connections are accepted (# %d)" % len(many), len(many) >= 100)
for c in many:
    c.close()

# A client that reads late still gets every answer, in order: the
# requests that waited while it was behind are served once it reads.
s = conn()
n = 800
s.sendall(b"".join(b'{"id":%d,"verb":"capture","target":"lines","start":-100000}\n' % i for i in range(n)))
got = lines(s, n)
print("# %d answers of %d lines each" % (len(got), len(got[-1].get("lines", []))))
say("%d captures asked at once, read late, are all answered in order" % n,
    [r.get("id") for r in got] == list(range(n)))
s.close()

# A client that asks and never reads: the server stops reading it once
# its answers pile up, and its memory stays bounded.
def rss(pid):
    for l in open("/proc/%d/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])
before = rss(server)
s = conn()
s.setblocking(False)
req = b'{"verb":"capture","target":"lines","start":-100000}\n' * 200
sent, deadline = 0, time.time() + 8
while time.time() < deadline and sent < 400 << 20:
    try:
        sent += s.send(req)
    except BlockingIOError:
        time.sleep(0.05)
after = rss(server)
print("# sent %d KiB of requests; server RSS %d -> %d KiB" % (sent >> 10, before, after))
# (an ASan build keeps up to 256 MiB of freed memory in its quarantine)
limit = 65536 + (262144 if os.environ.get("ASAN_OPTIONS") else 0)
say("a client that never reads does not grow the server by more than %d MiB" % (limit >> 10), after - before < limit)
s.close()
t = conn()
t.sendall(b'{"id":"alive","verb":"hello"}\n')
say("the server still answers after all that", lines(t, 1)[0].get("id") == "alive")
t.close()

# More connections than the server has descriptors (its limit lowered
# for the test): it neither spins on the accept it cannot make nor stops
# serving once they are gone.
def cpu(pid):
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return int(f[11]) + int(f[12])
import resource
limit = resource.prlimit(server, resource.RLIMIT_NOFILE)
resource.prlimit(server, resource.RLIMIT_NOFILE, (200, limit[1]))
if True:
    held = []
    for i in range(260):
        try:
            held.append(conn())
        except OSError:
            break
    time.sleep(0.5)
    c0 = cpu(server); time.sleep(2); c1 = cpu(server)
    tick = os.sysconf("SC_CLK_TCK")
    print("# %d connections held, the server has %d descriptors; its CPU %.2f s in 2 s" %
          (len(held), len(os.listdir("/proc/%d/fd" % server)), (c1 - c0) / tick))
    say("out of descriptors, the server does not spin", (c1 - c0) < tick // 2)
    for c in held:
        c.close()
    ok_again = False
    for i in range(50):
        try:
            t = conn()
            t.sendall(b'{"id":"again","verb":"hello"}\n')
            ok_again = lines(t, 1)[0].get("id") == "again"
            t.close()
            break
        except (OSError, ValueError):
            time.sleep(0.2)
    say("and serves again once they are closed", ok_again)
    resource.prlimit(server, resource.RLIMIT_NOFILE, limit)
PY
[ $? = 0 ] || fail "the attacks ran to their end"
out=$(m_sandmux capture -t 2)
contains "the session's panes are untouched" "$out" "NAMED-TWO"
exit $T_FAILED
