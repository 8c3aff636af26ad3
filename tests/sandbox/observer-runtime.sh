#!/bin/sh
# What Landlock grants outside the policy's lists, the observer must not
# deny either: listing /dev under strict, and the shared build cache (also
# with disableTmpWrite). Checked from outside: the cache file is really on
# the host, beside the session temp dirs.
. "$TESTS/sandbox/common.inc"
check "strict: ls /dev works with the observer on" sbx --sandbox strict -- ls /dev/null /dev
cfg="$ws/.t/cache.json"
echo '{"enableSharedBuildCache": true, "disableTmpWrite": true}' >"$cfg"
check "shared cache writable with the observer on" sbx --config "$cfg" -- sh -c 'echo cached > /tmp/.sandmux-cache/obs-t'
check "the cache file is on the host (outside)" sh -c "grep -q cached \"\$HOME\"/.sandmux/state/tmp/shared-cache/obs-t"
rm -f "$HOME/.sandmux/state/tmp/shared-cache/obs-t"
refuse "disableTmpWrite still holds for the rest of /tmp" sbx --config "$cfg" -- sh -c 'echo x > /tmp/other'
exit $T_FAILED
