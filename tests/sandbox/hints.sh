#!/bin/sh
# Denial hints under `sandmux run`: the denied process's own stderr gets
# one line when it is a pipe, never when it is a file, and none with
# "denialHints": false (top level or in a profile). The writes stay
# denied (checked from outside).
. "$TESTS/sandbox/common.inc"
probe="$HOME/.sandmux-t-hint-$$"
trap 't_cleanup; rm -rf "$probe"' EXIT

out=$(sbx -- sh -c "touch '$probe' 2>&1 | cat" 2>/dev/null)
contains "a pipe gets the hint" "$out" "sandmux: denied create ~/.sandmux-t-hint-$$ ("
contains "it says how to ask" "$out" "; ask: sandmux request --write ~/.sandmux-t-hint-$$ -- touch $probe"
same "one hint line" "$(echo "$out" | grep -c '^sandmux: denied')" 1
refuse "the write stays denied" test -e "$probe"

sbx -- sh -c "touch '$probe' 2>'$ws/err.txt'" 2>/dev/null
contains "a file gets the program's own error" "$(cat "$ws/err.txt")" "touch"
refuse "a file gets no hint" grep -q "sandmux:" "$ws/err.txt"

echo '{"denialHints": false}' >"$ws/.t/off.json"
out=$(sbx --config "$ws/.t/off.json" -- sh -c "touch '$probe' 2>&1 | cat" 2>/dev/null)
contains "denialHints false: the error still shows" "$out" "touch"
refuse "denialHints false: no hint" sh -c "echo '$out' | grep -q 'sandmux: denied'"

echo '{"profile": "quiet", "profiles": {"quiet": {"extends": "workspace", "denialHints": false}}}' >"$ws/.t/p.json"
out=$(sbx --config "$ws/.t/p.json" -- sh -c "touch '$probe' 2>&1 | cat" 2>/dev/null)
refuse "denialHints false in a profile: no hint" sh -c "echo '$out' | grep -q 'sandmux: denied'"

echo "{\"quiet\": [\"$probe\"]}" >"$ws/.t/quiet.json"
out=$(sbx --config "$ws/.t/quiet.json" -- sh -c "touch '$probe' 2>&1 | cat" 2>/dev/null)
contains "a quiet denial: the error still shows" "$out" "touch"
refuse "a quiet denial gets no hint (it may be a full-screen program's)" sh -c "echo '$out' | grep -q 'sandmux: denied'"

echo '{"denialHints": "yes"}' >"$ws/.t/bad.json"
out=$(sbx --config "$ws/.t/bad.json" -- true 2>&1)
contains "a bad value is one line naming the field" "$out" "denialHints"
refuse "the home probe was never written" test -e "$probe"
