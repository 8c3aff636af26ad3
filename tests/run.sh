#!/bin/sh
# Runs every test and prints one closing line "N passed, N failed".
# Unit tests run plain and under ASan/UBSan; tests/sandbox/*.sh run as the
# caller and, when the caller is root, again as an unprivileged user that
# this script creates; tests/e2e/*.sh drive sandmux inside tmux.
# With arguments (tests/run.sh tests/sandbox/deny.sh ...), runs only those
# scripts, the same two ways, and no unit tests.
# The end-to-end tests run a second time against the whole binary built
# under ASan/UBSan (build/asan/sandmux, `make sandmux-asan`), when it is
# there; a sanitizer report fails the run. `tests/run.sh --asan SCRIPT...`
# runs only the named scripts, that way.
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
asan_scripts="tests/e2e/*.sh"
[ -x build/asan/sandmux ] || asan_scripts=""
if [ "$1" = --asan ]; then
	shift; units=""; scripts=""; asan_scripts="$*"
elif [ $# -gt 0 ]; then
	units=""; scripts="$*"; asan_scripts=""
fi
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
	[ -n "$asan_scripts" ] && cp build/asan/sandmux "$stage/sandmux-asan"
fi

run_script() { # run_script SCRIPT AS(root|user|self) [asan]
	s=$1; who=$2; bin=sandmux
	[ "$3" = asan ] && bin=sandmux-asan
	if [ "$who" = user ]; then
		runuser -u "$TEST_USER" -- env -i PATH="$PATH" HOME="$(getent passwd "$TEST_USER" | cut -d: -f6)" \
			USER="$TEST_USER" TERM="${TERM:-xterm}" SANDMUX="$stage/$bin" SANDMUX_PLAIN="$stage/sandmux" TESTS="$stage/tests" \
			${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
			sh "$stage/$s" >"$log" 2>&1
	else
		[ "$3" = asan ] && bin=build/asan/sandmux
		SANDMUX="$top/$bin" SANDMUX_PLAIN="$top/sandmux" TESTS="$top/tests" sh "$s" >"$log" 2>&1
	fi
	rc=$?
	count "$log"
	grep -q '^not ok - ' "$log" || { [ "$rc" = 0 ] || { echo "not ok - $s exited $rc" >>"$log"; failn=$((failn + 1)); }; }
	echo "== $s ($who${3:+, $3}): $(grep -c '^ok - ' "$log") ok, $(grep -c '^not ok - ' "$log") not ok"
	grep -E '^(not ok|#)' "$log" | head -40
}

for s in $scripts; do
	[ -f "$s" ] || continue
	run_script "$s" self
	[ -n "$stage" ] && case "$s" in tests/sandbox/*|tests/e2e/user-*) run_script "$s" user ;; esac
done

# The sanitizer pass: every report (the server's stderr is /dev/null, so
# they go to files) fails the run and is shown.
if [ -n "$asan_scripts" ]; then
	asandir=$(mktemp -d /tmp/sandmux-asan.XXXXXX) && chmod 1777 "$asandir"
	export ASAN_OPTIONS="detect_leaks=0:log_path=$asandir/asan" UBSAN_OPTIONS="print_stacktrace=1:log_path=$asandir/ubsan"
	for s in $asan_scripts; do
		[ -f "$s" ] || continue
		run_script "$s" self asan
		[ -n "$stage" ] && case "$s" in tests/e2e/user-*) run_script "$s" user asan ;; esac
	done
	for r in "$asandir"/*; do
		[ -f "$r" ] || continue
		echo "not ok - sanitizer report $(basename "$r")"; failn=$((failn + 1))
		sed 's/^/#   /' "$r" | head -40
	done
	rm -rf "$asandir"
	unset ASAN_OPTIONS UBSAN_OPTIONS
fi

[ -n "$stage" ] && rm -rf "$stage"
rm -f "$log"
echo "$pass passed, $failn failed"
[ "$failn" = 0 ]
