#!/bin/sh
# The weaker sandbox (no user namespaces) has no bind-overs: a protected
# file present at launch is guarded by the observer's decision alone, so
# reaching it under another name (a symlink, a symlinked directory, a
# hard link, the magic link of a read-only fd) must be refused as
# reaching it by its own. Checked on the host after the run. (stdout
# only: sandmux's messages quote the command.)
. "$TESTS/sandbox/nons.inc"
cd "$ws" || exit 1
mkdir -p .git && printf '[core]\n' >.git/config
echo free >free.txt
out=$(wrun -- sh -c 'ln -s .git/config sl; echo x | dd conv=nocreat,notrunc oflag=append of=sl 2>/dev/null || echo sl-refused
	ln -s .git g; echo x | dd conv=nocreat,notrunc oflag=append of=g/config 2>/dev/null || echo g-refused
	ln .git/config .git/hl 2>/dev/null || echo hl-refused
	exec 3<.git/config; echo x 2>/dev/null >>/dev/fd/3 || echo fd-refused
	ln -s free.txt fl; echo more | dd conv=nocreat,notrunc oflag=append of=fl 2>/dev/null
	exec 4>>free.txt; echo fd >>/dev/fd/4; echo done' 2>/dev/null)
contains "weaker sandbox: the calls ran" "$out" "done"
contains "weaker sandbox: a write through a symlink to .git/config is refused" "$out" "sl-refused"
contains "weaker sandbox: a write through a symlinked directory is refused" "$out" "g-refused"
contains "weaker sandbox: a hard link to .git/config is refused" "$out" "hl-refused"
contains "weaker sandbox: a write through /dev/fd/N of a read-only fd is refused" "$out" "fd-refused"
same "weaker sandbox: .git/config on the host is unchanged" "$(cat .git/config)" "[core]"
refuse "weaker sandbox: no link to it is left" test -e .git/hl
same "weaker sandbox: a symlink to a free file, and /dev/fd/N of one, still write it" "$(cat free.txt)" "free
more
fd"
exit $T_FAILED
