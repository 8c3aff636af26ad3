#!/bin/sh
# The control interface (JSON lines on the session socket), as root and as
# an unprivileged user: a session of four panes driven through it alone —
# opened, typed into, captured, followed (prompt, answer, exit, attention
# events), a prompt answered, a pane killed; malformed requests get errors
# on a connection that stays usable; the CLI verbs over it; and from
# inside a pane, nothing reaches the socket.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }

OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start
SOCK="$XDG_RUNTIME_DIR/sandmux/ws"

# ctl JSON: one request, its response on stdout.
ctl() { m_sandmux ctl "$1"; }
# field JSON PYTHON-EXPR: EXPR of r, the parsed response.
field() { echo "$1" | python3 -c "import json,sys; r=json.loads(sys.stdin.readline()); print($2)"; }

r=$(ctl '{"id":1,"hello":1}')
same "hello answers the version and the verbs" "$(field "$r" '(r["id"], r["version"], "answer" in r["verbs"], "capture" in r["verbs"])')" "(1, 1, True, True)"

# Every event from here on, in the background.
m_sandmux ctl '{"id":"sub","verb":"subscribe"}' >"$M_ROOT/events" 2>&1 &
t_until 5 grep -q '"id":"sub","ok":true' "$M_ROOT/events" && ok "subscribe is answered" || fail "subscribe is answered"

# Four panes, through the interface only.
r=$(ctl '{"id":2,"verb":"new-pane","name":"echo","command":["sh","-c","while read l; do echo \"echo:$l\"; done"]}')
ECHO=$(field "$r" 'r["pane"]')
r=$(ctl "{\"id\":3,\"verb\":\"new-pane\",\"name\":\"writer\",\"command\":[\"sh\",\"-c\",\"touch '$OUT/w' && echo WROTE; sleep 60\"]}")
WRITER=$(field "$r" 'r["pane"]')
# The bell rings in a window of its own, once the person looks at window 0
# (a pane on screen asks for no attention).
r=$(ctl '{"id":4,"verb":"new-pane","name":"bell","new_window":true,"command":["sh","-c","while [ ! -e ring ]; do sleep 0.1; done; printf \"\\a\"; echo RANG; sleep 60"]}')
BELL=$(field "$r" 'r["pane"]')
ctl '{"id":41,"verb":"select","window":0}' >/dev/null
touch "$WS/ring" # select is answered once the window is shown
r=$(ctl '{"id":5,"verb":"new-pane","name":"quits","layout":"tiled","command":["sh","-c","sleep 1; exit 7"]}')
QUITS=$(field "$r" 'r["pane"]')
same "four new panes, each answered with its id" "$(field "$(ctl '{"id":6,"verb":"list"}')" 'sorted(p["name"] for w in r["session"]["windows"] for p in w["panes"] if p["name"] in ("echo","writer","bell","quits"))')" "['bell', 'echo', 'quits', 'writer']"

ctl "{\"id\":7,\"verb\":\"send-text\",\"target\":\"echo\",\"text\":\"hi there\"}" >/dev/null
ctl "{\"id\":8,\"verb\":\"send-keys\",\"target\":$ECHO,\"keys\":[\"Enter\"]}" >/dev/null
capture_has() { ctl "{\"id\":9,\"verb\":\"capture\",\"target\":\"$1\"}" | grep -q "$2"; }
t_until 10 capture_has echo "echo:hi there" && ok "send-text and send-keys reach the pane; capture reads its screen" ||
	fail "send-text and send-keys reach the pane; capture reads its screen"
same "the CLI's capture shows the same line" "$(m_sandmux capture -t "$ECHO" | grep -c 'echo:hi there')" 1
m_sandmux send -t echo "second" Enter
t_until 10 capture_has echo "echo:second" && ok "sandmux send types keys by name" || fail "sandmux send types keys by name"

# The writer's denial opens a prompt; answering it re-runs the writer.
has_event() { python3 - "$M_ROOT/events" "$@" <<'PY'
import json, sys
want = dict(a.split("=", 1) for a in sys.argv[2:])
for l in open(sys.argv[1]):
    try:
        e = json.loads(l)
    except ValueError:
        continue
    if all(str(e.get(k)) == v for k, v in want.items()):
        print(e.get("id", ""))
        sys.exit(0)
sys.exit(1)
PY
}
t_until 10 has_event event=denial pane="$WRITER" op=create >/dev/null && ok "a denial event with its pane" ||
	fail "a denial event with its pane"
t_until 10 has_event event=prompt pane="$WRITER" >/dev/null && ok "a prompt event" || fail "a prompt event"
PROMPT=$(has_event event=prompt pane="$WRITER")
same "the prompt's id names its pane" "${PROMPT%%.*}" "$WRITER"
[ ! -e "$OUT/w" ] && ok "the write did not happen before the answer (checked on the host)" || fail "the write did not happen before the answer"
r=$(ctl '{"id":10,"verb":"answer","prompt":"999.1","scope":"once"}')
same "an unknown prompt id is an error naming the field" "$(field "$r" 'r["field"]')" "prompt"
r=$(ctl "{\"id\":11,\"verb\":\"answer\",\"prompt\":\"$PROMPT\",\"scope\":\"sometimes\"}")
same "an unknown scope is an error naming the field" "$(field "$r" 'r["field"]')" "scope"
check "sandmux answer PROMPT session" m_sandmux answer "$PROMPT" session
t_until 10 test -e "$OUT/w" && ok "the answer re-ran the writer with the grant: the file is on the host" ||
	fail "the answer re-ran the writer with the grant"
t_until 5 has_event event=answer prompt="$PROMPT" scope=session >/dev/null && ok "an answer event" || fail "an answer event"
t_until 10 has_event event=exit pane="$QUITS" status=7 >/dev/null && ok "an exit event with the status" || fail "an exit event with the status"
t_until 10 has_event event=attention pane="$BELL" why=bell >/dev/null && ok "an attention event for the bell" ||
	fail "an attention event for the bell"

check "sandmux kill-pane -t echo" m_sandmux kill-pane -t echo
same "the killed pane is gone from list --json" "$(m_sandmux list --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(sum(p["name"] == "echo" for w in s["windows"] for p in w["panes"]))')" 0
refuse "kill-pane of a pane that does not exist fails" m_sandmux kill-pane -t nosuchpane

# Malformed requests on one connection: each gets an error, and the same
# connection still answers afterwards.
cat >"$M_ROOT/bad.py" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rwb")
def ask(raw):
    f.write(raw + b"\n"); f.flush()
    return json.loads(f.readline())
checks = [
    (b"{not json", None),
    (b"[1,2]", None),
    (b'{"id":1}', "verb"),
    (b'{"id":2,"verb":7}', "verb"),
    (b'{"id":3,"verb":"nope"}', "verb"),
    (b'{"id":4,"verb":"capture","target":{"a":1}}', "target"),
    (b'{"id":5,"verb":"capture","target":"no-such-pane"}', "target"),
    (b'{"id":6,"verb":"new-pane","command":"ls"}', "command"),
    (b'{"id":7,"verb":"new-pane","command":["true"],"cwd":"relative"}', "cwd"),
    (b'{"id":8,"verb":"resize","dx":"wide"}', "dx"),
    (b'{"id":9,"verb":"subscribe","events":"weather"}', "events"),
    (b'{"id":10,"verb":"send-keys","keys":[1]}', "keys"),
    (b'{"id":11,"verb":"x","pad":"' + b"a" * 100000 + b'"}', None),
]
for raw, fld in checks:
    r = ask(raw)
    assert "error" in r and r.get("field") == fld, (raw[:60], r)
r = ask(b'{"id":"after","hello":1}')
assert r.get("ok") and r["id"] == "after", r
print("ALL-ERRORS-OK")
PY
check "malformed, mistyped, unknown and oversized requests get errors; the connection keeps serving" python3 "$M_ROOT/bad.py" "$SOCK"
r=$(ctl '{"id":12,"hello":1}')
same "and the server keeps serving others" "$(field "$r" 'r["ok"]')" "True"

# From inside a pane: the socket's directory is masked, a hard link to it
# and the server's /proc entries are refused. Each attempt would open a
# pane named "evil" (checked from outside, in list --json).
ln "$SOCK" "$WS/sock" || fail "hard link to the socket"
cat >"$WS/inside.py" <<PY
import os, socket
req = b'{"id":1,"verb":"new-pane","name":"evil","command":["true"]}\n'
paths = ["$SOCK", "sock", "/proc/$(pgrep -f -o 'sandmux' -u "$(id -u)" || echo 1)/root$SOCK"]
for p in paths + ["\0sandmux", "\0$SOCK"]:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(p)
        s.sendall(req)
        print(repr(p), "answer:", s.recv(4096))
    except Exception as e:
        print(repr(p), "error:", e)
print("INSIDE-DONE")
PY
ctl '{"id":13,"verb":"new-pane","name":"inside","command":["sh","-c","python3 inside.py >inside.out 2>&1; sleep 60"]}' >/dev/null
t_until 15 grep -qs INSIDE-DONE "$WS/inside.out" || fail "the inside attempts ran"
sed 's/^/#   inside: /' "$WS/inside.out"
grep -q "answer: b'{" "$WS/inside.out" && fail "no attempt from inside got an answer" || ok "no attempt from inside got an answer"
same "no pane was opened from inside (checked outside)" "$(m_sandmux list --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(sum(p["name"] == "evil" for w in s["windows"] for p in w["panes"]))')" 0
rm -f "$WS/sock"

m_sandmux kill-session >/dev/null
t_until 20 sh -c '! kill -0 '"$!"' 2>/dev/null' && ok "the subscriber ends when the session ends" || fail "the subscriber ends when the session ends"
exit $T_FAILED
