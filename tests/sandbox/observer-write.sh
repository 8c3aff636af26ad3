#!/bin/sh
# The observer under `sandmux run`: a write outside the workspace is
# denied, reported with its rule (--report, the hint line, denials.jsonl),
# coalesced, and the file is not created (checked from outside).
. "$TESTS/sandbox/common.inc"
probe="$HOME/.sandmux-obs-$$"
log="$HOME/.sandmux/state/denials.jsonl"
rep="$ws/.t/report.json"
trap 't_cleanup; rm -rf "$probe"' EXIT
# A directory the user may write to outside the sandbox: only the sandbox says no.
mkdir -p "$probe" && chmod 777 "$probe"
flat() { tr -d '\t\n' <"$1"; }

sbx --report "$rep" -- sh -c "echo x > '$probe/new'" 2>/dev/null
same "observer: the command sees the failure" "$?" "2"
refuse "observer: the file is not created" test -e "$probe/new"
r=$(flat "$rep")
contains "report: the command" "$r" '"command":["sh", "-c", "echo x > '"'$probe/new'"'"]'
contains "report: the status" "$r" '"status":2'
contains "report: the full sandbox, not the weaker one" "$r" '"weaker_sandbox":false'
contains "report: the denial and its rule" "$r" \
	"\"op\":\"create\",\"target\":\"$probe/new\",\"rule\":\"not under a writable path\",\"layer\":\"observer\""
contains "report: the smallest broadening, exactly the file" "$r" "\"suggest\":{\"additionalReadwritePaths\":[\"$probe/new\"]}"
contains "report: the policy change" "$r" "}],\"suggest\":{\"additionalReadwritePaths\":[\"$probe/new\"]}"
line=$(grep -F "\"target\":\"$probe/new\"" "$log" 2>/dev/null | tail -1)
contains "denials.jsonl: the event" "$line" '"op":"create"'
contains "denials.jsonl: the rule and the layer" "$line" '"rule":"not under a writable path","layer":"observer"'
contains "denials.jsonl: DESIGN.md fields" "$line" '"pane":0,"pid":'
contains "denials.jsonl: the suggestion" "$line" "\"suggest\":{\"additionalReadwritePaths\":[\"$probe/new\"]}"

sbx_out out -- sh -c "echo x > '$probe/new2'"
contains "hint line on stderr without --report" "$out" \
	"sandmux: denied create $probe/new2 (not under a writable path) — allow with: \"additionalReadwritePaths\": [\"$probe/new2\"]"
refuse "hint run: the file is not created" test -e "$probe/new2"

sbx --report "$rep" -- sh -c "for i in 1 2 3; do echo x > '$probe/c'; done; mkdir '$probe/d'; touch '$probe/x' '$probe/y'" 2>/dev/null
r=$(flat "$rep")
contains "coalesced: same op+target counts up" "$r" "\"target\":\"$probe/c\",\"rule\":\"not under a writable path\",\"layer\":\"observer\",\"suggest\":{\"additionalReadwritePaths\":[\"$probe/c\"]},\"count\":3"
same "coalesced: one entry per op+target" "$(echo "$r" | grep -o '"count":' | wc -l | tr -d ' ')" "4"
contains "report: one merged suggestion, each path exactly" "$r" "\"suggest\":{\"additionalReadwritePaths\":[\"$probe/c\", \"$probe/d\", \"$probe/x\", \"$probe/y\"]},\"observer\""
same "nothing was created outside" "$(ls -A "$probe")" ""

echo keep >"$probe/existing" && chmod 666 "$probe/existing"
sbx --report "$rep" -- sh -c "echo x >> '$probe/existing'; rm -f '$probe/existing'; chmod 600 '$probe/existing'" 2>/dev/null
r=$(flat "$rep")
contains "append to an existing file: op write" "$r" "\"op\":\"write\",\"target\":\"$probe/existing\""
contains "removal: op remove" "$r" "\"op\":\"remove\",\"target\":\"$probe/existing\""
same "the existing file is untouched" "$(cat "$probe/existing"; stat -c %a "$probe/existing")" "keep
666"

check "workspace writes still go through" sbx -- sh -c 'echo in > in.txt && mkdir d && mv in.txt d/ && ln -s d l && rm -r d l'
refuse "and leave nothing behind" test -e "$ws/d"
# A creation in the directory of the one before is decided on where that
# directory led then (not resolved again); a directory replaced by a
# symlink out of the workspace leads elsewhere at once (noclobber: O_EXCL,
# the creations that may be decided so).
sbx --report "$rep" -- sh -c "set -C; mkdir rd && echo 1 > rd/a && echo 2 > rd/b && rm -r rd && ln -s '$probe' rd && echo 3 > rd/c; rm rd" 2>/dev/null
refuse "directory replaced by a symlink: nothing made outside" test -e "$probe/c"
contains "directory replaced by a symlink: the creation is denied where it leads" "$(flat "$rep")" \
	"\"op\":\"create\",\"target\":\"$probe/c\",\"rule\":\"not under a writable path\""
# A directory fd the observer has read before is read again once it names
# another open file: the same fd number reopened on a directory outside.
if command -v python3 >/dev/null; then
	mkdir -p "$ws/fdd"
	sbx --report "$rep" -- python3 -c "
import os
d = os.open('fdd', os.O_RDONLY | os.O_DIRECTORY)
for n in ('a', 'b'):
    os.close(os.open(n, os.O_CREAT | os.O_EXCL | os.O_WRONLY, dir_fd=d))
os.close(d)
assert os.open('$probe', os.O_RDONLY | os.O_DIRECTORY) == d
try:
    os.open('c', os.O_CREAT | os.O_EXCL | os.O_WRONLY, dir_fd=d)
except OSError:
    pass" 2>/dev/null
	same "dirfd reused: the files made through it before" "$(ls "$ws/fdd" | tr '\n' ' ')" "a b "
	refuse "dirfd reused: nothing made outside" test -e "$probe/c"
	contains "dirfd reused: the creation is denied where the fd leads now" "$(flat "$rep")" \
		"\"op\":\"create\",\"target\":\"$probe/c\",\"rule\":\"not under a writable path\""
fi
sbx_out out --report - -- true
contains "--report - writes to stderr" "$out" '"denials":	[]'
exit $T_FAILED
