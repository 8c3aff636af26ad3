#!/bin/sh
# Real programs draw correctly in a pane: less, vim and top; and the text
# of a program's screen in a sandmux pane is the same as in a plain tmux
# pane of the same size.
. "$TESTS/e2e/mux.lib"

i=1
while [ $i -le 300 ]; do printf 'line %03d alpha beta gamma %s\n' $i "$(printf '%*s' $((i % 50)) '' | tr ' ' '=')"; i=$((i + 1)); done >"$WS/file.txt"
printf 'héllo wörld — ünïcode 日本語 wide\n\033[1;31mred bold\033[0m \033[38;2;10;200;30mrgb\033[0m \033[48;5;200mbg256\033[0m\n' >"$WS/colors.txt"

# The pane's screen: rows 2..H-1 of the outer one (title line above, status bar below).
pane_text() { m_screen | sed -n "2,$(($2 + 1))p" | cut -c1-"$1" | sed 's/ *$//'; }
ref_text() { $TM capture-pane -p -t ref | sed 's/ *$//'; }
same_screens() { [ "$(pane_text 120 38 | head -n "$1")" = "$(ref_text | head -n "$1")" ]; }

# compare NAME CMD...: runs CMD in the zoomed sandmux pane and in tmux.
compare() {
	_n=$1; shift
	$TM kill-session -t ref 2>/dev/null
	(cd "$WS" && $TM new -d -s ref -x 120 -y 38 "$*; sleep 3600")
	m_type "$*"
	m_wait ref "$CMP_WAIT" && m_wait main "$CMP_WAIT"
	t_until 10 same_screens "${CMP_LINES:-38}" # both drew their first screen; let them settle
	a=$(pane_text 120 38 | head -n "${CMP_LINES:-38}"); b=$(ref_text | head -n "${CMP_LINES:-38}")
	if [ "$a" = "$b" ]; then ok "$_n"; else
		fail "$_n"
		echo "$a" >"$M_ROOT/a"; echo "$b" >"$M_ROOT/b"; diff "$M_ROOT/a" "$M_ROOT/b" | head -20 | sed 's/^/#   /'
	fi
}

m_start 120 40
CMP_WAIT="line 001" compare "less draws the same screen as in tmux" less file.txt
m_keys G
m_expect "less jumps to the end" "line 300"
m_keys q
CMP_WAIT="line 001" compare "vim draws the same screen as in tmux" vim -u NONE -i NONE -N -n file.txt
m_keys 50G
m_expect "vim moves and redraws" "line 050"
$TM send-keys -t main -l ':q!'
m_keys Enter
m_waitnot main "line 050"
if command -v vttest >/dev/null; then
	# in a pane of its own (zoomed to the same size), closed with prefix x
	$TM kill-session -t ref 2>/dev/null
	(cd "$WS" && $TM new -d -s ref -x 120 -y 38 "vttest; sleep 3600")
	m_sandmux new -n vttest -- vttest >/dev/null
	m_keys C-b z
	m_wait ref "Enter choice" && m_wait main "Enter choice"
	t_until 10 same_screens 38
	same "vttest's menu draws the same as in tmux" "$(pane_text 120 38)" "$(ref_text)"
	m_keys 1 Enter
	$TM send-keys -t ref 1 Enter
	m_wait ref "RETURN" && m_wait main "RETURN"
	t_until 10 same_screens 38
	same "vttest's first cursor-movement screen draws the same as in tmux" "$(pane_text 120 38)" "$(ref_text)"
	m_keys C-b x; m_wait main "(y/n)"; m_keys y
	m_waitnot main "vttest"
fi
CMP_WAIT="rgb" CMP_LINES=2 compare "unicode, wide characters and colours match tmux" "clear; cat colors.txt"
m_type "clear"
m_type "top -d 0.5"
m_expect "top draws its header" "Tasks:"
m_expect "top draws its process table" "PID USER"
m_keys q
m_waitnot main "Tasks:"

if command -v htop >/dev/null; then
	m_type "clear; htop"
	m_expect "htop draws its meters" "Load average"
	m_expect "htop draws its process list" "Command"
	m_keys q
	m_waitnot main "Load average"
fi

# colours reach the outer terminal (capture with -e keeps the escapes)
m_type "cat colors.txt"
m_wait main "bg256"
esc=$($TM capture-pane -p -e -t main)
contains "bold red is drawn bold red" "$esc" "red bold"
case "$esc" in *'[1;31m'*|*'[31;1m'*|*'[1m'*'[31m'*) ok "SGR bold+red reaches the terminal" ;; *) fail "SGR bold+red reaches the terminal"; echo "$esc" | grep -a 'red bold' | cat -v | sed 's/^/#   /' ;; esac

# garbage cannot reach the outer terminal or hang the server
head -c 200000 /dev/urandom >"$WS/garbage.bin"
m_type "cat garbage.bin; printf '\\033]52;c;aGVsbG8=\\007\\033]0;EVIL-TITLE\\007'; echo; echo after-garbage"
m_expect "random bytes do not hang the host" "after-garbage" 
title=$($TM display -p -t main '#{pane_title}')
case "$title" in *EVIL*) fail "a pane cannot set the outer title" ;; *) ok "a pane cannot set the outer title" ;; esac
exit $T_FAILED
