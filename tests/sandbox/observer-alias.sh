#!/bin/sh
# A protected or denied file the host rewrites atomically after launch (a
# new file renamed over the old: git config, git remote add, an editor's
# save) has no bind-over: only the observer's decision by name guards it.
# Reaching it under another name is refused as reaching it by its own: a
# hard link to it, a symlink to it or to its directory opened for writing
# or truncated, such a symlink captured as written in capture mode, and a
# symlink read with deny globs active. Each attack waits for the host's
# rewrite (a marker), and is checked on the host after the run.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
git init -q . && git config user.email t@example.com
cp .git/config "$ws/.t/config.orig"

# late NAME HOST-CMD SCRIPT [run options]: runs SCRIPT in a sandbox once
# HOST-CMD has run on the host, which it does once the sandbox has said it
# is up; SCRIPT's output into $ws/.t/NAME.out, ending in "attacked", and
# sandmux's messages (which quote the command) into $ws/.t/NAME.err.
late() {
	_n=$1 _h=$2 _s=$3
	shift 3
	rm -f "$ws/.t/up" "$ws/.t/go"
	(cd "$ws" && "$SANDMUX" run "$@" -- sh -c ": >.t/up; i=0
		while [ ! -e .t/go ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
		$_s; echo attacked") >"$ws/.t/$_n.out" 2>"$ws/.t/$_n.err" &
	_p=$!
	t_until 60 test -e "$ws/.t/up" || fail "$_n: the sandbox came up"
	(cd "$ws" && eval "$_h") && : >"$ws/.t/go"
	wait $_p
	contains "$_n: the sandbox saw the host's rewrite and attacked" "$(cat "$ws/.t/$_n.out")" "attacked"
}
# config_clean NAME: .git/config is the host's rewrite, nothing added, and
# host git runs nothing the sandbox planted.
config_clean() {
	same "$1: .git/config on the host holds only the host's rewrite" "$(grep -c fsmonitor .git/config)" "0"
	git status >/dev/null 2>&1
	refuse "$1: host git ran nothing planted" test -e PWNED
	rm -f PWNED .git/hl sl g me
}
plant='[core]\n\tfsmonitor = "touch '"$ws"'/PWNED; false"\n'

# 1. A hard link to the new .git/config, then an append to the link.
late hardlink "git config user.name host-person" "grep -q host-person .git/config && echo seen
	ln .git/config .git/hl && printf '$plant' >>.git/hl"
contains "hardlink: the sandbox saw the rewritten config" "$(cat .t/hardlink.out)" "seen"
contains "hardlink: the link is refused" "$(cat .t/hardlink.err)" "denied write $ws/.git/config"
config_clean hardlink

# 2. A symlink to it, and a symlink to its directory, opened for writing
# without O_CREAT (dd conv=nocreat), truncated by truncate(2); the file
# opened for reading (or O_PATH) and opened again for writing through the
# magic link of its fd; removed through a symlinked directory.
late symlink "git config user.name host-person2" "grep -q host-person2 .git/config && echo seen
	ln -s .git/config sl; printf '$plant' | dd conv=nocreat,notrunc oflag=append of=sl 2>/dev/null || echo sl-refused
	ln -s .git g; printf '$plant' | dd conv=nocreat,notrunc oflag=append of=g/config 2>/dev/null || echo g-refused
	python3 -c 'import os; os.truncate(\"sl\", 3)' 2>/dev/null || echo trunc-refused
	exec 3<.git/config; printf '$plant' 2>/dev/null >>/dev/fd/3 || echo fd-refused
	python3 -c 'import os; fd = os.open(\".git/config\", os.O_PATH)
os.write(os.open(\"/proc/thread-self/fd/%d\" % fd, os.O_WRONLY | os.O_APPEND), b\"x\")' 2>/dev/null || echo opath-refused
	ln -s . me; rm -f g/config me/.git/config 2>/dev/null; test -f .git/config && echo rm-refused"
out=$(cat .t/symlink.out)
contains "symlink: the sandbox saw the rewritten config" "$out" "seen"
contains "symlink: a write through a symlink to the file is refused" "$out" "sl-refused"
contains "symlink: a write through a symlinked directory is refused" "$out" "g-refused"
contains "symlink: truncate through the symlink is refused" "$out" "trunc-refused"
contains "symlink: a removal through a symlinked directory is refused" "$out" "rm-refused"
contains "symlink: a write through /dev/fd/N of a read-only fd is refused" "$out" "fd-refused"
contains "symlink: a write through /proc/thread-self/fd/N of an O_PATH fd is refused" "$out" "opath-refused"
check "symlink: the host's config still ends as the host wrote it" grep -q host-person2 .git/config
config_clean symlink
# what is no alias of a guarded file still works through one
echo free >free.txt
sbx -- sh -c 'ln -s free.txt fl; echo more | dd conv=nocreat,notrunc oflag=append of=fl 2>/dev/null; ln free.txt hf; echo hard >>hf'
same "a symlink and a hard link to a free file still write it" "$(cat free.txt)" "free
more
hard"
sbx -- sh -c 'echo through-fd >/dev/stdout' >out.txt
same "a write to /dev/stdout still reaches the file it is" "$(cat out.txt)" "through-fd"

# 3. Capture mode: a symlink outside the write roots (captured as written)
# into a .vscode/settings.json the host made after launch.
# (A directory of HOME made before launch is overlaid; HOME itself may
# have mounts beneath it, and its own entries stay read-only.)
hd="$HOME/sandmux-alias-$$"
lnk="$hd/lnk"
mkdir "$hd" && T_CLEAN="$T_CLEAN $hd"
echo '{"outsideWrites": "capture"}' >"$ws/.t/capture.json"
rm -rf .vscode
late capture "mkdir .vscode && echo '{}' >.vscode/s.tmp && mv .vscode/s.tmp .vscode/settings.json" \
	"ln -s '$ws/.vscode/settings.json' '$lnk' && echo made-link; test -f .vscode/settings.json && echo seen
	echo planted | dd conv=nocreat of='$lnk' 2>/dev/null || echo trunc-refused
	echo planted | dd conv=nocreat,notrunc oflag=append of='$lnk' 2>/dev/null || echo cap-refused" \
	--config "$ws/.t/capture.json" --report "$ws/.t/capture.rep"
out=$(cat .t/capture.out)
contains "capture: the sandbox saw the late .vscode/settings.json" "$out" "seen"
contains "capture: the symlink was made in the layer" "$out" "made-link"
contains "capture: a write through the captured symlink is refused" "$out" "cap-refused"
contains "capture: an O_WRONLY|O_TRUNC open through it is refused" "$out" "trunc-refused"
same "capture: .vscode/settings.json on the host is unchanged" "$(cat .vscode/settings.json)" "{}"
refuse "capture: the symlink never reached the host" test -L "$lnk"
layer=$(sed -n 's/.*"capture_layer":[[:space:]]*"\(.*\)".*/\1/p' "$ws/.t/capture.rep")
[ -n "$layer" ] && "$SANDMUX" captured --layer "$layer" discard >/dev/null
rm -rf .vscode

# 4. deny globs: a symlink to a .pem the host makes (or replaces, as an
# editor saves) after launch is not read through, also one the host made.
cat >"$ws/.t/deny.json" <<J
{"profiles": {"nopem": {"extends": "workspace", "deny": ["**/*.pem"]}}}
J
echo OLD >old.pem
ln -s later.pem hostlink
late deny "echo SECRET-NEW >p.tmp && mv p.tmp new.pem && echo SECRET-OLD >o.tmp && mv o.tmp old.pem &&
	echo SECRET-LATER >later.pem" \
	"ln -s new.pem x; ln -s old.pem y; test -e new.pem && echo seen
	cat x >leak-x; cat y >leak-y; cat hostlink >leak-h; cat old.pem >leak-o" \
	--config "$ws/.t/deny.json" --sandbox nopem
contains "deny: the sandbox saw the new .pem" "$(cat .t/deny.out)" "seen"
same "deny: nothing of the .pem files was read through a symlink" \
	"$(cat leak-x leak-y leak-h leak-o .t/deny.out .t/deny.err 2>/dev/null | grep -c SECRET)" "0"
contains "deny: the read through the symlink is refused" "$(cat .t/deny.err)" "denied read $ws/new.pem"
sbx --config "$ws/.t/deny.json" --sandbox nopem -- sh -c 'ln -s free.txt fx; cat fx >read-free'
same "deny: a symlink to a free file still reads" "$(head -1 read-free 2>&1)" "free"
exit $T_FAILED
