#!/bin/sh
# The open sandbox prompt is a mode that lets keys through: while it is
# open, plain keys are its own (taken even when they answer nothing, so a
# stray key cannot reach the program), keys with modifiers go on to the
# program and to the bindings (the prefix, a bound key), and a mode those
# open (the `:` prompt) goes over it; when that ends the sandbox prompt
# takes the keys again. The pane runs `cat -v` with the terminal in
# non-canonical mode, so every key that reaches it shows at once.
. "$TESTS/e2e/mux.lib"

OUT="$M_HOME/outside"
mkdir -p "$OUT" "$HOME/.sandmux"
limits=""
[ -n "$ASAN_OPTIONS" ] && limits=', "limits": {"memory": 0}'
echo "{\"bind\": {\"M-p\": \"command-prompt\"}$limits}" >"$HOME/.sandmux/sandmux.json"
m_start

m_sandmux new -n keys -- sh -c "touch '$OUT/f' || echo WRITE-FAILED; stty -icanon -echo; exec cat -v" >/dev/null
m_expect "the denied write fails in the pane" "WRITE-FAILED"
m_keys C-b z
m_expect "a prompt waits" "prompt!"
m_keys a 1
m_expect "before prefix a, plain keys reach the program" "a1"

m_keys C-b a
m_expect "prefix a opens the prompt" "o once"
m_keys z
m_keys M-x
m_expect "a key with a modifier goes on to the program; the plain key before it did not" 'a1^[x'
contains "the prompt stays open" "$(m_screen)" "o once"

m_keys C-b M-p
m_keys h i
m_expect "the prefix and a bound key go on to the bindings: the : prompt opens" ":hi"
contains "the sandbox prompt shows under it" "$(m_screen)" "o once"
m_keys Escape
m_waitnot main ":hi" 5 && ok "Escape closes the : prompt" || fail "Escape closes the : prompt"
contains "the sandbox prompt is still open" "$(m_screen)" "o once"
m_keys d
m_waitnot main "prompt!" 5 && ok "it takes the keys again: d denies" || fail "it takes the keys again: d denies"
m_keys b 2
m_expect "closed, plain keys reach the program again; neither h i nor d did" 'a1^[xb2'
[ ! -e "$OUT/f" ] && ok "nothing was written (outside)" || fail "nothing was written (outside)"
