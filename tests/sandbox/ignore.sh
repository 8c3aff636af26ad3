#!/bin/sh
# .cursorignore and .sandmuxignore: what they match is unreadable,
# unwritable and immovable inside, by the kernel (bind-overs) for matches
# that exist at launch, by the observer for those made later; `!` brings
# a file back; policy show and explain name the file and line. Every
# effect is checked from outside.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
mkdir -p secrets build sub deep/er
cat >.cursorignore <<'I'
# secrets of this checkout
*.env
secrets/
/build/out.txt
!keep.env
\#hash
/build/*.log
I
echo '*.pem' >.sandmuxignore
echo ENVSECRET1 >a.env
echo ENVSECRET2 >sub/b.env
echo KEEP >keep.env
echo DIRSECRET >secrets/key
echo OUTSECRET >build/out.txt
echo NOTIGNORED >sub/out.txt
echo HASHSECRET >'#hash'
echo PEMSECRET >deep/er/c.pem
echo public >readme.txt

for obs in "" --no-observer; do
	what="${obs:-observer on}"
	for f in a.env sub/b.env secrets/key build/out.txt '#hash' deep/er/c.pem; do
		out=$(sbx $obs -- sh -c "cat '$f' && echo READ-OK" 2>&1)
		case "$out" in
		*SECRET* | *READ-OK*) fail "$what: cat $f fails"; echo "$out" | sed 's/^/#   /' ;;
		*) ok "$what: cat $f fails" ;;
		esac
	done
	same "$what: keep.env (negated) reads" "$(sbx $obs -- cat keep.env 2>/dev/null)" KEEP
	same "$what: an anchored pattern leaves sub/out.txt" "$(sbx $obs -- cat sub/out.txt 2>/dev/null)" NOTIGNORED
	same "$what: other files read" "$(sbx $obs -- cat readme.txt 2>/dev/null)" public
	sbx $obs -- sh -c 'echo overwritten > a.env; echo x >> build/out.txt; echo x > secrets/key; rm -f sub/b.env deep/er/c.pem' 2>/dev/null
	same "$what: matches unchanged (outside)" "$(cat a.env build/out.txt secrets/key sub/b.env deep/er/c.pem | tr '\n' ' ')" \
		"ENVSECRET1 OUTSECRET DIRSECRET ENVSECRET2 PEMSECRET "
	sbx $obs -- sh -c 'mv a.env stolen1; mv secrets stolen2; mv build/out.txt stolen3; cat stolen1 stolen2/key stolen3' 2>/dev/null
	check "$what: nothing was renamed (outside)" test -f a.env -a -f secrets/key -a -f build/out.txt
	refuse "$what: no renamed copy exists (outside)" sh -c 'ls stolen1 stolen2 stolen3 2>/dev/null | grep .'
	out=$(sbx $obs -- sh -c 'ln -s a.env link; cat link; ln a.env hard; cat hard; cp a.env copy; cat copy' 2>&1)
	case "$out" in *SECRET*) fail "$what: symlink, hard link and copy read nothing"; echo "$out" | sed 's/^/#   /' ;; *) ok "$what: symlink, hard link and copy read nothing" ;; esac
	rm -f link hard copy
done

# The ignore files themselves cannot be changed from inside (the next
# launch would read them).
cp .cursorignore .t/ci.before
cp .sandmuxignore .t/si.before
sbx -- sh -c 'echo > .cursorignore; echo > .sandmuxignore; rm -f .cursorignore .sandmuxignore; mv .sandmuxignore x; mv .cursorignore y' 2>/dev/null
check "the ignore files are unchanged (outside)" sh -c 'cmp .cursorignore .t/ci.before && cmp .sandmuxignore .t/si.before'
rm -f x y

# Made after launch: from outside while the sandbox runs, and from inside.
rm -f late.env go ready
ln -s /proc/self/cwd pc
ln -s late.env y
out=$(sbx -- sh -c 'touch ready; n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done
	for f in late.env /proc/self/cwd/late.env pc/late.env pc/build/late.log y; do cat $f && echo READ-OK; done' 2>&1 &
	n=0
	while [ ! -e ready ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	echo LATESECRET >late.env
	echo LATESECRET >build/late.log
	touch go
	wait)
rm -f pc y
case "$out" in *LATESECRET* | *READ-OK*) fail "made from outside while running: unreadable inside"; echo "$out" | sed 's/^/#   /' ;; *) ok "made from outside while running: unreadable inside" ;; esac
same "made from outside: the denial names late.env and .cursorignore:2" \
	"$(echo "$out" | grep "denied read $ws/late.env.* (.cursorignore:2: \*.env)" | grep -c ' — sandmux offers no broadening')" 1
check "made from outside: the file is there (outside)" grep -q LATESECRET late.env
same "made from outside: five tries (symlinks, /proc), five refusals" "$(echo "$out" | grep -c 'Permission denied')" 5
rm -f late.env build/late.log go ready
out=$(sbx -- sh -c 'echo INSIDE > new.env; cat new.env; echo x > new.pem' 2>&1)
refuse "made from inside: no new.env nor new.pem on the host" sh -c 'ls new.env new.pem 2>/dev/null | grep .'
contains "made from inside: the denial names .cursorignore:2" "$out" "new.env (.cursorignore:2: *.env)"
contains "made from inside: the denial names .sandmuxignore:1" "$out" "new.pem (.sandmuxignore:1: *.pem)"
sbx --report "$ws/.t/report.json" -- cat a.env 2>/dev/null
contains "the report names the rule" "$(cat "$ws/.t/report.json" 2>/dev/null)" ".cursorignore:2: *.env"

# policy show and explain list them with file and line.
out=$("$SANDMUX" policy show 2>&1)
contains "policy show: *.env with file and line" "$out" ".cursorignore:2: *.env  [$ws/.cursorignore:2:1"
contains "policy show: the negation" "$out" ".cursorignore:5: !keep.env"
contains "policy show: .sandmuxignore" "$out" ".sandmuxignore:1: *.pem  [$ws/.sandmuxignore:1:1"
out=$("$SANDMUX" policy show --json 2>&1)
contains "policy show --json: the rule" "$out" '"rule":	".cursorignore:4: /build/out.txt"'
out=$("$SANDMUX" policy explain ./secrets/key 2>&1)
contains "policy explain: the rule" "$out" "rule: .cursorignore:3: secrets/"
contains "policy explain: the file and line" "$out" "from: $ws/.cursorignore:3:1 (per-repo)"
check "policy explain: keep.env is allowed" "$SANDMUX" policy explain --op read ./keep.env

# A pattern sandmux cannot honour refuses the launch, in one line.
echo 'bad[' >>.sandmuxignore
out=$(sbx -- true 2>&1)
refuse "a bad pattern refuses the launch" sbx -- true
contains "the error names file, line, column" "$out" "$ws/.sandmuxignore:2:4: pattern: unterminated '['"
rm -f .sandmuxignore && mkfifo .sandmuxignore
out=$(cd "$ws" && timeout 30 "$SANDMUX" run -- true 2>&1)
same "a FIFO as .sandmuxignore refuses the launch at once (no hang)" "$?" 2
contains "... saying so" "$out" "$ws/.sandmuxignore: not a regular file"
exit $T_FAILED
