#!/bin/sh
# A denial from Landlock's audit records ("denials": "audit" in
# sandmux.json; root, auditing turned on here and back at the end)
# reaches every consumer an observer denial does: the event stream, the
# pane's denial count (its title), the denials pane and a sandbox prompt,
# with layer "landlock".
. "$TESTS/e2e/mux.lib"
[ "$(id -u)" = 0 ] || { echo "ok - # skip the audit channel: needs root"; exit 0; }
old=$(python3 "$TESTS/sandbox/audit-set.py") || { echo "ok - # skip: cannot read the audit switch"; exit 0; }
trap 'm_cleanup; t_cleanup; python3 "$TESTS/sandbox/audit-set.py" "$old" >/dev/null' EXIT
python3 "$TESTS/sandbox/audit-set.py" 1 >/dev/null || { fail "turn auditing on"; exit 1; }
target=/proc/sys/kernel/hostname
mkdir -p "$HOME/.sandmux"
lim=
[ -n "$ASAN_OPTIONS" ] && lim=', "limits": {"memory": 0}' # as mux.lib's, for ASan
echo "{\"denials\": \"audit\"$lim}" >"$HOME/.sandmux/sandmux.json"
lsj() { m_sandmux ls --json | python3 -c "import json,sys; s=json.load(sys.stdin)[0]; print($1)"; }
EV="$M_ROOT/ev"
m_start
(m_sandmux events --kind denial >"$EV" 2>/dev/null &)
subscribers() { [ "$(lsj 's["subscribers"]')" = "$1" ]; }
t_until 10 subscribers 1 || fail "the subscriber is connected"
m_sandmux new -n w -- python3 -c "
import os, time
try: os.open('$target', os.O_WRONLY)
except OSError as e: print('WRITE-DENIED', e.errno)
time.sleep(60)" >/dev/null
m_expect "the write fails in the pane" "WRITE-DENIED 13"
contains "ls --json: the pane's layers name the channel" "$(lsj '[p for w in s["windows"] for p in w["panes"] if p["id"] == 2][0]["layers"]')" \
	"observer (writes: audit records)"
contains "the server log names the channel" "$(cat "$HOME/.sandmux/state/server.log")" \
	"pane 2: write denials from Landlock's audit records"
t_until 10 grep -q landlock "$EV" || fail "the event came within 10 s"
ev=$(cat "$EV")
contains "event: the record's denial" "$ev" "\"pane\":2,"
contains "event: op, target, rule, layer" "$ev" "\"op\":\"write\",\"target\":\"$target\",\"rule\":\"not under a writable path\",\"layer\":\"landlock\""
same "event: reported once" "$(grep -c "$target" "$EV")" "1"
pane=$(m_sandmux ls --json | python3 -c "import json,sys; print([p for w in json.load(sys.stdin)[0]['windows'] for p in w['panes'] if p['id'] == 2][0])")
contains "the pane counts the denial" "$pane" "'denials': 1"
contains "a prompt waits for it" "$pane" "'op': 'write', 'target': '$target'"
m_keys C-b D
m_expect "the denials pane lists it" "write   x1    $target"
m_keys q
exit $T_FAILED
