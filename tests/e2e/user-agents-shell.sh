#!/bin/sh
# An agent typed into a bash pane: a denial of its tool call, approved
# once, re-runs the command line with the agent's resume arguments
# (`claude --continue`), as the prompt says; bash's own history goes to
# the workspace's state (the shell integration sets HISTFILE after the
# person's rc files), never ~/.bash_history.
. "$TESTS/e2e/mux.lib"

command -v bash >/dev/null || { echo "ok - # SKIP bash not installed"; exit 0; }
SHELL=$(command -v bash); export SHELL
OUT="$M_HOME/outside"
mkdir -p "$OUT" "$M_HOME/bin"
cp "$TESTS"/agents/* "$M_HOME/bin/"
export PATH="$M_HOME/bin:$PATH"
echo 'HISTFILE=~/.bash_history' >"$HOME/.bashrc" # the person's own choice, overridden in panes
cat >"$HOME/.fake-agent-then" <<EOF2
case "\$*" in
--continue*) echo data >"$OUT/f" && echo RESUMED-WROTE-\$((11*11)) || echo RESUMED-DENIED ;;
*) echo data >"$OUT/f" 2>/dev/null || echo AGENT-DENIED-\$((3*4)); sleep 60 ;;
esac
EOF2
m_start
m_keys C-b z
m_type 'claude'
m_expect "the agent starts in the bash pane" "claude ready:"
m_expect "its tool call is denied" "AGENT-DENIED-12"
m_wait main "prompt!" 5
m_keys C-b a
m_expect "the prompt opens" "o once"
contains "it re-runs the agent resumed" "$(m_screen)" "re-run: claude --continue"
contains "and says so" "$(m_screen)" "restarts claude with --continue"
m_keys o
m_expect "once: claude --continue runs, with the grant" "RESUMED-WROTE-121"
m_expect "then the shell is back" "the shell is back"
check "the file was written (outside)" grep -qx data "$OUT/f"
m_type 'history -a; echo HIST-$((4*4))'
m_expect "bash saves its history" "HIST-16"
state=$(ls -d "$HOME"/.sandmux/state/agents/*-*/ 2>/dev/null | head -1)
check "bash's history is in the workspace's state" grep -q 'echo HIST-' "${state}history/bash_history"
refuse "not in ~/.bash_history (outside)" test -e "$HOME/.bash_history"
case "$(m_screen | grep ' · ' | head -1)" in *prompt!*) fail "and raises no prompt" ;; *) ok "and raises no prompt" ;; esac
exit $T_FAILED
