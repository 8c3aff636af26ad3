#!/bin/sh
# A workspace symlink that leads through a magic link of /proc
# (`ln -s /proc/self/fd/5 pc`, fd 5 on a protected directory made after
# launch, which only the observer guards) is refused as the path itself
# would be; a symlink to a plain directory still works, and a missing
# directory still fails with ENOENT. Checked on the host after the run.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
git init -q . && rm -rf .git/hooks .vscode
# the sandbox waits for go; meanwhile the host makes .vscode
out=$( (cd "$ws" && "$SANDMUX" run -- sh -c '
	touch ready; n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	exec 5<.vscode
	ln -s /proc/self/fd/5 pc; echo x >pc/s1; echo "self:$?"
	ln -s /proc/$$/fd/5 pd; echo x >pd/p1; echo "pid:$?"
	ln -s pc pe; echo x >pe/c1; echo "chain:$?"
	ln -s /dev/fd/5 pf; echo x >pf/d1; echo "devfd:$?"
	mkdir sub; ln -s sub ls; echo ok >ls/fine; echo "plain:$?"
	echo q >nodir/x; echo "missing:$?"
	' 2>&1) &
	n=0; while [ ! -e "$ws/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	mkdir .vscode; touch "$ws/go"; wait)
contains "the sandbox ran its calls" "$out" "missing:"
same "nothing is made in .vscode through a symlink to a magic link" "$(ls -A .vscode 2>&1)" ""
contains "through /proc/self/fd: refused" "$out" "self:2"
contains "through /proc/PID/fd: refused" "$out" "pid:2"
contains "through a chain of symlinks: refused" "$out" "chain:2"
contains "through /dev/fd: refused" "$out" "devfd:2"
same "a symlink to a plain directory still works" "$(cat sub/fine 2>&1)" ok
case "$out" in *"nodir/x: Directory nonexistent"* | *"nodir/x: No such file"*) ok "a missing directory still fails as missing (ENOENT)" ;;
*) fail "a missing directory still fails as missing (ENOENT)"; echo "$out" | sed 's/^/#   | /' ;; esac
exit $T_FAILED
