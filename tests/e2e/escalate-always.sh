#!/bin/sh
# always: the grant is written into ~/.sandmux/sandbox.json — every other
# byte of the file kept (unknown keys, order, spacing) — and the command
# re-runs with it; a new pane gets it from the file.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT" "$HOME/.sandmux"
cat >"$HOME/.sandmux/sandbox.json" <<JSON
{
  "x-team-note": {"keep": ["me", 1, true]},
    "additionalReadwritePaths": [ "$M_HOME/already" ],
  "networkPolicy": { "default": "deny" }
}
JSON
mkdir -p "$M_HOME/already"
cp "$HOME/.sandmux/sandbox.json" "$M_ROOT/before.json"
m_start
m_sandmux new -n writer -- sh -c "touch '$OUT/f' && echo WROTE-\$((40+2)) || echo WRITE-FAILED; sleep 60" >/dev/null
m_keys C-b z
m_expect "the write is denied" "WRITE-FAILED"
m_expect "a prompt is pending" "prompt!"
m_keys C-b a
m_expect "prefix a opens it" "a always"
m_keys a
m_expect "always re-runs the command, which succeeds" "WROTE-42"
[ -e "$OUT/f" ] && ok "the file exists (seen from outside)" || fail "the file exists (seen from outside)"
cat >"$M_ROOT/want.json" <<JSON
{
  "x-team-note": {"keep": ["me", 1, true]},
    "additionalReadwritePaths": [ "$M_HOME/already", "$OUT/f" ],
  "networkPolicy": { "default": "deny" }
}
JSON
if cmp -s "$M_ROOT/want.json" "$HOME/.sandmux/sandbox.json"; then ok "sandbox.json: the entry added, every other byte kept"
else fail "sandbox.json: the entry added, every other byte kept"; diff "$M_ROOT/want.json" "$HOME/.sandmux/sandbox.json" | sed 's/^/#   /'; fi
m_sandmux new -n later -- sh -c "touch '$OUT/f' && echo LATER-OK || echo LATER-FAILED; sleep 60" >/dev/null
m_keys C-b z
m_expect "a new pane is allowed by the file" "LATER-OK"
refuse "exactly that file: its neighbour stays denied" m_sandmux run -- touch "$OUT/g"
[ ! -e "$OUT/g" ] && ok "and was not written (outside)" || fail "and was not written (outside)"

# r: always, per repo: <workspace>/.sandmux/sandbox.json (a new file here)
OUT3="$M_HOME/outside3"
mkdir -p "$OUT3"
m_sandmux new -n repo -- sh -c "touch '$OUT3/f' && echo REPO-\$((6*7)) || echo REPO-FAILED; sleep 60" >/dev/null
m_keys C-b z
m_expect "another denial" "REPO-FAILED"
m_keys C-b a
m_expect "its prompt opens" "r always (repo"
m_keys r
# (the prompt shows the command line: wait for its output, not its text)
m_expect "r re-runs the command, which succeeds" "REPO-42"
contains "the per-repo file has the entry" "$(cat "$WS/.sandmux/sandbox.json" 2>&1)" "\"$OUT3/f\""
[ "$(grep -c outside3 "$HOME/.sandmux/sandbox.json")" = 0 ] && ok "and the per-user file does not" || fail "and the per-user file does not"
