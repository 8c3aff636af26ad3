#!/bin/sh
# The terminal in an 80x24 pane: whole screens of vttest (menus 1 and 2),
# vim, less and htop compared with the expected screens checked in beside
# this test (tests/e2e/mux-vt/, compared with cmp, as tmux's regress/
# does); colours passed through; and the multiplexer's papercuts done
# tmux's way (zoom marker, kill-pane asks, prompts at the left, mouse
# reports only when wanted, Up from under two panes).
# VT_SCREENS_UPDATE=1 rewrites the expected screens instead (check them by eye).
. "$TESTS/e2e/mux.lib"

EXP="$TESTS/e2e/mux-vt"
# The pane's screen: rows 2..25 of the 80x26 outer one (title line above,
# status bar below).
pane_screen() { m_screen | sed -n '2,25p' | sed 's/ *$//'; }

# screen NAME: the pane's screen must be the expected one, byte for byte.
screen() {
	pane_screen >"$M_ROOT/$1"
	if [ -n "$VT_SCREENS_UPDATE" ]; then cp "$M_ROOT/$1" "$EXP/$1"; ok "screen $1 (written)"; return; fi
	if cmp -s "$M_ROOT/$1" "$EXP/$1"; then ok "screen $1"; else
		fail "screen $1"
		diff "$EXP/$1" "$M_ROOT/$1" | head -20 | sed 's/^/#   /'
	fi
}

# moved_on: the screen is no longer $was.
moved_on() { [ "$(m_screen)" != "$was" ]; }
# settle TEXT: TEXT is on screen, and the screen stopped changing.
settle() {
	m_wait main "$1" 15 || { echo "#   waited in vain for: $1"; return 1; }
	_prev=""; _i=0
	while [ $_i -lt 30 ]; do
		_now=$(m_screen)
		[ "$_now" = "$_prev" ] && return 0
		_prev=$_now; sleep 0.2; _i=$((_i + 1))
	done
}

unset COLORTERM
m_start 80 26
m_type 'stty size'
m_expect "the pane is 80x24" "24 80"

# ---- the mouse is asked of the outer terminal only while wanted
mouse_flags() { $TM display -p -t main '#{mouse_any_flag}'; }
same "no pane wants the mouse: the outer terminal is not asked for it" "$(mouse_flags)" "0"
m_type "clear; printf '\\033[?1002h\\033[?1006h'; echo mouse-on"
m_wait main mouse-on
i=0; while [ "$(mouse_flags)" = 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
same "a pane that asks for the mouse turns it on outside" "$(mouse_flags)" "1"
m_type "printf '\\033[?1002l\\033[?1006l'; echo mouse-off"
m_wait main mouse-off
i=0; while [ "$(mouse_flags)" != 0 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
same "and off again when it is done" "$(mouse_flags)" "0"

# ---- papercuts
m_keys C-b '"'
m_wait main ' 2: ' || m_wait main '│' 2
m_keys C-b z
m_wait main ':sh*Z' && ok "a zoomed window is marked Z in the status bar" || { fail "a zoomed window is marked Z in the status bar"; m_screen | tail -1; }
m_keys C-b z
m_waitnot main '*Z' && ok "and the mark goes with the zoom" || fail "and the mark goes with the zoom"
m_keys C-b x
m_wait main '(y/n)'
last=$(m_screen | tail -1)
case "$last" in "kill-pane "[0-9]*"? (y/n)"*) ok "prefix x asks kill-pane N? (y/n) at the left" ;; *) fail "prefix x asks kill-pane N? (y/n) at the left"; echo "#   $last" ;; esac
m_keys n
m_waitnot main '(y/n)'
m_type 'echo still-here'
m_expect "n keeps the pane" "still-here"
m_keys C-b x
m_wait main '(y/n)'
m_keys y
m_waitnot main 'still-here' && ok "y kills it" || fail "y kills it"
m_keys C-b ,
m_wait main 'rename window: '
last=$(m_screen | tail -1)
case "$last" in "rename window:"*) ok "the rename prompt sits at the left of the status line" ;; *) fail "the rename prompt sits at the left of the status line"; echo "#   $last" ;; esac
m_keys Escape
m_waitnot main 'rename window: '
m_type 'clear; seq 1 40'
m_wait main '40'
m_keys C-b '['
m_wait main '[copy mode]'
m_keys /
$TM send-keys -t main -l 'needle'
m_wait main 'search: needle' && ok "copy-mode search shows what is typed" || { fail "copy-mode search shows what is typed"; m_screen | tail -1; }
m_keys Escape
m_waitnot main 'search: needle'
m_keys q
m_waitnot main '[copy mode]'
# tiled, three panes: Up from the full-width one at the bottom
m_keys C-b %
m_keys C-b '"'
m_keys C-b M-5
m_type 'clear; echo where-am-i'
m_wait main where-am-i
m_keys C-b Up
m_type 'clear; echo moved-$((2 + 3))'
m_wait main moved-5
row=$(m_screen | grep -n moved-5 | head -1 | cut -d: -f1)
[ -n "$row" ] && [ "$row" -lt 13 ] && ok "prefix Up from the full-width bottom pane moves up" || { fail "prefix Up from the full-width bottom pane moves up"; m_screen | sed 's/^/#   /'; }
m_keys C-b x; m_wait main '(y/n)'; m_keys y
m_keys C-b x; m_wait main '(y/n)'; m_keys y
m_waitnot main '│'

# ---- whole screens: vttest menus 1 and 2 (every screen, in order)
if command -v vttest >/dev/null; then
	m_type 'clear; vttest'
	settle 'Enter choice number'
	screen vttest-menu
	for menu in 1 2; do
		was=$(m_screen); m_keys $menu Enter
		n=1
		while [ $n -le 20 ]; do
			# the next screen, unless it looks the same as the last (80/132 columns)
			cmp -s "$EXP/vttest-$menu-$n" "$EXP/vttest-$menu-$((n - 1))" 2>/dev/null || t_until 10 moved_on
			case "$(m_screen)" in *'Enter choice number'*) break ;; esac
			settle 'RETURN' || break
			screen "vttest-$menu-$n"
			was=$(m_screen); m_keys Enter
			n=$((n + 1))
		done
		settle 'Enter choice number'
	done
	m_keys 0 Enter
	m_waitnot main 'Enter choice number'
fi

# ---- vim, less, htop
i=1
while [ $i -le 60 ]; do printf 'line %02d: the quick brown fox jumps over the lazy dog\n' $i; i=$((i + 1)); done >"$WS/text.txt"
m_type 'clear; vim -u NONE -i NONE -N -n text.txt'
settle 'line 23'
screen vim
m_keys 30G
$TM send-keys -t main -l ':set nu'
m_keys Enter
settle ' 30 line 30'
screen vim-numbers
$TM send-keys -t main -l ':q!'
m_keys Enter
m_waitnot main 'line 23'
m_type 'clear; less text.txt'
settle 'line 23'
screen less
m_keys G
settle 'line 60'
screen less-end
m_keys q
m_waitnot main 'line 60'
if command -v htop >/dev/null; then
	# htop's meters and processes change: its function-key bar and
	# column header do not
	m_type 'clear; htop -d 100'
	settle 'F10Quit'
	pane_screen | grep -E 'F1Help|PID USER' | sed 's/  */ /g' >"$M_ROOT/htop"
	if [ -n "$VT_SCREENS_UPDATE" ]; then cp "$M_ROOT/htop" "$EXP/htop"; fi
	cmp -s "$M_ROOT/htop" "$EXP/htop" && ok "htop's header and key bar" || { fail "htop's header and key bar"; diff "$EXP/htop" "$M_ROOT/htop" | sed 's/^/#   /'; }
	m_keys q
	m_waitnot main 'F10Quit'
fi

# ---- colours: 24-bit passed through when the terminal says it has it
# (a session of its own: a second, smaller client on the same session
# would shrink it)
mkdir -p "$M_ROOT/tcws"
(cd "$M_ROOT/tcws" && $TM new -d -s tc -x 80 -y 10 "TERM=xterm-256color COLORTERM=truecolor '$SANDMUX'; sleep 3600")
m_wait tc 'running'
colours="clear; printf '\\033[38;2;10;200;30mRGB\\033[0m \\033[38;5;200mP200\\033[0m \\033[38;5;6mP6\\033[0m\\n'"
$TM send-keys -t tc "$colours" Enter
m_wait tc 'P200 P6'
E=$(printf '\033')
esc=$($TM capture-pane -p -e -t tc)
contains "24-bit colour reaches a truecolor terminal as it is" "$esc" "$E[38;2;10;200;30m"
contains "a palette index stays an index" "$esc" "$E[38;5;200mP200"
contains "a basic palette index stays that index" "$esc" "$E[36mP6"
(cd "$M_ROOT/tcws" && "$SANDMUX" kill-session >/dev/null 2>&1)
$TM kill-session -t tc
m_type "$colours"
m_wait main 'P200 P6'
esc=$($TM capture-pane -p -e -t main)
case "$esc" in *"$E[38;2;10;200;30m"*) fail "without COLORTERM, 24-bit colour is reduced" ;; *"$E[38;5;200mP200"*) ok "without COLORTERM, 24-bit colour is reduced" ;; *) fail "without COLORTERM, 24-bit colour is reduced (not drawn)"; m_screen | sed 's/^/#   /' ;; esac
exit $T_FAILED
