#!/bin/sh
# A wall in one step, as root and as an unprivileged user: `sandmux new`
# with commands separated by ::: and a layout, `new --json`, and `new
# --file WALL.json` (panes with name, command, cwd, window); a bad wall
# file is refused with FILE:LINE:COL: FIELD and opens nothing.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
m_start 160 40
names() { m_sandmux list --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(" ".join(p["name"] for w in s["windows"] for p in w["panes"]))'; }

out=$(m_sandmux new --layout tiled -n w -- sh -c 'echo AAA; sleep 60' ::: sh -c 'echo BBB; sleep 60' ::: sh -c 'echo CCC; sleep 60')
same "three panes from one new" "$out" "pane 2,3,4"
same "named w, w-2, w-3" "$(names)" "sh w w-2 w-3"
for p in 2:AAA 3:BBB 4:CCC; do
	i=0; while ! m_sandmux capture -t "${p%%:*}" | grep -q "${p#*:}" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	m_sandmux capture -t "${p%%:*}" | grep -q "${p#*:}" && ok "pane ${p%%:*} runs its own command" || fail "pane ${p%%:*} runs its own command"
done
m_expect "the window is tiled (four panes of equal room: two rows of titles)" " 4: w-3 "
same "new --json prints the new pane's id" "$(m_sandmux new --json -- sh -c 'sleep 60')" '{"pane":5,"panes":[5]}'
refuse "an empty command between ::: is refused" m_sandmux new -- true ::: ::: true
refuse "an unknown layout is refused" m_sandmux new --layout diagonal -- true

mkdir -p "$WS/sub"
cat >"$WS/wall.json" <<JSON
{"layout": "even-vertical",
 "panes": [
  {"name": "left", "command": ["sh", "-c", "pwd; echo LEFT-UP; sleep 60"], "cwd": "$WS/sub", "window": "new"},
  {"name": "right", "command": ["sh", "-c", "echo RIGHT-UP; sleep 60"]}
 ]}
JSON
out=$(m_sandmux new --file wall.json)
same "new --file opens each pane" "$out" "$(printf 'pane 6\npane 7')"
m_expect "the wall's first pane runs in its cwd" "$WS/sub"
m_expect "and the second pane runs too" "RIGHT-UP"
same "in a window of their own" "$(m_sandmux list --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print([[p["name"] for p in w["panes"]] for w in s["windows"]][-1])')" "['left', 'right']"

printf '{"panes": [\n  {"name": "x", "command": "sh"}\n]}\n' >"$WS/bad.json"
err=$(m_sandmux new --file bad.json 2>&1)
same "a bad wall file: one line naming file, line, column and field" "$err" "sandmux new: bad.json:2:28: panes[0].command: want an array of strings: the program and its arguments"
printf '{"panes": [{"command": ["true"], "colour": 1}]}' >"$WS/bad2.json"
err=$(m_sandmux new --file bad2.json 2>&1)
contains "an unknown key names itself" "$err" "bad2.json:1:44: panes[0].colour: unknown key"
same "nothing was opened by the bad files" "$(names | wc -w | tr -d ' ')" 7
exit $T_FAILED
