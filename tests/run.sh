#!/bin/sh
# Runs every test and prints one closing line "N passed, N failed".
# Unit tests run plain and under ASan/UBSan; tests/sandbox/*.sh run as the
# caller and, when the caller is root, again as an unprivileged user that
# this script creates; tests/e2e/*.sh drive sandmux inside tmux.
# With arguments (tests/run.sh tests/sandbox/deny.sh ...), runs only those
# scripts, the same two ways, and no unit tests.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
log=$(mktemp)
pass=0; failn=0
TEST_USER=${SANDMUX_TEST_USER:-sandmux-test}

count() { # count FILE: add its ok / not ok lines to the totals
	p=$(grep -c '^ok - ' "$1"); f=$(grep -c '^not ok - ' "$1")
	pass=$((pass + p)); failn=$((failn + f))
}

units="build/tests/test_* build/asan/tests/test_*"
scripts="tests/cli/*.sh tests/sandbox/*.sh tests/e2e/*.sh"
[ $# -gt 0 ] && { units=""; scripts="$*"; }
for t in $units; do
	[ -x "$t" ] || continue
	if "$t" >"$log" 2>&1; then r=0; else r=1; fi
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	[ -n "$p" ] || { p=0; f=1; }
	[ "$r" = 0 ] || [ "$f" != 0 ] || f=1 # a crash after the summary still fails
	pass=$((pass + p)); failn=$((failn + f))
	echo "unit $t: $p passed, $f failed"
	[ "$r" = 0 ] || sed 's/^/#   /' "$log" | tail -30
done

# The unprivileged runs need a copy of the tree that the test user can read.
stage=""
if [ "$(id -u)" = 0 ]; then
	id "$TEST_USER" >/dev/null 2>&1 || useradd -m -s /bin/bash "$TEST_USER" || { echo "cannot create $TEST_USER"; exit 1; }
	stage=$(mktemp -d /tmp/sandmux-stage.XXXXXX)
	cp -r sandmux tests "$stage"/ && chmod -R a+rX "$stage"
fi

run_script() { # run_script SCRIPT AS(root|user|self)
	s=$1; who=$2
	if [ "$who" = user ]; then
		runuser -u "$TEST_USER" -- env -i PATH="$PATH" HOME="$(getent passwd "$TEST_USER" | cut -d: -f6)" \
			USER="$TEST_USER" TERM="${TERM:-xterm}" SANDMUX="$stage/sandmux" TESTS="$stage/tests" \
			sh "$stage/$s" >"$log" 2>&1
	else
		SANDMUX="$top/sandmux" TESTS="$top/tests" sh "$s" >"$log" 2>&1
	fi
	rc=$?
	count "$log"
	grep -q '^not ok - ' "$log" || { [ "$rc" = 0 ] || { echo "not ok - $s exited $rc" >>"$log"; failn=$((failn + 1)); }; }
	echo "== $s ($who): $(grep -c '^ok - ' "$log") ok, $(grep -c '^not ok - ' "$log") not ok"
	grep -E '^(not ok|#)' "$log" | head -40
}

for s in $scripts; do
	[ -f "$s" ] || continue
	run_script "$s" self
	[ -n "$stage" ] && case "$s" in tests/sandbox/*|tests/e2e/user-*) run_script "$s" user ;; esac
done

[ -n "$stage" ] && rm -rf "$stage"
rm -f "$log"
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]
