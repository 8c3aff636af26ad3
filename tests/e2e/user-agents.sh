#!/bin/sh
# Agents in panes, as a person starts them: stand-ins for claude, codex
# and gemini (tests/agents/) typed into a shell pane under the default
# profile, with a fresh HOME, each reach their ready line with no prompt;
# the real agent files stay as they were; a telemetry host is refused at
# once, without a prompt; pager and shell history raise no prompt and land
# in the workspace's state; approving a denial of an agent restarts it
# with its resume command, which the prompt names, and the once grant
# holds for that resumed run.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT" "$M_HOME/bin" "$HOME/.codex"
cp "$TESTS"/agents/* "$M_HOME/bin/"
export PATH="$M_HOME/bin:$PATH"
printf '{"real":true}\n' >"$HOME/.claude.json"
printf 'model = "x"\n' >"$HOME/.codex/config.toml"
sums() { (cd "$HOME" && find .claude.json .claude .codex .gemini -type f 2>/dev/null | sort | xargs sha256sum); }
before=$(sums)
m_start
title() { m_screen | grep ' · ' | head -1; }

m_type 'claude hi'
m_expect "claude reaches its ready line in a shell pane" "claude ready: hi"
m_type 'codex'
m_expect "codex reaches its ready line" "codex ready:"
m_type 'gemini'
m_expect "gemini reaches its ready line" "gemini ready:"
m_type 'echo AFTER-$((5*5))'
m_expect "the shell goes on" "AFTER-25"
case "$(title)" in *prompt!* | *"denials "[1-9]*) fail "no denial, no prompt for the agents"; title | sed 's/^/#   /' ;; *) ok "no denial, no prompt for the agents" ;; esac
same "the real agent files are unchanged (outside)" "$(sums)" "$before"
state=$(ls -d "$HOME"/.sandmux/state/agents/*-*/ 2>/dev/null | head -1)
check "the shadow holds claude's state" grep -q numStartups "$state/claude/.claude/.claude.json"

if command -v curl >/dev/null; then
	m_type 'curl -sS --max-time 25 https://statsig.anthropic.com/ >/dev/null 2>&1 || echo TELEMETRY-REFUSED-$((2*3))'
	if m_wait main "TELEMETRY-REFUSED-6" 8; then ok "a telemetry host is refused at once (not held)"; else fail "a telemetry host is refused at once (not held)"; fi
	m_wait main "denials 1" 3
	contains "the refusal is counted" "$(title)" "denials 1"
	case "$(title)" in *prompt!*) fail "and raises no prompt" ;; *) ok "and raises no prompt" ;; esac
fi

# Pager and shell history: written under the workspace's state, no prompt.
if command -v less >/dev/null && command -v bash >/dev/null; then
	m_type 'seq 100 | less'
	m_wait main ":" 3
	m_keys / 5 0 Enter
	m_keys q
	m_type 'echo LESS-DONE-$((6*6))'
	m_expect "less ran and quit" "LESS-DONE-36"
	check "less's history is in the state dir" test -s "${state}history/less"
	m_type 'bash -i'
	m_type 'echo hist-marker-$((7*6))'
	m_expect "bash runs" "hist-marker-42"
	m_type 'exit'
	m_type 'echo BASH-DONE'
	m_expect "bash exited" "BASH-DONE"
	check "bash's history is in the state dir" grep -q hist-marker "${state}history/bash_history"
	refuse "and not in ~/.bash_history" test -e "$HOME/.bash_history"
	refuse "nor ~/.lesshst" test -e "$HOME/.lesshst"
	case "$(title)" in *prompt!*) fail "history raises no prompt"; title | sed 's/^/#   /' ;; *) ok "history raises no prompt" ;; esac
fi

# An agent's tool call is denied; approving restarts the agent resumed.
cat >"$HOME/.fake-agent-then" <<EOF2
case "\$*" in
--continue*) echo data >"$OUT/f" && echo RESUMED-WROTE-\$((11*11)) || echo RESUMED-DENIED; sleep 60 ;;
*) echo data >"$OUT/f" 2>/dev/null || echo AGENT-DENIED-\$((3*4)); echo x >"$OUT/g" 2>/dev/null || echo AGENT-DENIED-AGAIN; sleep 60 ;;
esac
EOF2
m_sandmux new --agent claude -n agent -- claude >/dev/null
m_keys C-b z
m_expect "the agent's tool call is denied" "AGENT-DENIED-12"
m_expect "and its second one" "AGENT-DENIED-AGAIN"
m_wait main "prompt!" 5
m_keys C-b a
m_expect "the prompt offers exactly the new file" "additionalReadwritePaths += $OUT/f"
contains "and says another waits" "$(m_screen)" "(+1 more)"
contains "it names the process that asked (the agent's tool call)" "$(m_screen | tr -d '\n │')" "bysh$HOME/.fake-agent-then(pid"
m_keys n
m_expect "n shows the pane's next prompt" "additionalReadwritePaths += $OUT/g"
m_keys n
m_expect "n again: back to the first" "additionalReadwritePaths += $OUT/f"
contains "the prompt says the agent restarts resumed" "$(m_screen)" "restarts claude with --continue"
contains "and shows what runs" "$(m_screen)" "re-run: claude --continue"
m_keys o
m_expect "once: claude restarts with --continue" "claude ready: --continue"
m_expect "the once grant holds for the resumed run" "RESUMED-WROTE-121"
check "the file was written (outside)" grep -qx data "$OUT/f"
m_waitnot main "prompt!" 3 && ok "the old run's other prompt is dropped when the agent restarts" ||
	fail "the old run's other prompt is dropped when the agent restarts"

out=$(m_sandmux new --json -n j -- true)
case "$out" in '{"pane":'[0-9]*'}') ok "new --json prints the pane's id" ;; *) fail "new --json prints the pane's id"; echo "#   $out" ;; esac
exit $T_FAILED
