#!/bin/sh
# A pane's notification text reaches the person's terminal (alert_terminal)
# and a command of theirs (alert_command), outside every sandbox. A hostile
# program in a pane sends OSC 9 whose text holds C1 controls (UTF-8 encoded
# ST and OSC, and the raw 8-bit bytes): a terminal that honours them would
# end sandmux's notification early and take the rest, here OSC 52, as a
# sequence of its own (it writes the person's clipboard). Then it floods
# notifications. Checked from outside, on the bytes the client wrote to its
# terminal (recorded by script(1)) and the command's arguments: every
# notification is printable UTF-8 with no C1 control, and the flood reaches
# the terminal and the command a few times, not once per OSC.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
command -v script >/dev/null || { echo "ok - # SKIP script(1) not installed"; exit 0; }

OUT="$M_HOME/outside"
mkdir -p "$OUT" "$HOME/.sandmux"
cat >"$OUT/note.sh" <<EOF
#!/bin/sh
for a; do last=\$a; done
printf '%s\n' "\$#" >>"$OUT/argc"
printf '%s\0' "\$last" >>"$OUT/notes"
EOF
chmod +x "$OUT/note.sh"
printf '{"alert_terminal": "osc9", "alert_command": ["%s", "--"]}\n' "$OUT/note.sh" >"$HOME/.sandmux/sandmux.json"

# m_start, with the client's terminal output recorded byte for byte.
(cd "$WS" && $TM new -d -s main -x 120 -y 20 "script -qfc '$SANDMUX' '$OUT/typescript'; echo CLIENT-EXIT \$?; sleep 3600")
m_wait main 'running' || { fail "sandmux did not start"; m_screen | sed 's/^/#   /'; exit 1; }

cat >"$WS/evil.py" <<'PY'
import os, sys, time
while not os.path.exists("go"):
    time.sleep(0.1)
out = sys.stdout.buffer
# ST then OSC 52 as UTF-8 C1 controls, then as raw 8-bit bytes, then CSI
out.write(b"\033]9;hi\xc2\x9c\xc2\x9d52;c;RVZJTA==\xc2\x9c\xc2\x9b2J\x9c\x9d52;c;RVZJTA==\x9c\x9b2J end\a")
for i in range(300):
    out.write(b"\033]9;flood %d\a" % i)
out.write(b"NOTIFIED\n")
out.flush()
while not os.path.exists("go2"):
    time.sleep(0.1)
# a denial whose path holds the same controls: drawn in the prompt bar
try:
    open(sys.argv[1].encode() + b"/x\xc2\x9c\xc2\x9d52;c;RVZJTA==\xc2\x9c\x9d52;c;RVZJTA==\x9c", "w")
except OSError as e:
    print("DENIED", e.errno)
sys.stdout.flush()
time.sleep(100)
PY
m_sandmux ctl '{"verb":"new-pane","new_window":true,"name":"evil","command":["python3","evil.py","'"$OUT"'"]}' >/dev/null
m_sandmux ctl '{"verb":"select","window":0}' >/dev/null
m_wait main '0:sh*' || fail "window 0 is selected"
touch "$WS/go"
i=0
until m_sandmux capture -t evil 2>/dev/null | grep -q NOTIFIED; do
	i=$((i + 1)); [ $i -lt 200 ] || break; sleep 0.1
done
[ $i -lt 200 ] && ok "the pane sent its notifications (NOTIFIED on its screen)" || fail "the pane sent its notifications"
i=0
until [ -s "$OUT/argc" ] && grep -q 'hi' "$OUT/typescript" 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 100 ] || break; sleep 0.1
done
[ $i -lt 100 ] && ok "the first notification reached the terminal and the command" ||
	fail "the first notification reached the terminal and the command"
# The flood is all in before NOTIFIED, so the server has handled it; the
# commands it started may still be running: wait until their count holds,
# none runs, and there is one for each notification the terminal got.
told_n() { grep -o "$(printf '\033')]9;" "$OUT/typescript" | wc -l; }
last=-1; i=0
while [ $i -lt 30 ]; do
	n=$(wc -l <"$OUT/argc")
	[ "$n" = "$last" ] && [ "$n" = "$(told_n)" ] && ! pgrep -f "$OUT/note.sh" >/dev/null && break
	last=$n; i=$((i + 1)); sleep 0.5
done

check() { # check FILE SEP: every notification text in FILE is clean
	python3 - "$@" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
if sys.argv[2] == "osc":
    notes = re.findall(rb"\033\]9;(.*?)(?:\a|\033\\)", data, re.S)
else:
    notes = [n for n in data.split(b"\0") if n]
bad = 0
for n in notes:
    try:
        t = n.decode("utf-8")
    except UnicodeDecodeError:
        print("# invalid UTF-8:", repr(n)); bad += 1; continue
    if any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in t):
        print("# control in:", repr(n)); bad += 1
print(len(notes), bad)
PY
}
r=$(check "$OUT/typescript" osc); echo "$r" | sed "\$d; s/^/#   /"
set -- $(echo "$r" | tail -1)
[ "${1:-0}" -ge 1 ] && [ "$2" = 0 ] && ok "the terminal's notifications hold no control (# $1 seen)" ||
	fail "the terminal's notifications hold no control ($1 seen, $2 with controls)"
r=$(check "$OUT/notes" nul); echo "$r" | sed "\$d; s/^/#   /"
set -- $(echo "$r" | tail -1)
[ "${1:-0}" -ge 1 ] && [ "$2" = 0 ] && ok "the command's notes hold no control" ||
	fail "the command's notes hold no control ($1 seen, $2 with controls)"
awk '$1 != 2 { bad = 1 } END { exit bad }' "$OUT/argc" && ok "the command gets its own arguments and one note" ||
	fail "the command gets its own arguments and one note"; sort "$OUT/argc" | uniq -c | sed 's/^/#   argc /'

runs=$(wc -l <"$OUT/argc")
told=$(grep -o "$(printf '\033')]9;" "$OUT/typescript" | wc -l)
[ "$runs" -le 3 ] && ok "301 notifications run the command a few times (# $runs)" ||
	fail "301 notifications run the command a few times, not $runs"
[ "$told" -le 3 ] && ok "301 notifications reach the terminal a few times (# $told)" ||
	fail "301 notifications reach the terminal a few times, not $told"
# The prompt bar draws the denied path: with the pane's window on screen,
# every byte the client wrote holds no C1 control and no byte that is not
# UTF-8 (the pane's text reaches the terminal only as drawn cells).
m_sandmux ctl '{"verb":"select","target":"evil"}' >/dev/null
touch "$WS/go2"
m_expect "the denial's prompt bar is on screen" "sandbox prompt: create"
t_until 10 grep -q "sandbox prompt: create" "$OUT/typescript" # the frame, written to the typescript
grep -q "sandbox prompt: create" "$OUT/typescript" && ok "the client drew the prompt bar" || fail "the client drew the prompt bar"
m_screen | grep "sandbox prompt" | sed "s/^/#   /"
python3 - "$OUT/typescript" <<'PY'
import sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
bad = [hex(ord(c)) for c in t if 0x80 <= ord(c) < 0xa0 or c == "\ufffd"]
print(("ok - " if not bad else "not ok - ") + "the client's whole output holds no C1 control (# %d chars)" % len(t))
if bad:
    print("#   found:", bad[:10])
PY
out=$(m_sandmux ctl '{"verb":"list"}')
contains "the session still answers" "$out" '"name":"evil"'
exit $T_FAILED
