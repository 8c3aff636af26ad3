#!/bin/sh
# The observer on reads, where the profile restricts them (strict) or has
# `deny` entries: the read fails, is reported with its rule, and the
# suggestion is the path for strict, nothing for a deny match.
. "$TESTS/sandbox/common.inc"
probe="$HOME/.sandmux-obs-$$"
rep="$ws/.t/report.json"
trap 't_cleanup; rm -rf "$probe"' EXIT
mkdir -p "$probe" && echo hidden-content >"$probe/secret" && chmod -R a+rX "$probe"
flat() { tr -d '\t\n' <"$1"; }

sbx_out out --sandbox strict --report "$rep" -- cat "$probe/secret"
case "$out" in *hidden-content*) fail "strict: the read fails" ;; *) ok "strict: the read fails" ;; esac
r=$(flat "$rep")
contains "strict: reported as a read with its rule" "$r" \
	"\"op\":\"read\",\"target\":\"$probe/secret\",\"rule\":\"not under a readable path\",\"layer\":\"observer\""
contains "strict: the suggestion is the path" "$r" "\"suggest\":{\"additionalReadonlyPaths\":[\"$probe/secret\"]}"
sbx_out out --sandbox strict --report "$rep" -- sh -c "cat /etc/hostname >/dev/null && cat '$probe/none' 2>/dev/null; exit 0"
contains "strict: system paths and missing files are not reported" "$(flat "$rep")" '"denials":[]'

echo pem-content >"$ws/id.pem"
cfg="$ws/.t/deny.json"
echo '{"profile": "nopem", "profiles": {"nopem": {"extends": "workspace", "deny": ["**/*.pem"]}}}' >"$cfg"
sbx_out out --config "$cfg" --report "$rep" -- cat id.pem
case "$out" in *pem-content*) fail "deny: the read fails" ;; *) ok "deny: the read fails" ;; esac
r=$(flat "$rep")
contains "deny: reported with the deny rule" "$r" "\"op\":\"read\",\"target\":\"$ws/id.pem\""
contains "deny: the rule names the glob" "$r" '*.pem'
contains "deny: nothing to suggest" "$r" '"layer":"observer","suggest":{}'
exit $T_FAILED
