#!/bin/sh
# The observer's shortcuts (a creation decided on the directory the one
# before resolved, a dirfd's path remembered while the same open file is
# at that fd) decide exactly what resolving each call would: a protected
# directory made after launch (an editor's .vscode: no read-only mount
# covers it, only the observer guards it) stays unwritable through every
# way of making a remembered directory or dirfd lead into it, checked on
# the host after the run.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
fsops="$ws/.t/fsops"
cc -O0 -o "$fsops" "$TESTS/sandbox/fsops.c" || { fail "build the fsops helper"; exit 1; }
git init -q . && rm -rf .git/hooks
# made after the sandbox started: the observer alone guards them
late() { mkdir -p .vscode .git/hooks; }

# run_late OUTVAR CALLS...: fsops runs the calls after late() ran on the host
run_late() {
	_v=$1; shift
	rm -rf ready go .vscode .git/hooks
	eval "$_v=\$( (cd \"\$ws\" && \"\$SANDMUX\" run -- \"\$fsops\" touch ready wait go \"\$@\") 2>&1 &
		n=0; while [ ! -e \"\$ws/ready\" ] && [ \$n -lt 600 ]; do sleep 0.1; n=\$((n + 1)); done
		late; touch \"\$ws/go\"; wait)"
}
made() { ls -A .vscode .git/hooks 2>/dev/null | grep -v '^$' | grep -v ':$' | tr '\n' ' '; }

# One process: every way of turning a remembered directory into a
# symlink to the protected one goes through a call the observer sees.
run_late out \
	mkdir d1 excl d1/a fifo d1/b unlink d1/a unlink d1/b rmdir d1 symlink .vscode d1 excl d1/s1.json fifo d1/f1 \
	symlink .vscode l2 mkdir d2 excl d2/a unlink d2/a rmdir d2 rename l2 d2 excl d2/s2.json \
	symlink .vscode l3 mkdir d3 excl d3/a exchange l3 d3 excl d3/s3.json \
	symlink .vscode l4 mkdir d4 excl d4/a unlink d4/a rmdir d4 link l4 d4 excl d4/s4.json \
	symlink .git/hooks l5 mkdir d5 excl d5/a exchange l5 d5 excl d5/pre-commit excl d5/post.x \
	mkdir d6 excl d6/a excl d6/../.vscode/s6.json excl d6//../.vscode/s6b.json \
	symlink .vscode/ l7 excl l7//s7.json creat l7/s7c.json \
	mkdir d8 mkdir d9 excl d8/a excl d9/a unlink d8/a rmdir d8 symlink .vscode d8 excl d9/b excl d8/s8.json
same "a remembered directory swapped for a symlink: nothing made in .vscode or .git/hooks" "$(made)" ""
contains "the sandbox ran the calls" "$out" "excl d1/a : ok"

# A dirfd remembered (used twice) and then replaced: dup2 of another
# directory onto its number, close and reopen, a rename of it.
run_late out \
	mkdir e1 dir 1 e1 at 1 a at 1 b dir 2 .vscode dup 2 1 at 1 t1.json mkdirat 1 t1d fifoat 1 t1f \
	mkdir e2 dir 3 e2 at 3 a at 3 b close 3 dir 4 .vscode at 4 t2.json at 3 t2b.json \
	mkdir e3 dir 5 e3 at 5 a at 5 b rename e3 e3b at 5 c rename e3b .vscode/e3 at 5 t3.json \
	symlink .vscode l8 mkdir e4 dir 6 e4 at 6 a at 6 b exchange e4 l8 at 6 t4.json \
	dir 7 . tmpfile 7 .vscode/t5.json tmpfile 7 l8/t5b.json
same "a remembered dirfd replaced or moved: nothing made in .vscode or .git/hooks" "$(made)" ""
contains "the dirfd calls ran" "$out" "at 1 b: ok"
contains "a renamed directory's fd still works" "$out" "at 5 c: ok"
check "and its file is where the directory went" test -f e3b/c

# A directory fd named through /proc or /dev/fd: the observer cannot
# follow those magic links, so it refuses what goes through them.
rm -rf ready go .vscode .git/hooks
out=$( (cd "$ws" && "$SANDMUX" run -- sh -c 'touch ready; n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	exec 5<.vscode; echo x > /proc/self/fd/5/m1.txt; echo x > /dev/fd/5/m2.txt; mkdir /proc/self/fd/5/m3; echo ok > /dev/stdout') 2>&1 &
	n=0; while [ ! -e "$ws/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	late; touch "$ws/go"; wait)
same "through /proc/self/fd/N or /dev/fd/N: nothing made in .vscode" "$(made)" ""
contains "writing to /dev/stdout still works" "$out" "ok"

# Another sandbox on the same workspace (another pane) changes where a
# remembered directory leads: this observer never sees that call.
rm -rf .vscode .git/hooks
rm -f ready go
out=$( (cd "$ws" && "$SANDMUX" run -- "$fsops" mkdir s excl s/a touch ready wait go excl s/s8.json fifo s/f8) 2>&1 &
	n=0; while [ ! -e "$ws/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	late
	sbx -- "$fsops" unlink s/a rmdir s symlink .vscode s >/dev/null 2>&1
	touch "$ws/go"; wait)
contains "the first sandbox ran" "$out" "excl s/a : ok"
check "the second sandbox swapped the directory for a symlink" test -L s
same "a directory swapped by another sandbox: nothing made in .vscode" "$(made)" ""

# The same for a directory remembered before others (creations in a
# subdirectory, then in its parent again, are decided on what each
# resolved): each is opened again before it is used.
rm -rf .vscode .git/hooks s
rm -f ready go
out=$( (cd "$ws" && "$SANDMUX" run -- "$fsops" mkdir m excl m/a mkdir m/sub excl m/sub/a mkdir n excl n/a \
	touch ready wait go excl n/b excl m/s9.json fifo m/f9) 2>&1 &
	n=0; while [ ! -e "$ws/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	late
	sbx -- sh -c 'mv m m.old && ln -s .vscode m' >/dev/null 2>&1
	touch "$ws/go"; wait)
contains "the first sandbox ran" "$out" "excl n/b : ok"
check "the second sandbox swapped the older directory for a symlink" test -L m
same "an older remembered directory swapped by another sandbox: nothing made in .vscode" "$(made)" ""
exit $T_FAILED
