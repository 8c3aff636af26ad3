#!/bin/sh
# Copy mode (scroll, search, select, copy, paste), the config file and its
# errors, a session keeping its profile, and a client that sends garbage.
. "$TESTS/e2e/mux.lib"

mkdir -p "$HOME/.sandmux"
printf '{"prefix": "C-a", "scrollback": 500, "clipboard": true, "bind": {"|": "split-h"}}\n' >"$HOME/.sandmux/sandmux.json"
m_start 100 30
m_type 'i=1; while [ $i -le 100 ]; do echo "row-$i"; i=$((i+1)); done; echo copy-me-please'
m_wait main 'row-100'
m_keys C-a '|'
m_expect "the prefix and a key binding come from the config" ' 2: '
m_keys C-a Left

$TM send-keys -t main -l "$(printf '\033[<64;5;5M')"
m_expect "the mouse wheel scrolls back in copy mode" "[copy mode]"
m_keys q
m_waitnot main "[copy mode]"
m_keys C-a [
m_expect "copy mode shows in the title" "[copy mode]"
m_keys PageUp PageUp PageUp
m_expect "copy mode scrolls back into the history" "row-20"
m_keys /
$TM send-keys -t main -l 'row-42'
m_keys Enter
m_keys Space
$TM send-keys -t main -l '$'
m_keys Enter
m_waitnot main "[copy mode]"
m_keys C-a ]
m_expect "the copied text pastes back" '$ row-42'
m_keys C-u

# OSC 52 with "clipboard": true fills the sandmux buffer (never the person's)
m_type "printf '\\033]52;c;%s\\007' \$(printf osc-clip-ok | base64); clear"
m_waitnot main 'base64'
m_keys C-a ]
m_expect "OSC 52 writes reach the sandmux buffer when the config allows" '$ osc-clip-ok'
m_keys C-u

# a paste from the outer terminal is text: a C-a in it is no prefix
$TM set-buffer "$(printf 'echo pasted-\001|cat')"
$TM paste-buffer -p -t main
m_keys Enter
m_expect "a bracketed paste reaches the pane as text" 'pasted-'
case "$(m_screen)" in *' 3: '*) fail "a pasted prefix key runs no command" ;; *) ok "a pasted prefix key runs no command" ;; esac

m_keys C-a d
m_wait main 'detached'

# a different profile for a running session is refused
out=$(cd "$WS" && script -qec "'$SANDMUX' --sandbox strict" /dev/null 2>&1)
contains "a session keeps its profile for life" "$out" 'runs with profile "workspace"'
case "$out" in *"NOT sandboxed"*) fail "a refused attach does not say the session ended" ;; *) ok "a refused attach does not say the session ended" ;; esac

# a client that sends garbage is dropped; the session lives on
sock="$XDG_RUNTIME_DIR/sandmux/ws"
python3 - "$sock" <<'PY'
import socket, sys, struct
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(struct.pack("II", 999, 4) + b"evil")
try:
    s.recv(100)
except Exception:
    pass
s.close()
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(struct.pack("II", 1, 3000000))
s.close()
PY
grep -q 'malformed message' "$HOME/.sandmux/state/server.log" && ok "a malformed message is logged" || fail "a malformed message is logged"
out=$(m_sandmux ls)
contains "the session survives a bad client" "$out" "ws: 1 windows, 2 panes"
m_sandmux kill-session >/dev/null

# a bad config: FILE:LINE:COL: FIELD: what is wrong, and the defaults
printf '{\n  "prefix": 5\n}\n' >"$HOME/.sandmux/sandmux.json"
$TM rename-session -t main old # (killing the last session races tmux's own exit)
m_start 100 30
m_expect "a config error names file, line, column and field" "sandmux.json:2:13: prefix: want a key name"
m_keys C-b %
m_expect "the defaults apply after a config error" ' 2: '
m_type "printf '\\033]52;c;%s\\007' \$(printf osc-clip-no | base64); clear"
m_waitnot main 'base64'
m_keys C-b ]
m_type 'echo end-$((2+3))'
m_wait main 'end-5'
case "$(m_screen)" in *osc-clip-no*) fail "OSC 52 is ignored by default" ;; *) ok "OSC 52 is ignored by default" ;; esac
exit $T_FAILED
