#!/bin/sh
# The environment policy as the command sees it: strict drops *KEY*,
# *SECRET*, *TOKEN* names by default, workspace passes them unless told,
# and sandmux sets SANDMUX_SANDBOX, SANDMUX_ORIG_UID/GID and TMPDIR.
. "$TESTS/sandbox/common.inc"
export OPENAI_API_KEY=k1 MY_SECRET=s1 GH_TOKEN=t1 PLAIN_VAR=p1
names() { sbx "$@" -- env 2>/dev/null | cut -d= -f1 | grep -E '^(OPENAI_API_KEY|MY_SECRET|GH_TOKEN|PLAIN_VAR)$' | sort | tr '\n' ' '; }
same "strict: default excludes remove KEY/SECRET/TOKEN" "$(names --sandbox strict)" "PLAIN_VAR "
same "workspace: the environment passes untouched" "$(names)" "GH_TOKEN MY_SECRET OPENAI_API_KEY PLAIN_VAR "
cfg="$ws/.t/env.json"
echo '{"env": {"ignore_default_excludes": false}}' >"$cfg"
same "workspace + ignore_default_excludes false: removed" "$(names --config "$cfg")" "PLAIN_VAR "
out=$(sbx --sandbox strict -- sh -c 'echo $SANDMUX_SANDBOX $SANDMUX_ORIG_UID $SANDMUX_ORIG_GID $TMPDIR' 2>/dev/null)
same "sandmux's own variables" "$out" "strict $(id -u) $(id -g) /tmp"
out=$(sbx --sandbox strict -- sh -c 'cat /proc/[0-9]*/environ 2>/dev/null | tr "\0" "\n" | grep -c "^MY_SECRET="' 2>/dev/null)
same "strict: no process inside shows the secret in /proc" "$out" "0"
exit $T_FAILED
