#!/bin/sh
# Layout as a person drives it: the outer window resizing reflows the
# panes, zoom, keyboard resize, tiled, the mouse (click to focus, drag a
# border), windows, help, and a flooding pane not starving the others.
. "$TESTS/e2e/mux.lib"

# size_of TEXT: the `stty size` answer printed after marker TEXT.
size_of() { m_screen | grep -o "$1 [0-9]* [0-9]*" | tail -1 | cut -d' ' -f2-; }

m_start 120 40
m_keys C-b %
m_wait main ' 2: '
m_type 'echo A $(stty size)'
m_wait main 'A 38'
same "a split pane gets its share of the window" "$(size_of A)" "38 59"

# ask_size MARK ROWS: prints the pane's size until it has ROWS rows (a
# resize reaches the pane a moment after the outer window changes).
ask_size() {
	_t=0
	while [ $_t -lt 20 ]; do
		m_type "clear; echo $1 \$(stty size)"
		m_wait main "$1 $2" 1 && return 0
		_t=$((_t + 1))
	done
}
$TM resize-window -t main -x 80 -y 24
ask_size B 22
same "resizing the outer window reflows the panes" "$(size_of B)" "22 39"
$TM resize-window -t main -x 120 -y 40
ask_size R 38
r=$(size_of R); w=${r#38 }
[ "${r%% *}" = 38 ] && [ "$w" -ge 58 ] && [ "$w" -le 61 ] && ok "and back, in proportion" || fail "and back, in proportion ($r)"

# a smaller second client: the smallest wins, the larger one shows dots
$TM new -d -s small -x 80 -y 24 "cd '$WS' && '$SANDMUX' attach; sleep 3600"
m_wait small ' 2: '
ask_size S 22
same "the smallest attached client sets the size" "$(size_of S)" "22 39"
m_screen | sed -n 5p | grep -q '\.\.\.\.' && ok "the larger client marks the area outside the session" || { fail "the larger client marks the area outside the session"; m_screen | sed -n 5p; }
$TM send-keys -t small C-b d
m_wait small 'detached' || { echo "# small:"; $TM capture-pane -p -t small | head -5; }
ask_size R2 38
same "when it leaves, the size comes back" "$(size_of R2)" "38 $w"
$TM kill-session -t small

m_keys C-b z
ask_size C "38 120"
same "zoom gives the pane the whole window" "$(size_of C)" "38 120"
m_keys C-b z
m_type 'echo D $(stty size)'
m_wait main 'D 38'
same "unzoom gives the room back" "$(size_of D)" "38 $w"

m_keys C-b C-Left C-b C-Left C-b C-Left
m_type 'echo E $(stty size)'
m_wait main 'E 38'
same "prefix C-Left moves the border" "$(size_of E)" "38 $((w + 3))"
m_keys C-b C-Right
m_type 'echo E2 $(stty size)'
m_wait main 'E2 38'
same "prefix C-Right moves it back" "$(size_of E2)" "38 $((w + 2))"

# mouse: a press on the border column, a drag, a release (SGR reports)
border=$(m_screen | sed -n 2p | awk -F'│' '{print length($1)}')
$TM send-keys -t main -l "$(printf '\033[<0;%d;10M\033[<32;%d;10M\033[<0;%d;10m' $((border + 1)) 91 91)"
m_type 'echo F $(stty size)'
m_wait main 'F 38'
same "dragging the border with the mouse resizes" "$(size_of F)" "38 $((120 - 91))"
$TM send-keys -t main -l "$(printf '\033[<0;5;10M\033[<0;5;10m')"
m_type 'echo G-left'
m_wait main 'G-left'
m_screen | awk -F'│' '/G-left/ {print $1}' | grep -q G-left && ok "a click focuses the pane under it" || fail "a click focuses the pane under it"

# a program that asks for mouse reports gets them, in its own coordinates
m_type "printf '\\033[?1000h\\033[?1006h'; stty -echo -icanon; echo mouse-\$((2+2)); cat -v"
m_wait main 'mouse-4' # it asked, and reads
$TM send-keys -t main -l "$(printf '\033[<0;8;6M\033[<0;8;6m')"
m_expect "a program that asked for the mouse gets the click" '^[[<0;8;5M'
m_keys C-c
m_type "printf '\\033[?1000l\\033[?1006l'; stty echo icanon; clear"

m_keys C-b '"'
m_wait main ' 3: '
m_keys C-b '"'
m_wait main ' 4: '
m_keys C-b M-5
m_type 'echo H $(stty size)'
m_wait main 'H 19'
same "tiled gives four panes equal room" "$(size_of H)" "18 59"

m_keys C-b c
m_wait main '1:sh*'
m_screen | tail -1 | grep -q '0:sh 1:sh\*' && ok "a new window shows in the status bar" || { fail "a new window shows in the status bar"; m_screen | tail -1; }
m_keys C-b p
m_wait main '0:sh*' && ok "prefix p goes back" || fail "prefix p goes back"
m_keys C-b n
m_wait main '1:sh*' && ok "prefix n goes forward" || fail "prefix n goes forward"

# rename the window (prefix ,) and run commands by name (prefix :)
m_keys C-b ,
m_wait main 'rename window: '
$TM send-keys -t main -l 'agents'
$TM send-keys -t main Enter
m_wait main '1:agents*' && ok "prefix , renames the window" || { fail "prefix , renames the window"; m_screen | tail -1; }
m_keys C-b :
m_wait main ' :'
$TM send-keys -t main -l 'rename-window build 2'
$TM send-keys -t main Enter
m_wait main '1:build 2*' && ok "prefix : rename-window NAME" || { fail "prefix : rename-window NAME"; m_screen | tail -1; }
m_keys C-b :
$TM send-keys -t main -l 'no-such-thing'
$TM send-keys -t main Enter
m_expect "prefix : names an unknown command" "unknown command: no-such-thing"
m_keys C-b :
$TM send-keys -t main -l 'split-h'
$TM send-keys -t main Enter
m_wait main ' 6: ' && ok "prefix : split-h splits the pane" || { fail "prefix : split-h splits the pane"; m_screen | head -3; }
m_keys C-b x; m_wait main "(y/n)"; m_keys y
m_waitnot main ' 6: '
m_keys C-b ,
$TM send-keys -t main Enter
m_wait main '1:sh*' && ok "an empty name names the window after its pane again" || fail "an empty name names the window after its pane again"

m_keys C-b ?
m_expect "prefix ? lists the bindings" "split the pane side by side"
m_keys q
m_waitnot main "split the pane side by side"

# flood: one pane prints without end, typing in the other still works
m_keys C-b %
m_wait main ' 6: '
m_type 'yes flood-flood-flood'
m_keys C-b Left
start=$(date +%s%N)
m_type 'echo still-$((40+2))'
if m_wait main 'still-42' 5; then
	ok "a flooding pane does not stop typing in another"
	echo "# echo under flood: $(( ($(date +%s%N) - start) / 1000000 )) ms"
else fail "a flooding pane does not stop typing in another"; fi
m_keys C-b Right
m_keys C-c
m_type 'echo stopped-$((1+1))'
m_expect "the flooding pane takes Ctrl-C" "stopped-2"

# ESC [ with nothing after it is typed as it stands once a moment passes
# (like tmux's escape-time), not held until the next key comes.
m_type 'clear; stty raw -echo; echo raw-$((3+3)); head -c 2 | od -An -c; stty sane'
m_wait main 'raw-6' # the terminal is raw: the pause below is sandmux's to wait out
$TM send-keys -t main -l "$(printf '\033[')"
m_expect "an unfinished escape sequence reaches the pane after a pause" '033   ['
exit $T_FAILED
