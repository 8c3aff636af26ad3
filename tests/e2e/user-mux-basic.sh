#!/bin/sh
# The everyday path: start, type, split both ways, detach and attach,
# two clients at once, `sandmux new` from a script, exit status in the
# title, ls and kill-session (leaving no process behind).
. "$TESTS/e2e/mux.lib"

m_start
m_type 'echo first-$((6*7))'
m_expect "typing reaches the first pane" "first-42"
contains "the title line names the profile and the state" "$(m_screen | head -1)" "running · workspace · denials 0"
# The running session made nothing in the workspace (checked from outside).
same "no .vscode or .sandmux made in the workspace" "$(ls -A "$WS" | grep -cE '^(\.vscode|\.sandmux)$')" 0

m_keys C-b %
m_wait main ' 2: ' && ok "prefix % splits side by side" || fail "prefix % splits side by side"
m_type 'echo second-$((7*7))'
m_expect "typing reaches the new pane" "second-49"
line=$(m_screen | grep 'second-49' | head -1)
contains "the panes sit side by side" "$line" "│"

m_keys C-b '"'
m_wait main ' 3: ' && ok "prefix \" splits above/below" || fail "prefix \" splits above/below"
m_type 'echo third-$((8*8))'
m_expect "typing reaches the third pane" "third-64"
m_keys C-b Left
m_type 'echo back-left'
m_expect "prefix Left moves the focus" "back-left"
pane1=$(m_screen | awk -F'│' '/back-left/ {print $1}' | head -1)
contains "the left pane got the keys" "$pane1" "back-left"

m_keys C-b d
m_expect "prefix d detaches" "[detached (from session ws)]"
m_expect "the client exits 0 on detach" "CLIENT-EXIT 0"
out=$(m_sandmux ls)
contains "ls lists the session" "$out" "ws: 1 windows, 3 panes, profile workspace"

$TM new-window -t main -n again "cd '$WS' && '$SANDMUX' attach; sleep 3600"
m_expect "attach shows the same content" "third-64" main:again
m_screen main:again | grep -q 'first-42' && ok "attach shows every pane" || fail "attach shows every pane"

$TM new -d -s second -x 120 -y 40 "cd '$WS' && '$SANDMUX' attach; sleep 3600"
m_expect "a second client sees the session" "third-64" second
$TM send-keys -t main:again -l 'echo from-one'
$TM send-keys -t main:again Enter
m_expect "typing in one client shows in the other" "from-one" second

id=$(m_sandmux new -n job -- sh -c 'echo job-ran; exit 3')
contains "sandmux new answers with the pane" "$id" "pane 4"
m_expect "the new pane runs its command" "job-ran" second
m_expect "the exit status shows in the title" "exited 3" second
m_sandmux new -- sh -c 'sleep 0.2; kill -9 $$' >/dev/null
$TM send-keys -t second C-b z
m_expect "a killed program shows its signal" "killed by signal 9 (KILL)" second
$TM send-keys -t second C-b z

m_sandmux new -n sleeper -- sleep 4242 >/dev/null
m_wait second sleeper
# the client of window "second" (main:again's must live on: it is told below)
cpid=$(pgrep -P "$($TM display-message -p -t second '#{pane_pid}')" -f "$SANDMUX attach")
kill -9 "$cpid"
one_client() { m_sandmux ls --json | tr -d ' \t\n' | grep -q '"clients":1,'; }
t_until 10 one_client # the server has seen it go
out=$(m_sandmux ls)
contains "killing a client leaves the session running" "$out" "ws: 1 windows, 6 panes"
pid=$(sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
pgrep -f 'sleep 4242' >/dev/null && ok "the pane's program runs" || fail "the pane's program runs"
out=$(m_sandmux kill-session)
contains "kill-session ends the session" "$out" "killed session ws"
m_expect "an attached client is told" "ended: exiting: kill-session" main:again
_i=0; while [ $_i -lt 100 ] && { pgrep -f 'sleep 4242' >/dev/null || kill -0 "$pid" 2>/dev/null; }; do sleep 0.1; _i=$((_i + 1)); done
if pgrep -f 'sleep 4242' >/dev/null; then fail "no process outlives the session"; else ok "no process outlives the session"; fi
[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null && ok "the server is gone" || fail "the server is gone"
refuse "ls after kill-session finds nothing" m_sandmux ls

# a server killed outright (SIGKILL) takes its sandboxes with it
$TM new -d -s third -x 100 -y 30 "cd '$WS' && '$SANDMUX'; sleep 3600"
m_wait third running
m_sandmux new -- sleep 4343 >/dev/null
m_wait third 'sleep'
pid=$(sed -n 's/.*started: .* pid \([0-9]*\).*/\1/p' "$HOME/.sandmux/state/server.log" | tail -1)
kill -9 "$pid"
_i=0; while [ $_i -lt 100 ] && pgrep -f 'sleep 4343' >/dev/null; do sleep 0.1; _i=$((_i + 1)); done
if pgrep -f 'sleep 4343' >/dev/null; then fail "SIGKILL of the server leaves no sandboxed process"; else ok "SIGKILL of the server leaves no sandboxed process"; fi
m_expect "the client sees the server go" "lost the server" third
exit $T_FAILED
