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
