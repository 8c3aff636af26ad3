#!/bin/sh
# "r" (always, in the repo's .sandmux/sandbox.json) never writes through a
# link. After the pane started, the repo's file becomes a symlink to the
# per-user file, to another JSON file of the person's, or .sandmux itself
# becomes a symlink to ~/.sandmux (a checkout in another terminal could
# do it): the answer is refused with a message naming the file, and every
# link's target stays byte for byte as it was.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT" "$HOME/.sandmux" "$WS/.sandmux"
printf '{\n  "x-mine": {"keep": true}\n}\n' >"$HOME/.sandmux/sandbox.json"
cp "$HOME/.sandmux/sandbox.json" "$M_ROOT/user.orig"
printf '{"x-victim": 1}\n' >"$M_HOME/victim.json"
cp "$M_HOME/victim.json" "$M_ROOT/victim.orig"
m_start

# answer_r NAME PLANT: a denied write in a new pane; once its prompt is
# pending, PLANT swaps the links in; the prompt answered with r must be
# refused. (A link there before the pane starts refuses the pane itself.)
answer_r() {
	m_sandmux new -n "$1" -- sh -c "touch '$OUT/$1' && echo $1-OK || echo $1-FAILED; sleep 60" >/dev/null
	m_keys C-b z
	m_expect "$1: the write is denied" "$1-FAILED"
	m_expect "$1: a prompt is pending" "prompt!"
	$2
	m_keys C-b a
	m_expect "$1: its prompt opens" "r always (repo"
	m_keys r
	m_expect "$1: r is refused, naming the link" "always: $WS/.sandmux/sandbox.json: a symbolic link"
	m_keys x
	rm -rf "$WS/.sandmux"; mkdir "$WS/.sandmux"
	[ ! -e "$OUT/$1" ] && ok "$1: nothing re-ran with the grant" || fail "$1: nothing re-ran with the grant"
	if cmp -s "$M_ROOT/user.orig" "$HOME/.sandmux/sandbox.json"; then ok "$1: ~/.sandmux/sandbox.json unchanged"
	else fail "$1: ~/.sandmux/sandbox.json unchanged"; sed 's/^/#   /' "$HOME/.sandmux/sandbox.json"; fi
	if cmp -s "$M_ROOT/victim.orig" "$M_HOME/victim.json"; then ok "$1: the other JSON file unchanged"
	else fail "$1: the other JSON file unchanged"; sed 's/^/#   /' "$M_HOME/victim.json"; fi
}

plant_user() { ln -s "$HOME/.sandmux/sandbox.json" "$WS/.sandmux/sandbox.json"; }
plant_victim() { ln -s "$M_HOME/victim.json" "$WS/.sandmux/sandbox.json"; }
plant_dir() { rm -rf "$WS/.sandmux"; ln -s "$HOME/.sandmux" "$WS/.sandmux"; }
answer_r touser plant_user
answer_r tovictim plant_victim
answer_r todir plant_dir
grep -q "$OUT" "$HOME/.sandmux/sandbox.json" && fail "no grant in the per-user file" || ok "no grant in the per-user file"
