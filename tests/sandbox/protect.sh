#!/bin/sh
# Protected paths stay read-only in a writable workspace; git still works;
# rm -rf of a directory holding a protected path fails only on that path.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
mkdir -p .vscode .sandmux .git/hooks .cursor/rules
echo hook >.git/hooks/pre-commit
echo v >.vscode/settings.json
echo '{}' >.sandmux/sandbox.json
echo r >.cursor/rules/r.md
cp .git/config "$ws/.t/config.orig"

for f in .git/hooks/pre-commit .git/config .vscode/settings.json .sandmux/sandbox.json; do
	before=$(cat "$f")
	sbx -- sh -c "echo pwned >> '$f'" 2>/dev/null
	same "protected: $f not writable" "$(cat "$f")" "$before"
	sbx -- sh -c "rm -f '$f'; mv '$f' '$f.x'" 2>/dev/null
	check "protected: $f not removable or renamable" test -f "$f"
done
sbx -- sh -c 'echo x > .git/hooks/post-checkout' 2>/dev/null
refuse "protected: no new hook" test -e .git/hooks/post-checkout
sbx -- sh -c 'mv .git/hooks .git/hooks.old; mkdir .git/hooks; echo x > .git/hooks/pre-commit' 2>/dev/null
same "protected: the hooks dir cannot be renamed aside" "$(cat .git/hooks/pre-commit)" "hook"
sbx -- sh -c 'mv .vscode .vscode.old; mv .sandmux .sandmux.old' 2>/dev/null
check "protected: .vscode and .sandmux stay" test -f .vscode/settings.json -a -f .sandmux/sandbox.json
check "writable exception: .cursor/rules" sbx -- sh -c 'echo w > .cursor/rules/new.md'
check "workspace still writable" sbx -- sh -c 'echo w > free.txt'

echo one >a.txt
check "git add and commit inside the workspace" sbx -- sh -c 'git add a.txt && git commit -qm one'
same "the commit is there, seen from outside" "$(git log --format=%s -1 2>/dev/null)" "one"
check "git config is unchanged" cmp -s .git/config "$ws/.t/config.orig"

mkdir -p sub && echo s >sub/f && cp -r .vscode sub/ 2>/dev/null
out=$(sbx -- rm -rf .git 2>&1)
check "rm -rf .git: the protected hooks survive" test -f .git/hooks/pre-commit
check "rm -rf .git: the protected config survives" test -f .git/config
refuse "rm -rf .git: the rest is removed" test -e .git/HEAD
contains "rm -rf .git: a clear error names the protected path" "$out" ".git/config"
case "$out" in *objects*) fail "rm -rf .git: errors only on protected paths"; echo "$out" | head -5 | sed 's/^/#   /' ;; *) ok "rm -rf .git: errors only on protected paths" ;; esac
# A checkout without .vscode, .sandmux or .git/hooks: they cannot be made
# and filled from inside either, also by the kernel layers alone.
for obs in "" --no-observer; do
	t_dir fresh
	(cd "$fresh" && git init -q . && rm -rf .git/hooks)
	(cd "$fresh" && "$SANDMUX" run $obs -- sh -c 'mkdir -p .vscode .sandmux .git/hooks; echo x > .vscode/settings.json; echo x > .sandmux/sandbox.json; echo x > .git/hooks/pre-commit') 2>/dev/null
	refuse "fresh checkout ${obs:-(observer on)}: no protected file can be created" \
		sh -c "ls '$fresh/.vscode/settings.json' '$fresh/.sandmux/sandbox.json' '$fresh/.git/hooks/pre-commit' 2>/dev/null | grep ."
	same "fresh checkout ${obs:-(observer on)}: left as it was after the run" "$(ls -A "$fresh" "$fresh/.git" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
done
# With the observer, nothing is made in the workspace while a sandbox
# runs either (checked from outside during the run), and the tricks that
# reach the missing names another way are refused too.
t_dir fresh
(cd "$fresh" && git init -q . && rm -rf .git/hooks)
seen=$(cd "$fresh" && "$SANDMUX" run -- sh -c 'touch ready; n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done' 2>&1 &
	n=0
	while [ ! -e "$fresh/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	ls -A "$fresh" "$fresh/.git"
	touch "$fresh/go"
	wait)
contains "fresh checkout: the sandbox was running when looked at" "$seen" "ready"
same "fresh checkout: no .vscode, .sandmux or .git/hooks on the host during the run" "$(echo "$seen" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
(cd "$fresh" && "$SANDMUX" run -- sh -c 'ln -s . me; mkdir me/.vscode; mkdir -p me/.git/hooks; mkdir /proc/self/cwd/.sandmux; ln -s /proc/self/cwd pc; mkdir pc/.vscode pc/.sandmux; mkdir x; mv x .vscode; ln -s x .sandmux; mkdir -p .cursor/x && echo x > .cursor/mcp.json') 2>/dev/null
same "fresh checkout: symlinked, /proc and rename routes made nothing" "$(ls -A "$fresh" "$fresh/.git" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
refuse "fresh checkout: no .cursor/mcp.json either" test -e "$fresh/.cursor/mcp.json"
# An open with O_CREAT follows a symlink that leads nowhere and creates
# its target: a protected name made through one, also a chain of them or
# one through a magic link of /proc, is refused; a harmless target is not.
(cd "$fresh" && "$SANDMUX" run -- sh -c 'ln -s x.code-workspace a; echo x > a; ln -s .cursorignore b; ln -s b c; echo x > c; ln -s /proc/self/cwd/y.code-workspace d; echo x > d; ln -s ok.txt e; echo ok > e') 2>/dev/null
same "dangling symlinks: no protected file made through them" "$(ls -A "$fresh" | grep -cE '^(x\.code-workspace|y\.code-workspace|\.cursorignore)$')" "0"
same "dangling symlinks: a harmless target is still made" "$(cat "$fresh/ok.txt" 2>/dev/null)" "ok"
exit $T_FAILED
