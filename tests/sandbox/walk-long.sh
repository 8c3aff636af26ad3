#!/bin/sh
# A path longer than PATH_MAX below a deny glob's prefix or in a workspace
# with ignore files cannot be matched nor bound over: the launch refuses,
# naming the step and the directory, instead of skipping it (a program
# could walk down to it by relative names and read it).
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
seg=$(printf 'd%.0s' $(seq 1 200))
# 25 levels of 200 bytes: about 5000 bytes below the workspace
# (bash: dash's cd refuses a $PWD longer than PATH_MAX)
bash -c 'mkdir -p deep && cd deep && for i in $(seq 1 25); do mkdir "$1" && cd "$1" || exit 1; done && echo LONGSECRET >key.pem' - "$seg" ||
	{ fail "make the deep tree"; exit 1; }
# walks down by relative names, never naming the whole path
reach='cd deep; for i in $(seq 1 25); do cd '"$seg"' || exit 9; done; cat key.pem'

cfg="$ws/.t/deny.json"
echo '{"profiles": {"sec": {"extends": "workspace", "deny": ["**/*.pem"]}}, "profile": "sec"}' >"$cfg"
sbx_out out --config "$cfg" -- bash -c "$reach"; rc=$?
refuse "deny glob: the launch is refused" test "$rc" = 0
contains "deny glob: names the step and PATH_MAX" "$out" "mount: walk the deny globs: a name in $ws/deep/"
contains "deny glob: says why" "$out" "longer than PATH_MAX"
case "$out" in *LONGSECRET*) fail "deny glob: the deep match is not read" ;; *) ok "deny glob: the deep match is not read" ;; esac

echo 'key.pem' >.sandmuxignore
sbx_out out -- bash -c "$reach"; rc=$?
refuse "ignore file: the launch is refused" test "$rc" = 0
contains "ignore file: names the step" "$out" "mount: walk the workspace for the ignore files: a name in $ws/deep/"
case "$out" in *LONGSECRET*) fail "ignore file: the deep match is not read" ;; *) ok "ignore file: the deep match is not read" ;; esac
rm -f .sandmuxignore

# without a rule that walks there, the deep tree is nobody's business
sbx_out out -- sh -c 'echo fine'
same "no walk there: the launch goes on" "$out" "fine"
exit $T_FAILED
