#!/bin/sh
# deny globs: matches existing at launch are unreadable, unwritable and
# cannot be renamed, linked or reached through a symlink.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
mkdir -p keys deep/er
echo PEMSECRET >keys/server.pem
echo PEMSECRET2 >deep/er/client.pem
echo ENVSECRET >.env
echo public >readme.txt
cfg="$ws/.t/deny.json"
cat >"$cfg" <<'J'
{"profiles": {"sec": {"extends": "workspace", "deny": ["**/*.pem", ".env"]}}, "profile": "sec"}
J
run() { sbx --config "$cfg" -- sh -c "$1" 2>/dev/null; }

out=$(run 'cat keys/server.pem deep/er/client.pem .env')
case "$out" in *SECRET*) fail "deny: matches are unreadable"; echo "#   $out" ;; *) ok "deny: matches are unreadable" ;; esac
check "deny: other files readable" sh -c "[ \"\$(cd '$ws' && '$SANDMUX' run --config '$cfg' -- cat readme.txt 2>/dev/null)\" = public ]"
out=$(run 'mv keys/server.pem stolen; cat stolen; mv .env env2; cat env2')
case "$out" in *SECRET*) fail "deny: the rename trick reads nothing"; echo "#   $out" ;; *) ok "deny: the rename trick reads nothing" ;; esac
check "deny: the file stays where it was" test -f keys/server.pem -a -f .env
refuse "deny: nothing was renamed" test -e stolen -o -e env2
out=$(run 'ln -s keys/server.pem link; cat link; ln keys/server.pem hard; cat hard; cp keys/server.pem copy; cat copy')
case "$out" in *SECRET*) fail "deny: symlink, hard link and copy read nothing"; echo "#   $out" ;; *) ok "deny: symlink, hard link and copy read nothing" ;; esac
refuse "deny: no hard link was made" test -e hard
ln -s keys/server.pem outlink
out=$(run 'cat outlink')
case "$out" in *SECRET*) fail "deny: a symlink made outside reads nothing"; echo "#   $out" ;; *) ok "deny: a symlink made outside reads nothing" ;; esac
run 'echo overwritten > keys/server.pem; echo x >> .env; rm -f .env keys/server.pem'
same "deny: matches unchanged and not removed" "$(cat keys/server.pem .env | tr '\n' ' ')" "PEMSECRET ENVSECRET "
run 'rm -rf keys'
check "deny: rm -rf of the directory keeps the match" test -f keys/server.pem
exit $T_FAILED
