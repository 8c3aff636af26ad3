#!/bin/sh
# capture mode (outsideWrites "capture"): writes outside the writable paths
# succeed into the run's own layer, are seen inside, never reach the host,
# are listed in the report and by `sandmux captured`; apply writes exactly
# the chosen paths, discard leaves nothing. sandmux's own files, protected
# paths and deny matches stay denied; where the overlay cannot be mounted
# the command does not run.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
tag=sandmux-capture-$$
hx="$HOME/$tag-x"
hd="$HOME/$tag-dir"
T_CLEAN="$T_CLEAN $hx $hd"
mkdir -p "$hd" .git
echo orig >"$hd/existing"
echo SECRET >"$hd/key.pem"
echo '[core]' >.git/config
cfg="$ws/.t/capture.json"
cat >"$cfg" <<J
{"outsideWrites": "capture", "profiles": {"cap": {"extends": "workspace", "deny": ["$hd/*.pem", "**/*.key"]}}}
J
rep="$ws/.t/report.json"
# layer_of REPORT: the layer directory the report names.
layer_of() { sed -n 's/.*"capture_layer":[[:space:]]*"\(.*\)".*/\1/p' "$1"; }
sys=""
[ "$(id -u)" = 0 ] && sys=/usr/local/$tag && T_CLEAN="$T_CLEAN $sys"

script="echo new > $hx; cat $hx; echo more >> $hd/existing; cat $hd/existing; echo ws > inws"
[ -n "$sys" ] && script="$script; echo sys > $sys; cat $sys"
out=$(sbx --config "$cfg" --report "$rep" -- sh -c "$script" 2>&1)
contains "capture: a new file outside is seen inside" "$out" "new"
contains "capture: an append outside is seen inside" "$out" "orig
more"
refuse "capture: the new file is absent on the host" test -e "$hx"
same "capture: the appended file is unchanged on the host" "$(cat "$hd/existing")" "orig"
check "capture: a workspace write reaches the host" test -f inws
layer=$(layer_of "$rep")
check "capture: the layer lies under ~/.sandmux/state/capture" test -d "$layer/upper"
list=$("$SANDMUX" captured --layer "$layer" list 2>&1)
contains "capture: listed as created" "$list" "create  $hx"
contains "capture: listed as written" "$list" "write   $hd/existing"
contains "capture: the report lists it" "$(cat "$rep")" "$hx"
case "$list" in *"$ws/inws"*) fail "capture: a workspace write is not captured" ;; *) ok "capture: a workspace write is not captured" ;; esac
if [ -n "$sys" ]; then
	contains "capture: a system dir write is seen inside" "$out" "sys"
	refuse "capture: the system dir write is absent on the host" test -e "$sys"
	contains "capture: the system dir write is listed" "$list" "create  $sys"
fi

# apply: exactly the chosen path
"$SANDMUX" captured --layer "$layer" apply "$hx" >/dev/null
same "apply: the chosen file is on the host" "$(cat "$hx" 2>&1)" "new"
same "apply: the other file is left alone" "$(cat "$hd/existing")" "orig"
[ -n "$sys" ] && refuse "apply: the system dir write is left alone" test -e "$sys"
refuse "apply: a path not in the layer is refused" "$SANDMUX" captured --layer "$layer" apply "$HOME/$tag-none"
"$SANDMUX" captured --layer "$layer" discard >/dev/null
refuse "discard: the layer is gone" test -e "$layer"
same "discard: the host file is still unchanged" "$(cat "$hd/existing")" "orig"

# apply follows no symlink on the host: one put where a captured file goes
sbx --config "$cfg" --report "$rep" -- sh -c "echo planted > $hd/new" >/dev/null 2>&1
layer=$(layer_of "$rep")
echo victim >"$hd/victim"
ln -s "$hd/victim" "$hd/new"
refuse "apply: a symlink on the host is refused" "$SANDMUX" captured --layer "$layer" apply "$hd/new"
same "apply: its target is unchanged" "$(cat "$hd/victim")" "victim"
"$SANDMUX" captured --layer "$layer" discard >/dev/null
rm -f "$hd/new"

# apply never writes a protected path or sandmux's own files, even when
# one is in the layer (put there by hand: the observer keeps them out)
sbx --config "$cfg" --report "$rep" -- sh -c "echo x > $hx" >/dev/null 2>&1
layer=$(layer_of "$rep")
wsr=$(cd "$ws" && pwd -P)
mkdir -p "$layer/upper$wsr/.vscode" "$layer/upper$HOME/.sandmux"
echo '{"tasks": 1}' >"$layer/upper$wsr/.vscode/tasks.json"
echo own >"$layer/upper$HOME/.sandmux/$tag"
out=$("$SANDMUX" captured --layer "$layer" apply --all 2>&1)
contains "apply: a protected path is refused" "$out" ".vscode/tasks.json: refused by the policy"
refuse "apply: the protected path is not written" test -e "$wsr/.vscode/tasks.json"
refuse "apply: sandmux's own files are not written" test -e "$HOME/.sandmux/$tag"
same "apply: the rest is applied" "$(cat "$hx" 2>&1)" "x"
"$SANDMUX" captured --layer "$layer" discard >/dev/null
rm -f "$hx"

# a mount below a directory: the directory's subdirectories and the mount
# are overlaid each on its own (root: it mounts on the host)
if [ "$(id -u)" = 0 ] && mkdir -p "$hd/mnt" && mount -t tmpfs tmpfs "$hd/mnt"; then
	echo inmnt >"$hd/mnt/f"
	mkdir -p "$hd/sub"
	out=$(sbx --config "$cfg" --report "$rep" -- sh -c "echo m >> $hd/mnt/f; cat $hd/mnt/f; echo s > $hd/sub/g; cat $hd/sub/g" 2>&1)
	contains "capture: a write into a mount below HOME is seen inside" "$out" "inmnt
m"
	contains "capture: a write beside it is seen inside" "$out" "s"
	same "capture: the mount is unchanged on the host" "$(cat "$hd/mnt/f")" "inmnt"
	refuse "capture: the file beside it is absent on the host" test -e "$hd/sub/g"
	list=$("$SANDMUX" captured --layer "$(layer_of "$rep")" list 2>&1)
	contains "capture: both are listed" "$list" "write   $hd/mnt/f"
	"$SANDMUX" captured --layer "$(layer_of "$rep")" discard >/dev/null
	# HOME itself is not overlaid (a mount lies beneath it): a new name
	# directly in it is refused, and reported as a denial, not lost
	out=$(sbx --config "$cfg" --report "$rep" -- sh -c "mkdir $hd/newdir" 2>&1)
	refuse "capture: a new name beside the mount is not made on the host" test -e "$hd/newdir"
	contains "capture: a new name beside the mount is reported as a denial" "$(tr -d ' \t\n' <"$rep")" \
		"\"op\":\"create\",\"target\":\"$hd/newdir\""
	# a workspace that is a mount of its own: its writes reach the host
	(cd "$hd/mnt" && "$SANDMUX" run --config "$cfg" -- sh -c 'echo w > inws2') >/dev/null 2>&1
	same "capture: a workspace that is a mount is written on the host" "$(cat "$hd/mnt/inws2" 2>&1)" "w"
	umount "$hd/mnt"
fi

# what stays denied in capture mode
out=$(sbx --config "$cfg" --sandbox cap --report "$rep" -- sh -c "
	cat $hd/key.pem; echo x > $hd/key.pem; echo y > $hd/new.pem; cat $hd/new.pem
	echo OWN-$tag > $HOME/.sandmux/$tag; cat $HOME/.sandmux/$tag
	echo hook >> .git/config; cat .git/config
	echo run > /run/$tag" 2>&1)
case "$out" in *SECRET*) fail "capture: a deny match outside stays unreadable" ;; *) ok "capture: a deny match outside stays unreadable" ;; esac
same "capture: the deny match is unchanged" "$(cat "$hd/key.pem")" "SECRET"
refuse "capture: no new deny match was made" test -e "$hd/new.pem"
refuse "capture: sandmux's own files stay unwritable" test -e "$HOME/.sandmux/$tag"
case "$out" in *OWN-$tag*) fail "capture: no write to ~/.sandmux is seen inside" ;; *) ok "capture: no write to ~/.sandmux is seen inside" ;; esac
same "capture: a protected path stays unchanged" "$(cat .git/config)" "[core]"
case "$out" in *hook*) fail "capture: a protected path is not captured" ;; *) ok "capture: a protected path is not captured" ;; esac
refuse "capture: a directory that is not overlaid stays read-only" test -e "/run/$tag"
layer=$(layer_of "$rep")
if [ -n "$layer" ]; then
	list=$("$SANDMUX" captured --layer "$layer" list 2>&1)
	case "$list" in *.pem* | *.sandmux* | *config*) fail "capture: nothing denied is in the layer"; echo "#   $list" ;; *) ok "capture: nothing denied is in the layer" ;; esac
	"$SANDMUX" captured --layer "$layer" discard >/dev/null
else
	ok "capture: nothing denied is in the layer"
fi

# What only the observer refuses, in capture mode too: names made after
# launch in the workspace (a write root, nothing captured there) that a
# deny glob, a protected path or an ignore file matches, as written, in
# a directory made meanwhile, and through a symlink to the workspace.
echo '*.env' >.cursorignore
sbx --config "$cfg" --sandbox cap -- sh -c 'set -C; mkdir late && echo a > late/a && echo b > late/b; ln -s . up
	echo k > new.key; echo k > late/new.key; echo k > up/late/up.key
	echo w > x.code-workspace; echo w > up/y.code-workspace; mkdir up/.vscode
	echo e > late.env; echo e > late/late.env; echo e > up/up.env' 2>/dev/null
same "capture: files made meanwhile in the workspace reach the host" "$(cat late/a late/b 2>&1)" "a
b"
same "capture: no deny, protected or ignored name was made in the workspace" \
	"$(ls -A . late | grep -cE '\.key$|\.code-workspace$|^\.vscode$|\.env$')" "0"
rm -rf late up .cursorignore
# A protected file the host makes after launch (git init beside a running
# agent makes .git/config) has no bind-over: an open for writing without
# O_CREAT, which Landlock allows in the workspace, is the observer's to
# refuse in capture mode too.
rm -rf .git .t/late-started
sbx --config "$cfg" -- sh -c ': >.t/late-started; i=0; while [ ! -f .git/config ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	[ -f .git/config ] && echo seen-late
	echo "[core] fsmonitor = planted" | dd conv=nocreat,notrunc oflag=append of=.git/config 2>/dev/null || echo write-refused' >"$ws/.t/late.out" 2>&1 &
late=$!
i=0; while [ ! -e .t/late-started ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
mkdir .git && echo '[core]' >.git/config.tmp && mv .git/config.tmp .git/config
wait $late
out=$(cat "$ws/.t/late.out")
contains "capture: the sandbox saw the protected file made after launch" "$out" "seen-late"
contains "capture: its write to it is refused" "$out" "write-refused"
same "capture: the protected file is unchanged on the host" "$(cat .git/config)" "[core]"

# Capture mode notifies the observer of the names a call makes and of
# nothing else an untar or rm does: writes, chmod, utimes and removals go
# unnotified. (Each creation stays notified: it is what refuses the names
# above.)
mkdir -p "$ws/.t/tree"
for d in 1 2 3 4 5 6 7 8 9 10; do
	mkdir -p "$ws/.t/tree/d$d"
	for f in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do echo "$d.$f" >"$ws/.t/tree/d$d/f$f"; done
done
tar -cf "$ws/.t/tree.tar" -C "$ws/.t" tree && rm -rf "$ws/.t/tree"
entries=$(tar -tf "$ws/.t/tree.tar" | wc -l)
notified() { tr -d '\t\n ' <"$1" | sed -n 's/.*"notified":\([0-9]*\).*/\1/p'; }
sbx --config "$cfg" --report "$rep" -- sh -c 'mkdir u && tar --no-same-owner -xf .t/tree.tar -C u && chmod -R go-w u && rm -rf u' 2>/dev/null
n=$(notified "$rep")
check "capture: untar+rm of $entries entries is notified at most once an entry (notified: $n)" \
	test -n "$n" -a "$n" -le $((entries + 20))
sbx --report "$rep" -- sh -c 'mkdir u && tar --no-same-owner -xf .t/tree.tar -C u && chmod -R go-w u && rm -rf u' 2>/dev/null
n=$(notified "$rep")
check "default mode: at most one notified call per created and per removed entry (notified: $n)" \
	test -n "$n" -a "$n" -le $((2 * entries + 20)) -a "$n" -ge "$entries"

# no overlay: the command does not run, one message says why
out=$(cd "$ws" && SANDMUX_TEST_CAPTURE_NO_OVERLAY=1 "$SANDMUX" run --config "$cfg" -- sh -c 'echo ran > ran' 2>&1)
rc=$?
same "capture: without overlayfs the run fails" "$rc" "1"
contains "capture: without overlayfs it says why" "$out" "capture: mount an overlay on"
refuse "capture: without overlayfs nothing ran" test -e ran
exit $T_FAILED
