#!/bin/sh
# The overview (prefix w): every pane of every window with its state and
# waiting prompts; a prompt answered in place from it (the write then
# happens on the host); Enter jumps to a pane of another window.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start 140 20
ctl() { m_sandmux ctl "$1" >/dev/null; }
ctl '{"verb":"new-pane","new_window":true,"name":"builder","command":["sh","-c","echo building; sleep 100"]}'
ctl "{\"verb\":\"new-pane\",\"name\":\"asker\",\"command\":[\"sh\",\"-c\",\"touch '$OUT/ok' && echo WROTE-OK; sleep 100\"]}"
ctl '{"verb":"new-pane","new_window":true,"name":"quitter","command":["sh","-c","exit 4"]}'
ctl '{"verb":"select","window":0}'
_i=0; until m_sandmux list --json | grep -q '"waiting":\[{' || [ $_i -ge 200 ]; do sleep 0.1; _i=$((_i + 1)); done
[ $_i -lt 200 ] && ok "the asker's prompt waits" || fail "the asker's prompt waits"
m_keys C-b w
m_expect "the overview opens" "sandmux overview: 4 panes, 1 prompts waiting"
screen=$(m_screen)
contains "it lists the shell of window 0" "$screen" " 0.0     1  sh "
contains "the builder in window 1" "$screen" " 1.0     2  builder"
contains "the asker, waiting" "$screen" " 1.1     3  asker            workspace    full   waiting "
contains "the asker's prompt under it" "$screen" "3.1  touch denied create $OUT/ok -> additionalReadwritePaths += $OUT"
contains "the pane that exited, with its status" "$screen" "quitter          workspace    full   exited 4"
[ ! -e "$OUT/ok" ] && ok "nothing was written before the answer (checked on the host)" || fail "nothing was written before the answer"
# Down to the prompt's row (the shell, the builder, the asker, its prompt).
m_keys Down Down Down
m_keys s
m_expect "answered in place: the overview shows no prompt waiting" "sandmux overview: 4 panes, 0 prompts waiting"
i=0; while [ ! -e "$OUT/ok" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$OUT/ok" ] && ok "the asker re-ran with the grant: the file is on the host" || fail "the asker re-ran with the grant"
# Enter on the builder jumps to window 1 with the builder focused.
m_keys Up Up
m_keys Enter
m_expect "Enter jumps to the pane's window" "1:builder*"
m_expect "the builder is on screen" "building"
exit $T_FAILED
