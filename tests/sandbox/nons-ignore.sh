#!/bin/sh
# The weaker sandbox (no user namespaces, so no bind-overs): what the
# ignore files match is refused by the observer, with the file and line,
# and a `!` still brings a file back. Checked from outside.
. "$TESTS/sandbox/nons.inc"
printf '*.env\n!keep.env\n' >"$ws/.cursorignore"
echo ENVSECRET >"$ws/a.env"
echo KEEP >"$ws/keep.env"
chmod -R a+rwX "$ws"
out=$(wrun -- sh -c 'cat a.env; cat keep.env; echo x > a.env; echo NEWSECRET > new.env; cat new.env' 2>&1)
case "$out" in *SECRET*) fail "weaker sandbox: ignored files unreadable"; echo "$out" | sed 's/^/#   /' ;; *) ok "weaker sandbox: ignored files unreadable" ;; esac
contains "weaker sandbox: keep.env reads" "$out" "KEEP"
contains "weaker sandbox: the denial names .cursorignore:1" "$out" "a.env (.cursorignore:1: *.env)"
same "weaker sandbox: a.env unchanged (outside)" "$(cat "$ws/a.env")" ENVSECRET
refuse "weaker sandbox: no new.env (outside)" test -e "$ws/new.env"
exit $T_FAILED
