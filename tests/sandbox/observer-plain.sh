#!/bin/sh
# The observer decides a creation by name on the path as written when the
# walk to its directory meets no symlink (from our copy of the dirfd the
# path is relative to, or from the root), and keeps several dirfds at
# once. A protected directory made after launch (.vscode: no read-only
# mount covers it, only the observer guards it) stays unwritable when
# another sandbox on the same workspace (another pane) turns a directory
# on that walk into a symlink, and when a dirfd remembered before others
# is replaced; checked on the host after the run.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
fsops="$ws/.t/fsops"
cc -O0 -o "$fsops" "$TESTS/sandbox/fsops.c" || { fail "build the fsops helper"; exit 1; }
made() { ls -A .vscode 2>/dev/null | tr '\n' ' '; }

# run_swapped OUTVAR SWAP CALLS...: fsops runs the calls up to "wait go"
# in one sandbox; then .vscode is made on the host and SWAP runs in a
# second sandbox; then the first goes on.
run_swapped() {
	_v=$1; _swap=$2; shift 2
	rm -rf ready go .vscode
	eval "$_v=\$( (cd \"\$ws\" && \"\$SANDMUX\" run -- \"\$fsops\" \"\$@\") 2>&1 &
		n=0; while [ ! -e \"\$ws/ready\" ] && [ \$n -lt 600 ]; do sleep 0.1; n=\$((n + 1)); done
		mkdir .vscode; sbx -- sh -c \"\$_swap\" >/dev/null 2>&1; touch \"\$ws/go\"; wait)"
}

# Names two directories below a dirfd (the walk from our copy of it): a
# directory on that walk swapped for a relative symlink, then for an
# absolute one, into .vscode.
run_swapped out "rm -r p/q && ln -s ../.vscode p/q && rm -r r/s && ln -s $ws/.vscode r/s" \
	mkdir p mkdir p/q mkdir r mkdir r/s dir 1 . at 1 p/q/a at 1 p/q/b mkdirat 1 p/q/c at 1 r/s/a \
	touch ready wait go at 1 p/q/t1.json fifoat 1 p/q/t1f mkdirat 1 p/q/t1d at 1 r/s/t2.json
contains "the calls before the swap ran" "$out" "at 1 p/q/b: ok"
check "the second sandbox made the symlinks" test -L p/q -a -L r/s
same "a directory below a dirfd swapped for a symlink: nothing made in .vscode" "$(made)" ""
contains "the creation through the symlink was refused" "$out" "at 1 p/q/t1.json: EACCES"

# The same from the cwd and by absolute path (the walk from the root).
rm -rf p r
run_swapped out "rm -r u/v && ln -s ../.vscode u/v && rm -r w && ln -s .vscode w" \
	mkdir u mkdir u/v mkdir w excl u/v/a excl "$ws/w/a" excl "$ws/u/v/b" touch ready wait go \
	excl u/v/t3.json fifo "$ws/u/v/t3f" excl "$ws/w/t4.json" mkdir w/t4d
contains "the calls before the swap ran" "$out" "excl $ws/u/v/b : ok"
check "the second sandbox made the symlinks" test -L u/v -a -L w
same "a directory on the path swapped for a symlink: nothing made in .vscode" "$(made)" ""

# Four dirfds in use at once, the least recent replaced by .vscode's
# (dup2 onto its number, or closed and reopened there): the copy of the
# open file no longer matches (kcmp), so it is read again.
rm -rf u w
run_swapped out ":" \
	mkdir f1 mkdir f2 mkdir f3 mkdir f4 dir 1 f1 dir 2 f2 dir 3 f3 dir 4 f4 at 1 a at 2 a at 3 a at 4 a \
	at 1 b at 2 b at 3 b at 4 b touch ready wait go dir 5 .vscode dup 5 1 at 2 c at 1 t5.json mkdirat 1 t5d \
	close 3 dir 3 .vscode at 4 c at 3 t6.json fifoat 3 t6f
contains "the remembered dirfds were used" "$out" "at 4 b: ok"
contains "a dirfd used after the swap still works" "$out" "at 2 c: ok"
same "a remembered dirfd replaced by another directory's: nothing made in .vscode" "$(made)" ""
contains "the creation there was refused" "$out" "at 1 t5.json: EACCES"

# A creation that follows a final symlink (open's O_CREAT without
# O_EXCL, and the creat system call) through one that dangled until
# .vscode was made: made there by the kernel, so refused.
rm -rf t5d
run_swapped out ":" symlink .vscode/c1.txt l9 symlink .vscode/c2.txt l10 mkdir cd excl cd/a \
	symlink ../.vscode/c3.txt cd/l11 touch ready wait go rawcreat l9 creat l10 creat cd/l11
contains "the symlinks were made" "$out" "symlink ../.vscode/c3.txt cd/l11: ok"
same "an open that follows a symlink into .vscode: nothing made there" "$(made)" ""
contains "the creat system call through it was refused" "$out" "rawcreat l9 : EACCES"

# What stays allowed: creations below a dirfd and in directories that are
# symlinks to allowed places (resolved, then made where they lead).
rm -rf f1 f2 f3 f4 ok okl l9 l10 cd
mkdir ok && ln -s ok okl && ln -s ok/new.txt okn
sbx_out out -- "$fsops" mkdir ok/d dir 1 . at 1 ok/d/a at 1 okl/d/b mkdirat 1 okl/e excl okl/d/c creat okn rawcreat ok/r
contains "a creation below a dirfd" "$out" "at 1 ok/d/a: ok"
contains "and through a symlink to an allowed place" "$out" "at 1 okl/d/b: ok"
check "made where the symlink leads" test -f ok/d/b -a -d ok/e -a -f ok/d/c -a -f ok/new.txt -a -f ok/r
exit $T_FAILED
