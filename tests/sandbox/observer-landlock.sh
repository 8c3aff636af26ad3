#!/bin/sh
# The observer is no way around Landlock: what it lets through ("continue")
# is still decided by Landlock and the mounts. A path rewritten in memory
# while the call waits, a symlink and a hard link out of the workspace,
# and a rename into a protected path all fail, checked from outside; a
# symlink into the workspace is no false denial.
. "$TESTS/sandbox/common.inc"
probe="$HOME/.sandmux-obs-$$"
rep="$ws/.t/report.json"
trap 't_cleanup; rm -rf "$probe"' EXIT
mkdir -p "$probe" && chmod 777 "$probe"
flat() { tr -d '\t\n' <"$1"; }
race="$ws/.t/observer-race"
cc -O1 -pthread -o "$race" "$TESTS/sandbox/observer-race.c" || { fail "build the race helper"; exit 1; }

# The observer decides on the path it read; the kernel then reads it again.
sbx_out out -- "$race" "$ws/good" "$probe/evil" 3000
contains "race: the refused file is never created (inside)" "$out" "escaped: no"
refuse "race: the refused file is never created (outside)" test -e "$probe/evil"
check "race: the allowed file was created" test -e "$ws/good"

# A hard link of an outside file into the workspace: the observer checks
# the new name (allowed); Landlock refuses the link (no REFER outside).
echo outside >"$probe/f" && chmod 666 "$probe/f"
sbx -- ln "$probe/f" "$ws/hl" 2>/dev/null
refuse "hard link from outside: not created" test -e "$ws/hl"
sbx -- sh -c "echo changed > hl" 2>/dev/null
same "hard link from outside: the outside file is unchanged" "$(cat "$probe/f")" "outside"

# A symlink in the workspace to the outside: the observer lets the write
# go on as written (in the workspace), Landlock refuses it at its real place.
ln -s "$probe" "$ws/out"
sbx -- sh -c 'echo x > out/via-link' 2>/dev/null
refuse "symlink out of the workspace: not created" test -e "$probe/via-link"
# A symlink outside to the workspace: denied as written, allowed where it
# leads; the observer resolves it as the process would: no false denial.
ln -s "$ws" "$probe/in"
sbx --report "$rep" -- sh -c "echo x > '$probe/in/via-link'"
check "symlink into the workspace: written" test -e "$ws/via-link"
contains "symlink into the workspace: no denial" "$(flat "$rep")" '"denials":[]'

# A rename into a protected path (.git/hooks) is denied and reported.
mkdir -p "$ws/.git/hooks"
sbx --report "$rep" -- sh -c 'echo "#!/bin/sh" > hook && mv hook .git/hooks/pre-commit' 2>/dev/null
refuse "rename into .git/hooks: not there" test -e "$ws/.git/hooks/pre-commit"
check "rename into .git/hooks: the source stays" test -e "$ws/hook"
r=$(flat "$rep")
contains "rename into .git/hooks: reported" "$r" "\"op\":\"rename\",\"target\":\"$ws/.git/hooks/pre-commit\""
contains "rename into .git/hooks: the rule" "$r" 'protected path: .git/hooks/**'
contains "rename into .git/hooks: nothing to suggest" "$r" '"layer":"observer","suggest":{}'
exit $T_FAILED
