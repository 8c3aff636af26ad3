#!/bin/sh
# The agents' shadows in the weaker sandbox (no user namespaces): nothing
# can be mounted over the real paths, so claude, codex and gemini are
# pointed at their shadows with their own variables (CLAUDE_CONFIG_DIR,
# CODEX_HOME, GEMINI_CLI_HOME); each reaches its ready line and the real
# files stay as they were (checked outside).
. "$TESTS/sandbox/nons.inc"
H=$(t_tmpdir) # not in the workspace, which is writable
mkdir -p "$H/.codex" "$ws/.t/bin"
cp "$TESTS"/agents/* "$ws/.t/bin/"
printf 'model = "x"\n' >"$H/.codex/config.toml"
printf '{"real":true}\n' >"$H/.claude.json"
before=$(cat "$H/.codex/config.toml" "$H/.claude.json")
arun() { (cd "$ws" && HOME="$H" PATH="$ws/.t/bin:$PATH" weak "$SANDMUX" run --config "$ws/.t/policy.json" "$@" 2>/dev/null); }
same "claude reaches its ready line" "$(arun -- claude hi)" "claude ready: hi"
same "codex reaches its ready line" "$(arun -- codex)" "codex ready: "
same "gemini reaches its ready line" "$(arun -- gemini)" "gemini ready: "
same "the real files are unchanged (outside)" "$(cat "$H/.codex/config.toml" "$H/.claude.json")" "$before"
refuse "no real ~/.gemini/projects.json (outside)" test -e "$H/.gemini/projects.json"
state=$(ls -d "$H"/.sandmux/state/agents/*-*/ 2>/dev/null | head -1)
check "codex wrote its shadow" test -f "${state}codex/.codex/app-server-daemon/daemon.pid"
check "gemini wrote its shadow" test -f "${state}gemini/.gemini/projects.json"
check "claude wrote its shadow" grep -q numStartups "${state}claude/.claude/.claude.json"
refuse "the real ~/.codex stays read-only" arun -- sh -c 'echo evil >> "$HOME/.codex/config.toml"'
exit $T_FAILED
