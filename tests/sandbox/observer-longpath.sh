#!/bin/sh
# A path argument longer than the observer's first read of it (256
# bytes; the rest of its page, then page by page): denied and reported
# whole, at lengths on both sides of that first read and of a page, so
# that wherever the string lies in the caller's memory it crosses a
# piece or a page. The files are checked from outside.
. "$TESTS/sandbox/common.inc"
probe="$HOME/.sandmux-obslong-$$"
rep="$ws/.t/report.json"
trap 't_cleanup; rm -rf "$probe"' EXIT
seg=$(printf 'd%.0s' $(seq 1 200))
for n in 1 2 6 17; do
	dir="$probe"
	for i in $(seq 1 $n); do dir="$dir/$seg"; done
	# a directory the user may write to outside the sandbox: only the sandbox says no
	mkdir -p "$dir" && chmod -R 777 "$probe"
	target="$dir/new"
	sbx --report "$rep" -- sh -c "echo x > '$target'" 2>/dev/null
	same "$n x 200 bytes (${#target} in all): the command sees the failure" "$?" "2"
	refuse "$n x 200 bytes: the file is not created (seen from outside)" test -e "$target"
	contains "$n x 200 bytes: the denial names the whole path" "$(tr -d '\t\n' <"$rep")" \
		"\"op\":\"create\",\"target\":\"$target\",\"rule\":\"not under a writable path\",\"layer\":\"observer\""
done
exit $T_FAILED
