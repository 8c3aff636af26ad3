#!/bin/sh
# Attention, as a person sees it while looking at another window: a pane
# that rings the bell, one that sends OSC 9, one that prints and then goes
# quiet, and one whose sandbox prompt waits, each in a window of its own;
# every window's status-bar entry carries its mark, the pane titles turn
# their colour, the active pane's waiting prompt shows a one-line bar, and
# looking at a pane ends its alert.
. "$TESTS/e2e/mux.lib"

mkdir -p "$HOME/.sandmux"
# (under ASan, mux.lib's "no memory limit" is kept: see there)
if [ -n "$ASAN_OPTIONS" ]; then lim=', "limits": {"memory": 0}'; else lim=''; fi
echo "{\"quiet_after\": 2$lim}" >"$HOME/.sandmux/sandmux.json"
OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start 120 12
ctl() { m_sandmux ctl "$1" >/dev/null; }

# Each pane first proves it ran what it was given (its READY line), then,
# once the person looks elsewhere (window 0), does its thing.
ctl '{"verb":"new-pane","new_window":true,"name":"bell","command":["sh","-c","echo READY; while [ ! -e go ]; do sleep 0.1; done; printf \"\\a\"; echo RANG; sleep 100"]}'
ctl '{"verb":"new-pane","new_window":true,"name":"note","command":["sh","-c","echo READY; while [ ! -e go ]; do sleep 0.1; done; printf \"\\033]9;build done\\a\"; echo NOTIFIED; sleep 100"]}'
ctl "{\"verb\":\"new-pane\",\"new_window\":true,\"name\":\"asks\",\"command\":[\"sh\",\"-c\",\"echo READY; while [ ! -e go ]; do sleep 0.1; done; touch '$OUT/x'; echo TRIED; sleep 100\"]}"
ctl '{"verb":"new-pane","new_window":true,"name":"quiet","command":["sh","-c","echo READY; while [ ! -e go ]; do sleep 0.1; done; echo working; sleep 100"]}'
ctl '{"verb":"select","window":0}'
m_wait main '0:sh*' || fail "window 0 is selected"
touch "$WS/go"
did() { m_sandmux capture -t "$1" 2>/dev/null | grep -q 'RANG\|NOTIFIED\|TRIED\|working'; }
for w in bell note asks quiet; do
	_i=0; while ! did "$w" && [ $_i -lt 200 ]; do sleep 0.1; _i=$((_i + 1)); done
	did "$w" && ok "pane $w did its thing (its line is on its screen)" || fail "pane $w did its thing"
done

m_expect "the status bar marks every window: ! bell, # notification, ! prompt, ~ quiet" "1:bell! 2:note# 3:asks! 4:quiet~"

# Titles: a pane that wants its person is drawn black on yellow (SGR 43).
title_colour() { # title_colour WINDOW: polls the title line's SGR codes for yellow
	m_sandmux ctl "{\"verb\":\"select\",\"window\":$1}" >/dev/null
	_i=0
	while [ $_i -lt 50 ]; do
		$TM capture-pane -p -e -t main | head -1 | grep -q '43m' && return 0
		sleep 0.1; _i=$((_i + 1))
	done
	return 1
}
title_colour 3 && ok "the asking pane's title turns yellow" || fail "the asking pane's title turns yellow"
m_expect "its waiting prompt shows a one-line bar with the key" "sandbox prompt: create $OUT/x by touch"
m_expect "the bar names the key to answer" "C-b a to answer"
m_type "typed-while-waiting"
m_expect "typing still reaches the pane" "typed-while-waiting"

# Looking at the bell's window ends its alert; the others stay.
m_sandmux ctl '{"verb":"select","window":1}' >/dev/null
m_sandmux ctl '{"verb":"select","window":0}' >/dev/null
m_expect "after a look, the bell's window is unmarked, the rest stay" "1:bell 2:note# 3:asks! 4:quiet~"
exit $T_FAILED
