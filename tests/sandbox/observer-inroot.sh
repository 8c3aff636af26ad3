#!/bin/sh
# Paths the kernel resolves another way than from the process's root:
# openat2 with RESOLVE_IN_ROOT (the dirfd is "/" for the path and its
# symlinks), and an O_CREAT open through a dangling symlink whose target
# is too long to join to its directory; and the socket file a bind()
# makes. A protected name missing at launch is made through none of
# them, checked on the host after the run; a harmless one still is.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
fsops="$ws/.t/fsops"
cc -O0 -o "$fsops" "$TESTS/sandbox/fsops.c" || { fail "build the fsops helper"; exit 1; }
git init -q . && rm -rf .git/info/attributes .git/hooks && mkdir -p sub d
out=$(sbx -- "$fsops" symlink . .git/info/tmp symlink / .git/info/r dir 1 .git/info \
	inroot 1 /tmp/attributes inroot 1 /r/attributes inroot 1 /../attributes \
	dir 2 . inroot 2 /.git/info/tmp/attributes dir 3 sub inroot 3 /ok.txt inroot 3 /../ok2.txt 2>&1)
refuse "RESOLVE_IN_ROOT: no .git/info/attributes through the dirfd's root" test -e .git/info/attributes
contains "RESOLVE_IN_ROOT: the denial names the protected path" "$out" ".git/info/attributes"
check "RESOLVE_IN_ROOT: a harmless name is still made, in the dirfd" test -f sub/ok.txt -a -f sub/ok2.txt
t=$(awk 'BEGIN { for (i = 0; i < 814; i++) printf "d/../"; printf "x.code-workspace" }')
sbx -- sh -c "ln -s '$t' longlink && echo x > longlink" 2>/dev/null
check "a long symlink target was made" test -L longlink
refuse "a dangling symlink with a long target makes no protected name" test -e x.code-workspace
t=$(awk 'BEGIN { for (i = 0; i < 600; i++) printf "d/../"; printf "ok.txt" }')
sbx -- sh -c "ln -s '$t' l2 && echo x > l2" 2>/dev/null
check "a shorter one still makes a harmless name" test -f ok.txt
out=$(sbx -- "$fsops" bind x.code-workspace bind .cursorignore bind .git/hooks bind ok.sock 2>&1)
refuse "bind: no protected name made as a socket file" sh -c 'ls -A | grep -E "^(x\.code-workspace|\.cursorignore)" || test -e .git/hooks'
contains "bind: the denial names the protected path" "$out" "protected path: .cursorignore"
check "bind: a harmless socket file is still made" test -S ok.sock
exit $T_FAILED
