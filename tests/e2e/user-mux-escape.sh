#!/bin/sh
# A program inside a pane that reaches the session socket (here through a
# hard link into the workspace, since the socket directory itself is
# masked) cannot drive the session: the sandbox's connect() filter or,
# failing that, the server's refusal of sandboxed peers stops it.
. "$TESTS/e2e/mux.lib"
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }

m_start 100 30
ln "$XDG_RUNTIME_DIR/sandmux/ws" "$WS/sock" || { fail "hard link to the socket"; exit 1; }
cat >"$WS/evil.py" <<'PY'
import socket, struct
msg = b"\0".join([b"/", b"new", b"--sandbox", b"off", b"--", b"sh", b"-c", b"echo ESCAPED >/dev/null"]) + b"\0"
try:
    s = socket.socket(socket.AF_UNIX)
    s.connect("sock")
    s.sendall(struct.pack("II", 4, len(msg)) + msg)
    print("answer:", s.recv(4096))
except Exception as e:
    print("error:", e)
print("evil-done")
PY
m_type 'python3 evil.py'
m_expect "the sandboxed program ran" "evil-done"
# Two layers may stop it: the sandbox's connect() filter (the observer),
# or, when the connection gets through, the server's peer check.
if grep -q 'refused a connection from pid .*sandbox' "$HOME/.sandmux/state/server.log"; then
	ok "the server refuses a sandboxed peer"
elif m_screen | grep -q 'error: .*Permission denied'; then
	ok "the sandbox refuses the connection (# the server's check was not reached)"
else
	fail "the session socket is refused to a sandboxed program"; m_screen | sed 's/^/#   | /'; sed 's/^/#   /' "$HOME/.sandmux/state/server.log"
fi
out=$(m_sandmux ls)
contains "no pane was added" "$out" "1 panes"
rm -f "$WS/sock"
exit $T_FAILED
