#!/bin/sh
# capture mode, the end of a run whose layer holds nothing: the layer is
# gone by the time `sandmux run` returns, and whatever removes its
# directories afterwards holds neither the caller's descriptors nor its
# working directory (a workspace unmounted right after the run must not
# be busy).
. "$TESTS/sandbox/common.inc"
cfg="$ws/.t/capture-end.json"
mkdir -p "$ws/.t" && echo '{"outsideWrites": "capture"}' >"$cfg"
rep="$ws/.t/report.json"
out=$(sbx --config "$cfg" --report "$rep" -- true 2>&1)
same "capture-end: the run succeeded" "$?" "0"
layer=$(sed -n 's/.*"capture_layer":[[:space:]]*"\(.*\)".*/\1/p' "$rep")
same "capture-end: an empty layer is not named" "$layer" ""
# every process of ours whose working directory is the workspace, right
# after the run returned (the caller's own shell is not among them)
busy=""
for p in /proc/[0-9]*; do
	[ "$p" = "/proc/$$" ] && continue
	[ "$(readlink "$p/cwd" 2>/dev/null)" = "$ws" ] && busy="$busy ${p#/proc/}:$(cat "$p/comm" 2>/dev/null)"
done
same "capture-end: nothing left holds the workspace as its directory" "$busy" ""
# root: a workspace that is a mount of its own unmounts at once after
# the run (three times: whatever removes the layer must be done with it)
if [ "$(id -u)" = 0 ]; then
	mnt="$ws/.t/mnt"
	mkdir -p "$mnt"
	busy=0
	for i in 1 2 3; do
		mount -t tmpfs tmpfs "$mnt" || break
		(cd "$mnt" && "$SANDMUX" run --config "$cfg" -- true) >/dev/null 2>&1
		umount "$mnt" 2>/dev/null || { busy=$((busy + 1)); umount -l "$mnt"; }
	done
	same "capture-end: the workspace's mount is never busy after the run" "$busy" "0"
fi
left=$(ls -a "$HOME/.sandmux/state/capture/run" 2>/dev/null | grep -v '^\.\.\?$' | grep -v '^\.gone-')
same "capture-end: no layer is left under its name" "$left" ""
exit $T_FAILED
