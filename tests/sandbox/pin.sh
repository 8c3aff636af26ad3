#!/bin/sh
# The parents of protected paths cannot be renamed aside: `mv .git .git2 &&
# mkdir .git` would otherwise leave a fresh, writable .git (hooks, config)
# for the person's next git command outside the sandbox. Checked from
# outside: the original .git is where it was, its hooks untouched, and git
# itself still works inside.
. "$TESTS/sandbox/common.inc"
(cd "$ws" && git init -q . && git config user.email t@example.com && git config user.name t) || { fail "git init"; exit 1; }
mkdir -p "$ws/.git/info" && echo "* text" >"$ws/.git/info/attributes"
before=$(cat "$ws/.git/config")
refuse "mv .git aside fails" sbx -- mv .git .git2
refuse "mv .git/info aside fails" sbx -- mv .git/info .git/info2
sbx -- sh -c 'mv .git .git2; mkdir -p .git/hooks; echo "touch pwned" > .git/hooks/pre-commit' >/dev/null 2>&1
check "the original .git is still in place (outside)" test -f "$ws/.git/HEAD"
refuse "no .git2 appeared (outside)" test -e "$ws/.git2"
refuse "no pre-commit hook was written (outside)" test -e "$ws/.git/hooks/pre-commit"
same ".git/config unchanged (outside)" "$(cat "$ws/.git/config")" "$before"
check "git add and commit still work inside" sbx -- sh -c 'echo x > f && git add f && git commit -qm m'
check "the commit landed (outside)" sh -c "cd '$ws' && git log --oneline | grep -q m"
exit $T_FAILED
