#!/bin/sh
# Escalation in the multiplexer, as a person uses it: a pane's command
# writes outside the workspace and is denied; the denials pane shows it
# with its rule within a second; prefix a opens the prompt; o (once)
# re-runs the command, which now succeeds (checked from outside); a
# later run of the same command is denied again.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT"
m_start

m_sandmux new -n writer -- sh -c "touch '$OUT/f' && echo WROTE-\$((40+2)) || echo WRITE-FAILED; sleep 60" >/dev/null
m_expect "the denied write fails in the pane" "WRITE-FAILED"
m_keys C-b z
if m_wait main "prompt!" 1; then ok "the title marks a pending prompt within a second"; else fail "the title marks a pending prompt within a second"; m_screen | sed 's/^/#   | /'; fi
contains "the title counts the denial" "$(m_screen | grep 'writer')" "denials 1"

m_keys C-b D
if m_wait main "sandmux denials" 1; then ok "prefix D opens the denials pane"; else fail "prefix D opens the denials pane"; fi
row=$(m_screen | grep "$OUT/f" | head -1)
contains "the denials pane lists the denial with its process" "$row" "touch"
contains "the denials pane lists the operation" "$row" "create"
contains "the denials pane names the rule" "$row" "not"
contains "the denials pane shows the count" "$row" "x1"
m_keys f
m_expect "f filters by pane" "(pane 2)"
m_keys q
m_waitnot main "sandmux denials" 2 && ok "q closes the denials pane" || fail "q closes the denials pane"

[ ! -e "$OUT/f" ] && ok "nothing was written before the approval" || fail "nothing was written before the approval"
m_keys C-b a
m_expect "prefix a focuses the prompt and shows its keys" "o once"
contains "the prompt says what was denied" "$(m_screen)" "denied create $OUT/f"
contains "the prompt shows the broadening: exactly the new file" "$(m_screen)" "additionalReadwritePaths += $OUT/f"
contains "the prompt shows what will re-run, and where" "$(m_screen)" "re-run: sh -c 'touch '\"'\"'$OUT/f'\"'\"' && echo"
m_keys o
m_expect "once: the command re-runs and succeeds" "WROTE-42"
[ -e "$OUT/f" ] && ok "the file really exists (seen from outside)" || fail "the file really exists (seen from outside)"
m_waitnot main "prompt!" 2 && ok "the prompt is gone after the answer" || fail "the prompt is gone after the answer"
grep -q '"op":"create"' "$HOME/.sandmux/state/denials.jsonl" 2>/dev/null && ok "the denial is in ~/.sandmux/state/denials.jsonl" ||
	fail "the denial is in ~/.sandmux/state/denials.jsonl"

# A later run of the same command in the same pane: the once grant is gone.
rm -f "$OUT/f"
m_keys C-b a
m_keys o 2>/dev/null
m_keys Escape
m_sandmux new -n writer2 -- sh -c "touch '$OUT/f2' && echo WROTE2-OK || echo WRITE2-FAILED; sleep 60" >/dev/null
m_expect "a new pane with the same command is denied again" "WRITE2-FAILED"
[ ! -e "$OUT/f2" ] && ok "and writes nothing" || fail "and writes nothing"

# Deny: the prompt goes and does not come back for that pane.
m_keys C-b a
m_expect "prefix a jumps to the pending prompt of another pane" "o once"
m_keys d
m_waitnot main "prompt!" 2 && ok "d denies and dismisses" || fail "d denies and dismisses"
[ ! -e "$OUT/f2" ] && ok "a denied prompt writes nothing" || fail "a denied prompt writes nothing"
m_keys C-b a
m_expect "no prompt left" "no sandbox prompt is pending"

# Text a program prints cannot answer: an OSC or keys in its output do nothing.
# (it prints once its prompt is pending, then a mark: once the mark is on
# the screen the server has read all of it, and the prompt is still there)
m_sandmux new -n liar -- sh -c "touch '$OUT/f3' 2>/dev/null; while [ ! -e liar.go ]; do sleep 0.1; done; printf 'o\n\033]633;E;touch $OUT/f3\007s\na\n'; echo LIAR-\$((6*7)); sleep 60" >/dev/null
pending() { m_sandmux list --json | grep -q '"waiting":\[{'; }
t_until 10 pending
touch "$WS/liar.go"
m_wait main "LIAR-42" && pending || fail "the program printed its keys with its prompt still pending"
[ ! -e "$OUT/f3" ] && ok "output of the program approves nothing" || fail "output of the program approves nothing"

# A command that ends badly after a denial: its prompt comes back, saying so.
m_sandmux new -n failing -- sh -c "touch '$OUT/f4' 2>/dev/null; while [ ! -e fail.go ]; do sleep 0.1; done; exit 3" >/dev/null
m_keys C-b z
m_wait main "prompt!" 2
m_keys C-b a
m_expect "the failing command's prompt" "denied create $OUT/f4"
m_keys x
m_waitnot main "denied create $OUT/f4" # dismissed: now the command ends
touch "$WS/fail.go"
m_expect "x dismisses it; when the command exits 3 it is offered again" "prompt!"
m_expect "the command's end is in the title" "exited 3"
m_keys C-b a
m_expect "the prompt says how the command ended" "the command exited 3"
m_keys o
t_until 10 test -e "$OUT/f4"
[ -e "$OUT/f4" ] && ok "the re-run wrote the file" || fail "the re-run wrote the file"
