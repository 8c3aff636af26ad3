#!/bin/sh
# Agent CLIs under the default profile, with a HOME of their own: stand-ins
# for claude, codex and gemini (tests/agents/) that touch their state the
# way the real ones do each reach their ready line; the person's real
# files stay byte for byte as they were, the per-workspace shadow under
# ~/.sandmux/state/agents/ holds the changes; a policy file inside a
# shadowed directory stays read-only; telemetry is refused at once and
# API hosts allowed; histories go to the workspace's state; `agents diff`
# shows the changes and `agents apply` (outside only) copies them back.
. "$TESTS/lib.sh"

H=$(mktemp -d "${HOME:-/root}/.sandmux-agents.XXXXXX") || exit 1
T_CLEAN="$T_CLEAN $H"
ws=$(t_tmpdir)
# The stand-ins live under HOME: a sandbox has its own /tmp, where the
# staged tests of the unprivileged run are.
mkdir "$H/bin" && cp "$TESTS"/agents/* "$H/bin/"
export HOME="$H" PATH="$H/bin:$PATH"
unset SANDMUX_SANDBOX CLAUDE_CONFIG_DIR CODEX_HOME
printf '{"real":true}\n' >"$H/.claude.json"
mkdir "$H/.claude" "$H/.codex" "$H/.cursor"
printf '{"hooks":{}}\n' >"$H/.claude/settings.json"
printf 'model = "x"\n' >"$H/.codex/config.toml"
printf '{}\n' >"$H/.cursor/sandbox.json"
real_sums() { (cd "$H" && find .claude .claude.json .codex .cursor .gemini -type f 2>/dev/null | sort | xargs sha256sum); }
before=$(real_sums)
run() { (cd "$ws" && "$SANDMUX" run "$@" 2>&1); }

same "claude reaches its ready line" "$(run -- claude hi)" "claude ready: hi"
same "codex reaches its ready line" "$(run -- codex)" "codex ready: "
same "gemini reaches its ready line (no ~/.gemini before)" "$(run -- gemini)" "gemini ready: "
same "a second claude run keeps its shadowed state" "$(run -- sh -c 'claude again >/dev/null && cat ~/.claude/projects/history.jsonl')" "run hi
run again"
same "the real agent files are unchanged, byte for byte (outside)" "$(real_sums)" "$before"
[ -d "$H/.gemini" ] && [ -z "$(ls -A "$H/.gemini")" ] && ok "the real ~/.gemini was made empty, to mount on (outside)" ||
	fail "the real ~/.gemini was made empty, to mount on (outside)"

state=$(ls -d "$H"/.sandmux/state/agents/*-*/ 2>/dev/null | head -1)
[ -n "$state" ] && ok "the workspace has its agent state dir" || fail "the workspace has its agent state dir"
check "claude's .claude.json went to the shadowed ~/.claude (rename in place)" grep -q numStartups "$state/claude/.claude/.claude.json"
check "codex's daemon state is in its shadow" test -f "$state/codex/.codex/app-server-daemon/daemon.pid"
check "gemini's projects.json is in its shadow" grep -q projects "$state/gemini/.gemini/projects.json"
check "the shadow was seeded from the real files (a login works)" cmp -s "$state/codex/.codex/config.toml" "$H/.codex/config.toml"
check "and ~/.claude.json seeded into the shadowed ~/.claude" test -f "$state/claude/.claude.json"

out=$(run -- sh -c 'echo "{\"hooks\":{\"evil\":1}}" > ~/.claude/settings.json && cat ~/.claude/settings.json')
contains "inside, the agent's config is writable (its shadow)" "$out" "evil"
same "outside, the real settings.json is untouched" "$(cat "$H/.claude/settings.json")" '{"hooks":{}}'
check "the shadow holds the write" grep -q evil "$state/claude/.claude/settings.json"
refuse "~/.cursor/sandbox.json stays read-only inside its shadow" run -- sh -c 'echo "{\"type\":\"insecure_none\"}" > ~/.cursor/sandbox.json'
same "and is unchanged outside" "$(cat "$H/.cursor/sandbox.json")" "{}"
refuse "the shadow of another workspace cannot be reached for writing" run -- sh -c "mkdir -p '$H/.sandmux/state/agents/other' && echo x > '$H/.sandmux/state/agents/other/f'"

# the network: API hosts allowed, telemetry refused by a deny rule
out=$(cd "$ws" && "$SANDMUX" policy explain api.anthropic.com:443)
contains "claude's API host is allowed" "$out" "allow: connect api.anthropic.com:443"
out=$(cd "$ws" && "$SANDMUX" policy explain statsig.anthropic.com:443)
contains "its telemetry host is denied" "$out" "agent claude: telemetry, refused"
if command -v curl >/dev/null; then
	start=$(date +%s)
	rep=$(cd "$ws" && "$SANDMUX" run --report - -- curl -sS --max-time 20 https://statsig.anthropic.com/ 2>&1 >/dev/null)
	took=$(( $(date +%s) - start ))
	[ "$took" -lt 10 ] && ok "a telemetry connection is refused at once (${took}s)" || fail "a telemetry connection is refused at once (${took}s)"
	contains "the report names the telemetry rule" "$rep" "telemetry, refused"
fi

# histories: the variables name the workspace's state, writable there, no denial
out=$(run -- sh -c 'echo "$HISTFILE|$LESSHISTFILE|$NODE_REPL_HISTORY|$PYTHON_HISTORY"')
same "the history variables name the workspace's history dir" "$out" "${state}history/bash_history|${state}history/less|${state}history/node_repl|${state}history/python"
if command -v bash >/dev/null; then
	rep=$(cd "$ws" && "$SANDMUX" run --report - -- bash -c 'history -s "echo marker-1"; history -w' 2>&1)
	check "bash's history is written under the state dir" grep -q marker-1 "${state}history/bash_history"
	refuse "and not to ~/.bash_history" test -e "$H/.bash_history"
	case "$rep" in *'"op"'*) fail "no denial for the history"; echo "$rep" | sed 's/^/#   /' ;; *) ok "no denial for the history" ;; esac
fi

# agents diff / apply
out=$(cd "$ws" && "$SANDMUX" agents diff)
contains "agents diff lists a new file" "$out" "A $H/.gemini/projects.json"
contains "agents diff lists a changed file" "$out" "M $H/.claude/settings.json"
out=$(cd "$ws" && "$SANDMUX" agents diff -u claude)
contains "agents diff -u shows the change" "$out" '+{"hooks":{"evil":1}}'
refuse "agents apply is refused inside a sandbox" run -- "$SANDMUX" agents apply gemini "$H/.gemini/projects.json"
refuse "and wrote nothing (outside)" test -e "$H/.gemini/projects.json"
check "agents apply copies a chosen file back" sh -c "cd '$ws' && '$SANDMUX' agents apply gemini '$H/.gemini/projects.json'"
check "which the real ~/.gemini now holds (outside)" grep -q projects "$H/.gemini/projects.json"
refuse "a path outside the agent's shadows is refused" sh -c "cd '$ws' && '$SANDMUX' agents apply gemini '$H/.bashrc'"

# A pane may write its shadows, so it may plant symlinks there: the next
# launch must not bind (or seed) through them onto the real files.
real_codex=$(sha256sum "$H/.codex/config.toml")
run -- sh -c "rm -rf '${state}codex/.codex' && ln -s '$H/.codex' '${state}codex/.codex'" >/dev/null
out=$(run -- sh -c 'echo "[mcp_servers.evil]" >> ~/.codex/config.toml; echo WROTE')
case "$out" in *WROTE*) fail "a symlinked shadow is refused"; echo "#   $out" ;; *) ok "a symlinked shadow is refused" ;; esac
contains "saying why" "$out" "holds a symlink"
same "the real config.toml is unchanged (outside)" "$(sha256sum "$H/.codex/config.toml")" "$real_codex"
rm -f "${state}codex/.codex"
run -- sh -c "rm -rf '${state}codex' && ln -s '$H' '${state}codex'" >/dev/null
out=$(run -- sh -c 'echo "[mcp_servers.evil]" >> ~/.codex/config.toml; echo WROTE')
case "$out" in *WROTE*) fail "a symlinked agent dir in the state is refused"; echo "#   $out" ;; *) ok "a symlinked agent dir in the state is refused" ;; esac
same "and the real config.toml is still unchanged (outside)" "$(sha256sum "$H/.codex/config.toml")" "$real_codex"
rm -f "${state}codex"

# turning a preset off is one setting
mkdir -p "$H/.sandmux" && printf '{"agents": {"codex": {"enabled": false}}}\n' >"$H/.sandmux/sandbox.json"
out=$(cd "$ws" && "$SANDMUX" policy show)
contains "policy show says the preset is off and where" "$out" "codex          off (enabled: false)  [$H/.sandmux/sandbox.json:1:13 (per-user)]"
refuse "with it off, codex's state is not writable" run -- codex
exit $T_FAILED
