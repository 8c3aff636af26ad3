#!/bin/sh
# Escalation in a shell pane: bash (or zsh) reports its command lines and cwd
# (shell integration, injected with --rcfile); after a denial, once
# re-runs the last command line in the directory it ran in, then the
# shell comes back there under the old policy, so running the command
# again is denied again.
. "$TESTS/e2e/mux.lib"

# tests/e2e/escalate-zsh.sh runs this again with ESC_SHELL=zsh.
ESC_SHELL=${ESC_SHELL:-bash}
command -v "$ESC_SHELL" >/dev/null || { echo "ok - # SKIP $ESC_SHELL not installed"; exit 0; }
SHELL=$(command -v "$ESC_SHELL"); export SHELL
OUT="$M_HOME/outside dir"
mkdir -p "$OUT"
# A user's own PROMPT_COMMAND (ending in ';', as pyenv's does) and history
# must neither break the integration nor be reported as the command line.
if [ "$ESC_SHELL" = bash ]; then
	echo "PROMPT_COMMAND='true;'" >"$HOME/.bashrc"
	echo "stale-history-line" >"$HOME/.bash_history"
fi
m_start
m_keys C-b z
m_type "cd '$OUT'"
m_type 'touch rel.txt && echo TOUCHED-$((6*7))'
m_expect "the write in the shell is denied" "Permission denied"
m_expect "a prompt is pending" "prompt!"
[ -f "$HOME/.sandmux/state/shell/bashrc" ] && [ -f "$HOME/.sandmux/state/shell/zsh/.zshrc" ] && ok "the integration script is under ~/.sandmux/state" || fail "the integration script is under ~/.sandmux/state"
m_keys C-b a
m_expect "prefix a opens it" "o once"
contains "the prompt offers the last command line" "$(m_screen)" 're-run: touch rel.txt && echo TOUCHED-$((6*7))'
contains "in the shell's directory" "$(m_screen)" "in $OUT"
case "$(m_screen)" in *"syntax error"*|*stale-history-line*) fail "the user's PROMPT_COMMAND and history are left alone" ;; *) ok "the user's PROMPT_COMMAND and history are left alone" ;; esac
m_keys o
m_expect "once re-runs the command line" "TOUCHED-42"
[ -f "$OUT/rel.txt" ] && ok "in the right directory (seen from outside)" || fail "in the right directory (seen from outside)"
m_expect "then the shell is back" "the shell is back"
m_type 'touch again.txt || echo AGAIN-$((7*7))'
m_expect "running it again is denied again" "AGAIN-49"
[ ! -e "$OUT/again.txt" ] && ok "and writes nothing" || fail "and writes nothing"
m_type 'echo "cwd=$PWD"'
m_expect "the shell came back in that directory" "cwd=$OUT"

# session: granted for the pane's life, also for the shell that comes back
m_expect "the second denial prompts again" "prompt!"
m_keys C-b a
m_expect "prefix a opens it" "o once"
m_keys s
# (AGAIN-49 is on the screen already: wait for the file itself)
t_until 10 test -f "$OUT/again.txt"
[ -f "$OUT/again.txt" ] && ok "session: the re-run wrote" || fail "session: the re-run wrote"
back_again() { [ "$(m_screen | grep -c 'the shell is back')" -ge 2 ]; }
t_until 10 back_again # the re-run ended and the shell came back: type to it
m_type 'echo x >> again.txt && echo LATER-$((8*8))'
m_expect "session: later commands in the pane may write the granted file" "LATER-64"
[ -s "$OUT/again.txt" ] && ok "the later write happened" || fail "the later write happened"
m_type 'touch later.txt 2>/dev/null || echo NEIGHBOUR-$((9*9))'
m_expect "the grant is exactly that file: a neighbour stays denied" "NEIGHBOUR-81"
