#!/bin/sh
# sandmux policy show/explain/check and sandmux trust, and every bad-input
# case: exit 2, exactly one line FILE:LINE:COL: FIELD: what, nothing run.
. "$TESTS/lib.sh"

HOME=$(t_tmpdir); export HOME
unset SANDMUX_SANDBOX
ws=$(t_tmpdir); ws=$(cd "$ws" && pwd -P)
mkdir -p "$HOME/.sandmux" "$ws/.git/hooks" "$ws/.sandmux"
cd "$ws" || exit 1
U=$HOME/.sandmux/sandbox.json
cat >"$U" <<'J'
{
  "networkPolicy": {"allow": ["*.github.com"], "deny": ["evil.github.com"]},
  "profiles": {"agent": {"extends": "workspace", "deny": ["**/*.pem", ".env"]}}
}
J

# --- show ---
out=$("$SANDMUX" policy show 2>&1); rc=$?
same "show exits 0" "$rc" 0
contains "show names the profile" "$out" "profile: workspace"
contains "show names the workspace" "$out" "workspace: $ws"
contains "show gives each allow rule its file and position" "$out" "networkPolicy.allow: *.github.com  [$U:2:31 (per-user)]"
contains "show lists protected paths" "$out" "$ws/.git/hooks/**"
contains "show lists the files read" "$out" "$U (per-user)"
out=$("$SANDMUX" policy show --sandbox strict 2>&1)
contains "show --sandbox strict" "$out" "profile: strict"
contains "strict has no network" "$out" "network: none"
out=$("$SANDMUX" policy explain --sandbox strict api.github.com 2>&1)
contains "strict: no network" "$out" "rule: profile: no network (read-only, strict or restrict_network)"
out=$("$SANDMUX" policy show --json 2>&1)
contains "show --json has the profile" "$out" '"profile":	"workspace"'
contains "show --json has origins" "$out" "\"file\":	\"$U\""
if command -v python3 >/dev/null; then
	check "show --json is valid JSON" sh -c "'$SANDMUX' policy show --json | python3 -m json.tool"
fi
out=$(SANDMUX_SANDBOX=read-only "$SANDMUX" policy show 2>&1)
contains "SANDMUX_SANDBOX chooses the profile" "$out" "profile: read-only"
out=$(SANDMUX_SANDBOX=read-only "$SANDMUX" policy show --sandbox devbox 2>&1)
contains "--sandbox beats SANDMUX_SANDBOX" "$out" "profile: devbox"
cfg=$(t_tmpdir)/other.json
echo '{"profile": "strict"}' >"$cfg"
out=$("$SANDMUX" policy show --config "$cfg" 2>&1)
contains "--config replaces the per-user file" "$out" "profile: strict"

# --- explain ---
out=$("$SANDMUX" policy explain --op write .git/hooks/pre-commit 2>&1); rc=$?
same "explain a denied write exits 1" "$rc" 1
contains "explain names the protected path" "$out" "deny: write $ws/.git/hooks/pre-commit"
contains "explain gives the rule" "$out" "rule: hardcoded: protected path: .git/hooks/**"
out=$("$SANDMUX" policy explain --op write src/main.c 2>&1); rc=$?
same "explain an allowed write exits 0" "$rc" 0
contains "workspace is writable" "$out" "allow: write $ws/src/main.c"
out=$("$SANDMUX" policy explain --sandbox agent --op read keys/server.pem 2>&1)
contains "deny glob decides a read" "$out" "rule: deny: **/*.pem"
contains "deny glob names its file" "$out" "from: $U:3:59 (per-user)"
out=$("$SANDMUX" policy explain --op write ~/.sandmux/sandbox.json 2>&1)
contains "sandmux's own files are read-only" "$out" "rule: hardcoded: sandmux's own files"
out=$("$SANDMUX" policy explain api.github.com:443 2>&1); rc=$?
same "explain an allowed host exits 0" "$rc" 0
contains "host allowed by wildcard" "$out" "rule: networkPolicy.allow: *.github.com"
out=$("$SANDMUX" policy explain https://api.github.com/repos/x 2>&1)
contains "explain a URL: the host decides" "$out" "allow: connect https://api.github.com/repos/x"
out=$("$SANDMUX" policy explain evil.github.com 2>&1)
contains "deny beats allow" "$out" "rule: networkPolicy.deny: evil.github.com"
out=$("$SANDMUX" policy explain example.com 2>&1)
contains "not in allow list" "$out" "rule: networkPolicy: not in allow list"
out=$("$SANDMUX" policy explain --op connect 169.254.169.254:80 2>&1)
contains "metadata address blocked" "$out" "hardcoded: link-local and cloud metadata"
out=$("$SANDMUX" policy explain '[::ffff:10.0.0.1]:443' 2>&1)
contains "mapped v6 private blocked" "$out" "hardcoded: private address 10.0.0.0/8"
refuse "explain with a bad --op" "$SANDMUX" policy explain --op fly /x

# --- check ---
out=$("$SANDMUX" policy check "$U" 2>&1); rc=$?
same "check a good file exits 0" "$rc" 0

# bad_case NAME JSON WANT: check and show (as the per-user file) exit 2 with exactly WANT.
bad_case() {
	f=$(t_tmpdir)/sandbox.json
	printf '%s\n' "$2" >"$f"
	err=$("$SANDMUX" policy check "$f" 2>&1 >/dev/null); rc=$?
	same "$1: check exits 2" "$rc" 2
	same "$1: check message" "$err" "$f:$3"
	cp "$f" "$U"
	err=$("$SANDMUX" policy show 2>&1 >/dev/null); rc=$?
	same "$1: show exits 2" "$rc" 2
	same "$1: show message" "$err" "$U:$3"
}
bad_case "malformed JSON" '{"type": "workspace_readonly",}' \
	'1:31: (top level): expected a key in double quotes'
bad_case "wrong type" '{"disableTmpWrite": "yes"}' \
	'1:21: disableTmpWrite: expected a boolean, got a string'
bad_case "bad CIDR" '{"networkPolicy": {"allow": ["a.com", "10.0.0.0/33"]}}' \
	'1:39: networkPolicy.allow[1]: "10.0.0.0/33" is not a valid CIDR'
bad_case "bad glob" '{"profiles": {"p": {"deny": ["src/{a,b}/*.pem"]}}}' \
	'1:30: profiles.p.deny[0]: "src/{a,b}/*.pem" is not a supported glob: brace alternation is not supported'
bad_case "custom profile with a built-in name" '{"profiles": {"devbox": {"extends": "strict"}}}' \
	'1:15: profiles.devbox: "devbox" is a built-in profile; a custom profile needs another name'
bad_case "relative path where absolute needed" '{"additionalReadwritePaths": ["build"]}' \
	'1:31: additionalReadwritePaths[0]: "build" is a relative path; use an absolute path or ~/'

# unknown profile: in the config (with its position) and on the command line
echo '{"profile": "nope"}' >"$U"
err=$("$SANDMUX" policy show 2>&1 >/dev/null); rc=$?
same "unknown profile in config exits 2" "$rc" 2
same "unknown profile in config message" "$err" \
	"$U:1:13: profile: unknown profile \"nope\" (built-in: workspace, read-only, strict, devbox, off)"
echo '{}' >"$U"
err=$("$SANDMUX" policy show --sandbox nope 2>&1 >/dev/null); rc=$?
same "unknown --sandbox exits 2" "$rc" 2
same "unknown --sandbox message" "$err" \
	'--sandbox: unknown profile "nope" (built-in: workspace, read-only, strict, devbox, off)'

# unknown keys warn and do not fail
echo '{"someNewCursorKey": 1}' >"$U"
err=$("$SANDMUX" policy show 2>&1 >/dev/null); rc=$?
same "unknown key exits 0" "$rc" 0
same "unknown key warns" "$err" "sandmux: warning: $U:1:2: someNewCursorKey: unknown key, ignored"

# nothing runs on bad input
echo '{"networkPolicy": {"allow": ["10.0.0.0/33"]}}' >"$U"
"$SANDMUX" run -- touch "$ws/ran" >/dev/null 2>&1; rc=$?
same "run with a bad policy exits 2" "$rc" 2
refuse "run with a bad policy runs nothing" test -e "$ws/ran"

# --- trust ---
echo '{"networkPolicy": {"allow": ["a.com"]}}' >"$U"
R=$ws/.sandmux/sandbox.json
echo '{"additionalReadwritePaths": ["/opt"], "networkPolicy": {"allow": ["x.org"], "deny": ["y.org"]}}' >"$R"
err=$("$SANDMUX" policy show 2>&1 >/dev/null)
same "untrusted widening: one warning" "$err" \
	"sandmux: warning: $R is not trusted; ignored what it widens: additionalReadwritePaths, networkPolicy.allow (run \`sandmux trust\` to apply it)"
out=$("$SANDMUX" policy explain y.org 2>/dev/null)
contains "untrusted narrowing applies" "$out" "rule: networkPolicy.deny: y.org"
out=$("$SANDMUX" policy explain x.org 2>/dev/null)
contains "untrusted widening ignored" "$out" "deny: connect x.org"
out=$("$SANDMUX" trust 2>&1); rc=$?
same "trust exits 0" "$rc" 0
same "trust says what it now widens" "$out" "sandmux: trusted $R; it now widens: additionalReadwritePaths, networkPolicy.allow"
# trust_tag FILE: the tag trust.json records for FILE (empty: none)
trust_tag() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trusted"].get(sys.argv[2], ""))' "$HOME/.sandmux/trust.json" "$1" 2>/dev/null; }
contains "trust.json names the file" "$(trust_tag "$R")" "sha256:"
err=$("$SANDMUX" policy show 2>&1 >/dev/null)
same "trusted: no warning" "$err" ""
out=$("$SANDMUX" policy explain x.org 2>/dev/null)
contains "trusted widening applies" "$out" "allow: connect x.org"
C=$ws/.cursor/sandbox.json
mkdir -p "$ws/.cursor"; echo '{}' >"$C"
out=$("$SANDMUX" trust "$C" 2>&1)
same "trust FILE" "$out" "sandmux: trusted $C (it widens nothing)"
contains "trust keeps other entries" "$(trust_tag "$R")" "sha256:"
contains "trust records the new one too" "$(trust_tag "$C")" "sha256:"
echo '{"additionalReadwritePaths": ["/opt", "/srv"]}' >"$R"
err=$("$SANDMUX" policy show 2>&1 >/dev/null)
contains "changed content is untrusted again" "$err" "$R is not trusted"
echo '{"type": 3}' >"$R"
err=$("$SANDMUX" trust 2>&1); rc=$?
same "trust refuses a broken file" "$rc" 2
same "trust names the error" "$err" "$R:1:10: type: expected a string, got a number"
