#!/bin/sh
# The weaker sandbox (no user namespaces, so no bind-overs): the git
# metadata a host git would run code from (a commondir, a nested repo's
# config, a gitlink file, one made where no .git was) is held by the
# observer alone. Checked by running git outside afterwards with a
# core.fsmonitor that would leave a marker.
. "$TESTS/sandbox/nons.inc"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
M="$ws/.t/PWNED"
EVIL_CFG=$(printf '[core]\n\tfsmonitor = "touch %s; false"' "$M")
export EVIL_CFG
# the files are the sandbox's uid's: host git must not stop at ownership
hgit() { git -c safe.directory='*' "$@"; }
host_clean() { # NAME DIR: host git status in DIR leaves no marker
	rm -f "$M"
	(cd "$2" && hgit status >/dev/null 2>&1)
	refuse "weaker sandbox, $1: host git ran none of the sandbox's code" test -e "$M"
}
cd "$ws" || exit 1
hgit init -q g && hgit -C g commit -q --allow-empty -m x && hgit init -q g/sub && hgit init -q up &&
	hgit -C up commit -q --allow-empty -m u &&
	(cd g && hgit -c protocol.file.allow=always submodule add -q "$ws/up" sm && hgit commit -qm sm) && mkdir w
cp g/sub/.git/config .t/sub.cfg && cp g/sm/.git .t/sm.link
printf '%s\n' "$EVIL_CFG" >.t/ctl.cfg
chmod -R a+rwX "$ws"
ws_run() { (cd "$1" && shift && weak "$SANDMUX" run --config "$ws/.t/policy.json" "$@") 2>/dev/null; }
ws_run g -- sh -c 'mkdir evil && cp -r .git/objects .git/refs .git/HEAD evil/ && printf "%s\n" "$EVIL_CFG" > evil/config
	echo ../evil > .git/commondir; printf "%s\n" "$EVIL_CFG" >> sub/.git/config
	printf "gitdir: ../evil\n" > sm/.git; mv sm sm.old; mkdir -p sm; printf "gitdir: ../evil\n" > sm/.git'
refuse "weaker sandbox: no commondir made" test -e g/.git/commondir
check "weaker sandbox: the nested repo's config unchanged" cmp -s g/sub/.git/config .t/sub.cfg
check "weaker sandbox: the submodule's gitlink unchanged" cmp -s g/sm/.git .t/sm.link
host_clean "commondir and gitlink" g
host_clean "nested repo" g/sub
ws_run w -- sh -c 'mkdir evil && git init -q --bare evil && printf "%s\n" "$EVIL_CFG" > evil/config; printf "gitdir: evil\n" > .git'
refuse "weaker sandbox: no gitlink made where no .git was" test -e w/.git
# control: the marker is what host git leaves for such a config
cat .t/ctl.cfg >>g/sub/.git/config
rm -f "$M"
(cd g/sub && hgit status >/dev/null 2>&1)
check "weaker sandbox: control: host git does run a core.fsmonitor" test -e "$M"
exit $T_FAILED
