#!/bin/sh
# OPTIONAL, not part of `make test`: it talks to the real npm registry.
# `npm view PACKAGE version` inside `sandmux run` succeeds when the
# registry host is in networkPolicy.allow, and fails with one denial line
# when it is not.
#   SANDMUX=./sandmux sh tests/net-optional/npm.sh [PACKAGE]
# REGISTRY=URL points it at another registry (the default is
# https://registry.npmjs.org/). Prints ok / not ok lines like the tests.
: "${SANDMUX:=./sandmux}"
: "${REGISTRY:=https://registry.npmjs.org/}"
pkg=${1:-left-pad}
command -v npm >/dev/null || { echo "not ok - npm is not installed"; exit 1; }
SANDMUX=$(cd "$(dirname "$SANDMUX")" && pwd)/$(basename "$SANDMUX")
host=$(echo "$REGISTRY" | sed -E 's#^[a-zA-Z]+://([^/:]+).*#\1#')
case "$REGISTRY" in https:*) port=443 ;; *) port=80 ;; esac
port=$(echo "$REGISTRY" | sed -nE 's#^[a-zA-Z]+://[^/:]+:([0-9]+).*#\1#p' | grep . || echo "$port")
ws=$(mktemp -d "${TMPDIR:-/tmp}/sandmux-npm.XXXXXX")
trap 'rm -rf "$ws"' EXIT
failed=0
printf '{"networkPolicy": {"allow": ["%s"]}}\n' "$host" >"$ws/allow.json"
# An allow list without the registry (an empty one means no network at
# all for the workspace profile: no proxy, so nothing to report).
printf '{"networkPolicy": {"allow": ["other.invalid"]}}\n' >"$ws/deny.json"

# npm_config_cache: a fresh cache in the workspace per run, so the second
# run cannot answer from what the first one fetched.
view() { # view POLICY CACHE
	(cd "$ws" && npm_config_cache="$ws/$2" npm_config_update_notifier=false \
		"$SANDMUX" run --config "$ws/$1" -- npm view "$pkg" version --registry "$REGISTRY" --fetch-retries=0)
}
out=$(view allow.json cache1 2>"$ws/err1")
if echo "$out" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+'; then
	echo "ok - npm view $pkg version through the proxy: $out"
else
	echo "not ok - npm view $pkg version through the proxy"; sed 's/^/#   /' "$ws/err1" | head -20; failed=1
fi
if view deny.json cache2 >/dev/null 2>"$ws/err2"; then
	echo "not ok - npm view fails when $host is not allowed"; failed=1
else
	echo "ok - npm view fails when $host is not allowed"
fi
want="sandmux: denied connect $host:$port (networkPolicy: not in allow list) — allow with: \"networkPolicy\": {\"allow\": [\"$host\"]}"
if [ "$(grep -cF "$want" "$ws/err2")" = 1 ]; then
	echo "ok - one denial line naming $host"
else
	echo "not ok - one denial line naming $host"; echo "#   want: $want"; sed 's/^/#   /' "$ws/err2" | tail -20; failed=1
fi
exit $failed
