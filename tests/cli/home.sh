#!/bin/sh
# With HOME unset or not absolute, every verb that reads or writes
# sandmux's files (~/.sandmux/...) refuses with one line naming the verb
# and HOME, and nothing is written: not /.sandmux (an "always" answer once
# went to /.sandmux/sandbox.json), not a .sandmux relative to the cwd.
. "$TESTS/lib.sh"

unset SANDMUX_SANDBOX
ws=$(t_tmpdir); ws=$(cd "$ws" && pwd -P)
mkdir -p "$ws/.sandmux"
echo '{}' >"$ws/.sandmux/sandbox.json"
cd "$ws" || exit 1
root_before=$(ls -ld /.sandmux 2>&1)

# one line on stderr, naming the verb and what is wrong with HOME
one_line() { # one_line NAME WANT CMD...
	_n=$1; _w=$2; shift 2
	_out=$("$@" 2>&1 </dev/null); _rc=$?
	if [ "$_rc" = 0 ]; then fail "$_n: exit 0"; return; fi
	same "$_n: one line" "$(printf '%s\n' "$_out" | wc -l | tr -d ' ')" 1
	contains "$_n: says why" "$_out" "$_w"
}

for how in unset relative; do
	if [ "$how" = unset ]; then
		set -- env -u HOME "$SANDMUX"; want="HOME is not set"
	else
		set -- env HOME=rel "$SANDMUX"; want='HOME is not an absolute path ("rel")'
	fi
	one_line "$how HOME: policy show" "sandmux policy: $want" "$@" policy show
	one_line "$how HOME: policy check" "sandmux policy: $want" "$@" policy check "$ws/.sandmux/sandbox.json"
	one_line "$how HOME: trust" "sandmux trust: $want" "$@" trust
	one_line "$how HOME: agents diff" "sandmux agents: $want" "$@" agents diff
	one_line "$how HOME: captured" "sandmux captured: $want" "$@" captured list
	# a session: refused before any server starts, so no "always" answer
	# can be written anywhere
	if command -v script >/dev/null; then
		out=$(script -qec "$* --sandbox workspace" /dev/null 2>&1 </dev/null)
		contains "$how HOME: a new session is refused" "$out" "sandmux: $want"
	fi
done
one_line "unset HOME: run" "HOME: must be an absolute path" env -u HOME "$SANDMUX" run -- true

same "nothing made at /.sandmux" "$(ls -ld /.sandmux 2>&1)" "$root_before"
refuse "no .sandmux relative to the cwd" test -e "$ws/rel"
same "the repo's .sandmux is untouched" "$(ls -A "$ws/.sandmux")" "sandbox.json"
