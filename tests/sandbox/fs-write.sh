#!/bin/sh
# Writes: the workspace yes; $HOME, /etc and other writable places no; the
# temp dir yes unless disableTmpWrite; read-only writes nothing; strict
# reads no $HOME. Every outcome is checked from outside the sandbox.
. "$TESTS/sandbox/common.inc"
tag=sandmux-t-$$
t_dir other
home_probe="$HOME/.$tag"
trap 't_cleanup; rm -rf "$home_probe"' EXIT

sbx -- sh -c 'echo in > inside.txt'
same "workspace: write inside the workspace" "$(cat "$ws/inside.txt" 2>/dev/null)" "in"

sbx -- sh -c "echo x > '$home_probe'" 2>/dev/null
refuse "workspace: no write into \$HOME" test -e "$home_probe"
sbx -- sh -c "echo x > /etc/$tag" 2>/dev/null
refuse "workspace: no write into /etc" test -e "/etc/$tag"
sbx -- sh -c "echo x > '$other/x'" 2>/dev/null
refuse "workspace: no write into another writable dir in /tmp" test -e "$other/x"
mkdir -p "$home_probe" && chmod 777 "$home_probe"
sbx -- sh -c "echo x > '$home_probe/x'" 2>/dev/null
refuse "workspace: no write into another writable dir in \$HOME" test -e "$home_probe/x"
rm -rf "$home_probe"

sbx_out out -- sh -c "echo t > /tmp/$tag && cat /tmp/$tag && echo \$TMPDIR"
same "workspace: /tmp writable, TMPDIR=/tmp" "$(echo "$out" | tr '\n' ' ')" "t /tmp "
refuse "a run leaves nothing in the host's /tmp" test -e "/tmp/$tag"
left=$(find "$HOME/.sandmux/state/tmp" -name "$tag" 2>/dev/null)
same "a run removes its session temp dir" "$left" ""
sbx -- sh -c "echo x > /var/tmp/$tag" 2>/dev/null
refuse "nothing in the host's /var/tmp" test -e "/var/tmp/$tag"

cfg="$ws/.t/notmp.json"
echo '{"disableTmpWrite": true}' >"$cfg"
refuse "disableTmpWrite: /tmp read-only" sbx --config "$cfg" -- sh -c "echo x > /tmp/x"
check "disableTmpWrite: the workspace stays writable" sbx --config "$cfg" -- sh -c "echo x > ws.txt"

echo '{"enableSharedBuildCache": true, "disableTmpWrite": true}' >"$ws/.t/cache.json"
out=$(sbx --no-observer --config "$ws/.t/cache.json" -- sh -c 'mkdir -p "$PIP_CACHE_DIR" && echo c > "$PIP_CACHE_DIR/$0" && echo "$npm_config_cache"' "$tag" 2>&1)
same "shared build cache: variables point into it" "$out" "/tmp/.sandmux-cache/npm"
check "shared build cache: writable, also with disableTmpWrite (seen from outside)" test -f "$HOME/.sandmux/state/tmp/shared-cache/pip/$tag"
rm -f "$HOME/.sandmux/state/tmp/shared-cache/pip/$tag"

sbx --sandbox read-only -- sh -c 'echo x > ro.txt; mkdir rodir; touch inside.txt; rm -f inside.txt' 2>/dev/null
refuse "read-only: no new file in the workspace" test -e "$ws/ro.txt"
refuse "read-only: no new directory" test -e "$ws/rodir"
check "read-only: no removal" test -e "$ws/inside.txt"
check "read-only: reads the workspace" sbx --sandbox read-only -- cat inside.txt
check "read-only: /tmp still writable" sbx --sandbox read-only -- sh -c "echo x > /tmp/x"

echo secret >"$HOME/.$tag-r" && chmod 644 "$HOME/.$tag-r"
out=$(sbx --sandbox strict -- sh -c "cat '$HOME/.$tag-r'; ls -a '$HOME'" 2>/dev/null)
case "$out" in *secret*|*".$tag-r"*) fail "strict: cannot read or list \$HOME"; echo "$out" | sed 's/^/#   /' ;; *) ok "strict: cannot read or list \$HOME" ;; esac
rm -f "$HOME/.$tag-r"
check "strict: reads the workspace and /usr" sbx --sandbox strict -- sh -c 'cat inside.txt && ls /usr/bin >/dev/null'
check "strict: writes the workspace" sbx --sandbox strict -- sh -c 'echo s > strict.txt'
same "strict: the write landed" "$(cat "$ws/strict.txt" 2>/dev/null)" "s"
exit $T_FAILED
