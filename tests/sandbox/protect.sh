#!/bin/sh
# Protected paths stay read-only in a writable workspace; git still works;
# rm -rf of a directory holding a protected path fails only on that path.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
git init -q . && git config user.email t@example.com && git config user.name t
mkdir -p .vscode .sandmux .git/hooks .cursor/rules
echo hook >.git/hooks/pre-commit
echo v >.vscode/settings.json
echo '{}' >.sandmux/sandbox.json
echo r >.cursor/rules/r.md
cp .git/config "$ws/.t/config.orig"

for f in .git/hooks/pre-commit .git/config .vscode/settings.json .sandmux/sandbox.json; do
	before=$(cat "$f")
	sbx -- sh -c "echo pwned >> '$f'" 2>/dev/null
	same "protected: $f not writable" "$(cat "$f")" "$before"
	sbx -- sh -c "rm -f '$f'; mv '$f' '$f.x'" 2>/dev/null
	check "protected: $f not removable or renamable" test -f "$f"
done
sbx -- sh -c 'echo x > .git/hooks/post-checkout' 2>/dev/null
refuse "protected: no new hook" test -e .git/hooks/post-checkout
sbx -- sh -c 'mv .git/hooks .git/hooks.old; mkdir .git/hooks; echo x > .git/hooks/pre-commit' 2>/dev/null
same "protected: the hooks dir cannot be renamed aside" "$(cat .git/hooks/pre-commit)" "hook"
sbx -- sh -c 'mv .vscode .vscode.old; mv .sandmux .sandmux.old' 2>/dev/null
check "protected: .vscode and .sandmux stay" test -f .vscode/settings.json -a -f .sandmux/sandbox.json
check "writable exception: .cursor/rules" sbx -- sh -c 'echo w > .cursor/rules/new.md'
check "workspace still writable" sbx -- sh -c 'echo w > free.txt'

echo one >a.txt
check "git add and commit inside the workspace" sbx -- sh -c 'git add a.txt && git commit -qm one'
same "the commit is there, seen from outside" "$(git log --format=%s -1 2>/dev/null)" "one"
check "git config is unchanged" cmp -s .git/config "$ws/.t/config.orig"

mkdir -p sub && echo s >sub/f && cp -r .vscode sub/ 2>/dev/null
out=$(sbx -- rm -rf .git 2>&1)
check "rm -rf .git: the protected hooks survive" test -f .git/hooks/pre-commit
check "rm -rf .git: the protected config survives" test -f .git/config
refuse "rm -rf .git: the rest is removed" test -e .git/HEAD
contains "rm -rf .git: a clear error names the protected path" "$out" ".git/config"
case "$out" in *objects*) fail "rm -rf .git: errors only on protected paths"; echo "$out" | head -5 | sed 's/^/#   /' ;; *) ok "rm -rf .git: errors only on protected paths" ;; esac
# A checkout without .vscode, .sandmux or .git/hooks: they cannot be made
# and filled from inside either, also by the kernel layers alone.
for obs in "" --no-observer; do
	t_dir fresh
	(cd "$fresh" && git init -q . && rm -rf .git/hooks)
	(cd "$fresh" && "$SANDMUX" run $obs -- sh -c 'mkdir -p .vscode .sandmux .git/hooks; echo x > .vscode/settings.json; echo x > .sandmux/sandbox.json; echo x > .git/hooks/pre-commit') 2>/dev/null
	refuse "fresh checkout ${obs:-(observer on)}: no protected file can be created" \
		sh -c "ls '$fresh/.vscode/settings.json' '$fresh/.sandmux/sandbox.json' '$fresh/.git/hooks/pre-commit' 2>/dev/null | grep ."
	same "fresh checkout ${obs:-(observer on)}: left as it was after the run" "$(ls -A "$fresh" "$fresh/.git" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
done
# With the observer, nothing is made in the workspace while a sandbox
# runs either (checked from outside during the run), and the tricks that
# reach the missing names another way are refused too.
t_dir fresh
(cd "$fresh" && git init -q . && rm -rf .git/hooks)
seen=$(cd "$fresh" && "$SANDMUX" run -- sh -c 'touch ready; n=0; while [ ! -e go ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n+1)); done' 2>&1 &
	n=0
	while [ ! -e "$fresh/ready" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	ls -A "$fresh" "$fresh/.git"
	touch "$fresh/go"
	wait)
contains "fresh checkout: the sandbox was running when looked at" "$seen" "ready"
same "fresh checkout: no .vscode, .sandmux or .git/hooks on the host during the run" "$(echo "$seen" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
(cd "$fresh" && "$SANDMUX" run -- sh -c 'ln -s . me; mkdir me/.vscode; mkdir -p me/.git/hooks; mkdir /proc/self/cwd/.sandmux; ln -s /proc/self/cwd pc; mkdir pc/.vscode pc/.sandmux; mkdir x; mv x .vscode; ln -s x .sandmux; mkdir -p .cursor/x && echo x > .cursor/mcp.json') 2>/dev/null
same "fresh checkout: symlinked, /proc and rename routes made nothing" "$(ls -A "$fresh" "$fresh/.git" | grep -cE '^(\.vscode|\.sandmux|hooks)$')" "0"
refuse "fresh checkout: no .cursor/mcp.json either" test -e "$fresh/.cursor/mcp.json"
# An open with O_CREAT follows a symlink that leads nowhere and creates
# its target: a protected name made through one, also a chain of them or
# one through a magic link of /proc, is refused; a harmless target is not.
(cd "$fresh" && "$SANDMUX" run -- sh -c 'ln -s x.code-workspace a; echo x > a; ln -s .cursorignore b; ln -s b c; echo x > c; ln -s /proc/self/cwd/y.code-workspace d; echo x > d; ln -s ok.txt e; echo ok > e') 2>/dev/null
same "dangling symlinks: no protected file made through them" "$(ls -A "$fresh" | grep -cE '^(x\.code-workspace|y\.code-workspace|\.cursorignore)$')" "0"
same "dangling symlinks: a harmless target is still made" "$(cat "$fresh/ok.txt" 2>/dev/null)" "ok"

# Git metadata beyond the fixed globs that a host git runs code from: a
# commondir or gitlink sending it to a git directory the sandbox wrote,
# the config and hooks of submodules, linked worktrees and nested repos,
# core.hooksPath. Each is checked by running git on the host afterwards
# with a core.fsmonitor or hook that would leave a marker.
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
t_dir mark
M="$mark/PWNED"
EVIL_CFG=$(printf '[core]\n\tfsmonitor = "touch %s; false"' "$M")
HOOK=$(printf '#!/bin/sh\ntouch %s' "$M")
export EVIL_CFG HOOK
# An evil git directory the sandbox makes from the real one ($G).
MKEVIL='mkdir evil && cp -r "$G/objects" "$G/refs" "$G/HEAD" evil/ && printf "%s\n" "$EVIL_CFG" > evil/config'
repo() { git init -q "$1" && git -C "$1" commit -q --allow-empty -m x; }
# in_sbx DIR [run options] -- SCRIPT: SCRIPT in a sandbox on workspace DIR.
in_sbx() { _d=$1; shift; (cd "$_d" && "$SANDMUX" run "$@") 2>/dev/null; }
# host_clean NAME DIR [GIT ARGS]: host git (status by default) in DIR
# leaves no marker.
host_clean() {
	_n=$1; _d=$2; shift 2
	[ $# -gt 0 ] || set -- status
	rm -f "$M"
	(cd "$_d" && git "$@" >/dev/null 2>&1)
	refuse "$_n: host git ran none of the sandbox's code" test -e "$M"
}
t_dir ctl
repo "$ctl" && printf '%s\n' "$EVIL_CFG" >>"$ctl/.git/config" && (cd "$ctl" && git status >/dev/null 2>&1)
check "control: host git status runs a repo's core.fsmonitor" test -e "$M"

t_dir g
repo "$g"
in_sbx "$g" -- sh -c "G=.git; $MKEVIL; echo ../evil > .git/commondir"
refuse "commondir: not made" test -e "$g/.git/commondir"
host_clean "commondir" "$g"

t_dir g
repo "$g" && git -C "$g" config core.repositoryformatversion 1 && git -C "$g" config extensions.worktreeConfig true
in_sbx "$g" -- sh -c 'printf "%s\n" "$EVIL_CFG" > .git/config.worktree'
refuse "config.worktree: not made" test -e "$g/.git/config.worktree"
host_clean "config.worktree" "$g"

t_dir up
repo "$up"
for obs in "" --no-observer; do
	o=${obs:-observer on}
	t_dir g
	repo "$g" && repo "$g/sub" && cp "$g/sub/.git/config" "$mark/sub.cfg"
	in_sbx "$g" $obs -- sh -c 'printf "%s\n" "$EVIL_CFG" >> sub/.git/config; printf "%s\n" "$HOOK" > sub/.git/hooks/pre-commit; chmod +x sub/.git/hooks/pre-commit
		mv sub/.git sub/git.old; mv sub sub.old; git init -q sub; printf "%s\n" "$EVIL_CFG" >> sub/.git/config'
	check "nested repo ($o): its config unchanged" cmp -s "$g/sub/.git/config" "$mark/sub.cfg"
	refuse "nested repo ($o): no hook made" test -e "$g/sub/.git/hooks/pre-commit"
	host_clean "nested repo ($o)" "$g/sub"
	host_clean "nested repo ($o), a commit" "$g/sub" commit -q --allow-empty -m y

	t_dir g
	repo "$g" && (cd "$g" && git -c protocol.file.allow=always submodule add -q "$up" sm && git commit -qm sm) &&
		cp "$g/.git/modules/sm/config" "$mark/sm.cfg" && cp "$g/sm/.git" "$mark/sm.link"
	in_sbx "$g" $obs -- sh -c 'printf "%s\n" "$EVIL_CFG" >> .git/modules/sm/config'
	check "submodule ($o): its config unchanged" cmp -s "$g/.git/modules/sm/config" "$mark/sm.cfg"
	host_clean "submodule config ($o)" "$g"
	in_sbx "$g" $obs -- sh -c "G=.git/modules/sm; $MKEVIL; printf 'gitdir: ../evil\n' > sm/.git; mv sm sm.old; mkdir sm; printf 'gitdir: ../evil\n' > sm/.git"
	check "submodule ($o): its gitlink file unchanged" cmp -s "$g/sm/.git" "$mark/sm.link"
	host_clean "submodule gitlink ($o)" "$g"

	t_dir g
	repo "$g" && git -C "$g" worktree add -q wt && cp "$g/.git/worktrees/wt/gitdir" "$mark/wt.gitdir"
	in_sbx "$g" $obs -- sh -c "G=.git; $MKEVIL; echo ../../../evil > .git/worktrees/wt/commondir; echo /nowhere/.git > .git/worktrees/wt/gitdir; printf 'gitdir: ../evil\n' > wt/.git"
	check "linked worktree ($o): its gitdir unchanged" cmp -s "$g/.git/worktrees/wt/gitdir" "$mark/wt.gitdir"
	same "linked worktree ($o): its commondir unchanged" "$(cat "$g/.git/worktrees/wt/commondir")" "../.."
	host_clean "linked worktree ($o)" "$g/wt"

	t_dir g
	repo "$g" && mkdir "$g/.husky" && printf '#!/bin/sh\n' >"$g/.husky/pre-commit" && chmod +x "$g/.husky/pre-commit" &&
		git -C "$g" config core.hooksPath .husky
	in_sbx "$g" $obs -- sh -c 'printf "%s\n" "$HOOK" > .husky/pre-commit; printf "%s\n" "$HOOK" > .husky/post-commit; chmod +x .husky/post-commit'
	same "core.hooksPath ($o): the hook unchanged" "$(cat "$g/.husky/pre-commit")" "#!/bin/sh"
	host_clean "core.hooksPath ($o)" "$g" commit -q --allow-empty -m y
done
# A submodule deeper than the look at nested repos goes: found through
# .gitmodules.
t_dir g
repo "$g" && (cd "$g" && git -c protocol.file.allow=always submodule add -q "$up" vendor/lib/dep && git commit -qm dep) &&
	cp "$g/vendor/lib/dep/.git" "$mark/dep.link"
in_sbx "$g" -- sh -c "G=.git/modules/vendor/lib/dep; $MKEVIL; printf 'gitdir: ../../../evil\n' > vendor/lib/dep/.git"
check "deep submodule: its gitlink file unchanged" cmp -s "$g/vendor/lib/dep/.git" "$mark/dep.link"
host_clean "deep submodule" "$g"
# A workspace with no .git in a repo: no gitlink can be made to send git
# run in it to the sandbox's git directory.
t_dir g
repo "$g" && mkdir "$g/w"
in_sbx "$g/w" -- sh -c 'mkdir evil && git init -q --bare evil && printf "%s\n" "$EVIL_CFG" > evil/config; printf "gitdir: evil\n" > .git'
refuse "no .git at the root: no gitlink made" test -e "$g/w/.git"
host_clean "no .git at the root" "$g/w"
# Git as agents use it still works: a worktree, a nested repo, a clone, a
# submodule the sandbox checks out, commits in each.
# (The upstream lies in the workspace: the host's /tmp is out of sight.)
t_dir g
repo "$g" && repo "$g/up" && (cd "$g" && git -c protocol.file.allow=always submodule add -q "$g/up" sm &&
	git commit -qm sm && rm -rf .git/modules/sm sm && mkdir sm) # registered, not checked out
check "git inside: worktree add, init, clone, submodule update" in_sbx "$g" -- sh -c "set -e
	git worktree add -q wt2; cd wt2; git commit -q --allow-empty -m in-wt; cd ..
	git init -q sub; cd sub; git config x.y 1; git commit -q --allow-empty -m in-sub; cd ..
	git -c protocol.file.allow=always clone -q '$g/up' cl; git -C cl remote add other '$g/up'
	git -c protocol.file.allow=always submodule update -q --init; git -C sm checkout -q -b b"
same "git inside: the commits are there, seen from outside" "$(git -C "$g/wt2" log -1 --format=%s 2>/dev/null) $(git -C "$g/sub" log -1 --format=%s 2>/dev/null) $(git -C "$g/sm" branch --show-current 2>/dev/null)" "in-wt in-sub b"
check "git inside: the clone's remote is there" git -C "$g/cl" remote get-url other
exit $T_FAILED
