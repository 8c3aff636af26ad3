#!/bin/sh
# OSC 10/11 colour queries in a pane are answered with the attached
# terminal's own colours, as root and as an unprivileged user: the client
# asks its terminal once as it attaches (here the outer tmux, whose panes
# have a set window-style), nothing of the terminal's answers is typed
# into the pane, and a terminal that does not answer leaves the defaults.
. "$TESTS/e2e/mux.lib"

# query: a program in the pane asks for the colours and prints the answer
# (ESC shown as E)
query() {
	m_type "stty -icanon -echo min 0 time 30; printf '\\033]11;?\\033\\\\\\033]10;?\\033\\\\'; a=\$(dd bs=128 count=1 2>/dev/null); stty sane; printf 'ANSWER %s\\n' \"\$a\" | tr '\\033' E"
}

$TM new -d -s setup "sleep 3600"
$TM set -g window-style 'fg=#102030,bg=#f0e0d0'
m_start 80 24
m_wait main '$ ' 15
query
m_expect "OSC 11 gets the terminal's background" 'ANSWER E]11;rgb:f0f0/e0e0/d0d0E\'
m_expect "OSC 10 gets the terminal's foreground" 'E]10;rgb:1010/2020/3030E\'
# the terminal's answers came (above), and none of them was typed into
# the shell before the query's command line
if m_screen | sed '/stty -icanon/q' | grep -q 'rgb:'; then fail "nothing of the terminal's answers is typed"; m_screen | sed 's/^/#   | /'
else ok "nothing of the terminal's answers is typed"; fi

# a new pane (started after the answers) answers the same
m_sandmux new -- sh >/dev/null
m_wait main '$ ' 15
query
m_expect "a later pane answers the same" 'ANSWER E]11;rgb:f0f0/e0e0/d0d0E\'

# a terminal that keeps quiet about its colours: the defaults
m_cleanup
$TM new -d -s setup "sleep 3600"
m_start 80 24
m_wait main '$ ' 15
query
m_expect "without the terminal's answer: the default background" 'ANSWER E]11;rgb:0000/0000/0000E\'
exit $T_FAILED
