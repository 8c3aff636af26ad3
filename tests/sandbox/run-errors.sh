#!/bin/sh
# `sandmux run` refuses bad input with exit 2 and one line, and runs
# nothing; a command that cannot start says why; statuses pass through.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
echo '{"type": 3}' >"$ws/.t/bad.json"
out=$("$SANDMUX" run --config "$ws/.t/bad.json" -- touch ran 2>&1); rc=$?
same "bad policy: exit 2" "$rc" "2"
contains "bad policy: FILE:LINE:COL: FIELD" "$out" "bad.json:1:10: type:"
refuse "bad policy: nothing ran" test -e ran
out=$("$SANDMUX" run --sandbox no-such-profile -- touch ran 2>&1); rc=$?
same "unknown profile: exit 2" "$rc" "2"
contains "unknown profile: named" "$out" "no-such-profile"
refuse "unknown profile: nothing ran" test -e ran
# Every kind of bad input: exit 2, one line FILE:LINE:COL: FIELD: ..., and
# the command never runs.
bad() { # bad NAME JSON EXPECTED-TEXT
	echo "$2" >"$ws/.t/b.json"
	out=$("$SANDMUX" run --config "$ws/.t/b.json" -- touch ran 2>&1); rc=$?
	same "bad input, $1: exit 2" "$rc" "2"
	contains "bad input, $1: the line" "$out" "$3"
	[ "$(echo "$out" | wc -l)" = 1 ] && ok "bad input, $1: one line" || fail "bad input, $1: one line"
	refuse "bad input, $1: nothing ran" test -e ran
}
bad "malformed JSON" '{"type": "workspace_readwrite",}' "b.json:1:32: "
bad "wrong type" '{"disableTmpWrite": "yes"}' "b.json:1:21: disableTmpWrite: "
bad "bad CIDR" '{"networkPolicy": {"allow": ["10.0.0.0/33"]}}' "b.json:1:30: networkPolicy.allow[0]: "
bad "unsupported glob" '{"profiles": {"x": {"deny": ["**/*.{pem,key}"]}}}' "b.json:1:30: profiles.x.deny[0]: "
bad "unknown profile" '{"profile": "nope"}' "b.json:1:13: profile: "
bad "custom profile with a built-in name" '{"profiles": {"strict": {"extends": "workspace"}}}' "b.json:1:15: profiles.strict: "
bad "relative path" '{"additionalReadwritePaths": ["relative/dir"]}' "b.json:1:31: additionalReadwritePaths[0]: "
echo '{"someNewCursorKey": 1}' >"$ws/.t/b.json"
out=$("$SANDMUX" run --config "$ws/.t/b.json" -- sh -c 'echo RAN' 2>&1); rc=$?
same "unknown key: a warning, and the command runs" "$rc $(echo "$out" | tail -1)" "0 RAN"
contains "unknown key: the warning names it" "$out" "someNewCursorKey"

out=$("$SANDMUX" run -- /no/such/command 2>&1); rc=$?
same "missing command: exit 127" "$rc" "127"
contains "missing command: says so" "$out" "/no/such/command"
out=$("$SANDMUX" run -- sh -c 'exit 42' 2>&1); rc=$?
same "exit status passes through" "$rc" "42"
"$SANDMUX" run -- sh -c 'kill -KILL $$' >/dev/null 2>&1; rc=$?
same "death by signal N: 128+N" "$rc" "137"
out=$("$SANDMUX" run 2>&1); rc=$?
same "no command: usage, exit 2" "$rc" "2"
check "off: runs unsandboxed" "$SANDMUX" run --sandbox off -- sh -c 'test "$SANDMUX_SANDBOX" = off'
exit $T_FAILED
