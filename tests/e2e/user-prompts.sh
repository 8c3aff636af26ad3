#!/bin/sh
# Prompts that stay current, in a bash pane as a person uses it: a prompt
# whose process tree has exited is dropped when the shell starts the next
# command line, and counted (list --json, the overview, the denials pane),
# also one denied in the shell itself (a builtin's redirection); one
# whose job still runs (a background job) stays until that job is gone. `n` steps through every waiting prompt: the pane's own first,
# then every other pane's, across windows, in the order the windows and
# their panes are listed (a pane split off after another window was made
# has the larger id). Every change of a pane's title line, its program's
# OSC 2 or sandmux's own text, is a `title` event for a subscriber.
. "$TESTS/e2e/mux.lib"
command -v bash >/dev/null || { echo "ok - # SKIP bash not installed"; exit 0; }
command -v python3 >/dev/null || { echo "ok - # SKIP python3 not installed"; exit 0; }
SHELL=$(command -v bash); export SHELL
OUT="$M_HOME/outside"
EV="$M_ROOT/ev"
mkdir -p "$OUT" "$EV"

# pane1 PYTHON-EXPR: EXPR with p = pane 1's object in `list --json`.
pane1() {
	m_sandmux list --json | python3 -c "
import json, sys
s = json.load(sys.stdin)
p = [p for w in s['windows'] for p in w['panes'] if p['id'] == 1][0]
print($1)"
}
is() { [ "$(pane1 "$1")" = "$2" ]; }
waiting() { pane1 "' '.join(sorted(q['target'].rsplit('/', 1)[1] for q in p['waiting']))"; }

m_start 200 50
(m_sandmux events --kind title >"$EV/titles" 2>"$EV/titles.err"; echo $? >"$EV/titles.rc") &

# A background job whose process tree lives on, a command that ends, and
# a builtin's redirection (denied in the shell itself).
m_type "(touch '$OUT/bg'; exec sleep 300) & touch '$OUT/fg'; echo x >'$OUT/builtin'; echo BACK-\$((6*7))"
m_expect "the writes are denied" "prompt!"
t_until 10 is "p['prompts']" 3 && ok "three prompts wait" || fail "three prompts wait ($(waiting))"
# the command line has ended (its last word printed), and the shell
# has a moment to report its prompt: nothing new started, nothing drops
m_expect "the command line ran to its end" "BACK-42"
sleep 1
same "they stay while the shell waits at its prompt" "$(waiting)" "bg builtin fg"
m_type 'echo NEXT-$((6*7))'
m_expect "the shell starts the next command line" "NEXT-42"
t_until 5 is "p['prompts_dropped']" 2 && ok "the ended command's and the builtin's prompts are dropped and counted" ||
	fail "the ended command's and the builtin's prompts are dropped and counted ($(pane1 "p['prompts_dropped']"))"
same "the background job's prompt stays: its process tree lives" "$(waiting)" "bg"
m_type 'kill %1; wait'
m_type 'echo AFTER-$((7*7))'
m_expect "the job is gone and the shell went on" "AFTER-49"
t_until 5 is "p['prompts']" 0 && ok "then its prompt is dropped too" || fail "then its prompt is dropped too ($(waiting))"
same "all counted" "$(pane1 "p['prompts_dropped']")" 3
same "sandmux list shows the count" "$(m_sandmux list | awk '$1 == 1 { print $NF }')" 3
m_waitnot main "prompt!" 5 && ok "the title says no prompt waits" || fail "the title says no prompt waits"
m_keys C-b w
m_expect "the overview counts them" "0 prompts waiting, 3 stale dropped"
contains "per pane" "$(m_screen)" "(3 stale dropped)"
m_keys q
m_keys C-b D
m_expect "the denials pane counts them" "3 stale prompts dropped"
m_keys q
[ -e "$OUT/bg" ] || [ -e "$OUT/fg" ] || [ -e "$OUT/builtin" ] && fail "nothing was written (outside)" || ok "nothing was written (outside)"

# n: pane 1 has two prompts; window 1 gets pane 2, then pane 3 is split
# off in window 0.
m_type "clear; touch '$OUT/n1a'; touch '$OUT/n1b'"
t_until 10 is "p['prompts']" 2 || fail "pane 1's two prompts wait"
m_keys C-b c
m_wait main "2: " 5
m_type "touch '$OUT/n2'"
m_keys C-b p
m_keys C-b %
m_wait main "3: " 5
m_type "touch '$OUT/n3'"
t_until 10 sh -c "[ \"\$(cd '$WS' && '$SANDMUX' list --json | grep -o '\"prompts\":1' | wc -l)\" = 2 ]" ||
	fail "panes 2 and 3 have a prompt each"
m_keys C-b Left
m_keys C-b a
m_expect "prefix a opens the active pane's prompt" "additionalReadwritePaths += $OUT/n1a"
contains "it says one more waits there" "$(m_screen)" "(+1 more)"
m_keys n
m_expect "n: the pane's next prompt" "additionalReadwritePaths += $OUT/n1b"
m_keys n
m_expect "n: then the next pane's, in the same window" "additionalReadwritePaths += $OUT/n3"
m_keys n
m_expect "n: then the other window's pane" "additionalReadwritePaths += $OUT/n2"
m_keys n
m_expect "n: and round to the first" "additionalReadwritePaths += $OUT/n1a"
m_keys Escape

# title events: sandmux's own text (the prompts above) and the program's OSC 2.
m_type "printf '\\033]2;%s\\007' hello-title-\$((8*8))"
title_seen() { # title_seen PANE TEXT [program]: an event of PANE whose title (or program) has TEXT
	python3 - "$EV/titles" "$@" <<'PY'
import json, sys
f, pane, text = sys.argv[1], int(sys.argv[2]), sys.argv[3]
key = sys.argv[4] if len(sys.argv) > 4 else "title"
for l in open(f, encoding="utf-8").read().splitlines():
    e = json.loads(l)  # the file is read as strict UTF-8
    assert e["event"] == "title" and set(e) == {"event", "pane", "title", "program"}, e
    if e["pane"] == pane and text in e[key]:
        sys.exit(0)
sys.exit(1)
PY
}
t_until 5 title_seen 1 "hello-title-64" program && ok "a program's OSC 2 is a title event" ||
	fail "a program's OSC 2 is a title event"
title_seen 1 "· hello-title-64" && ok "with the title line as drawn" || fail "with the title line as drawn"
m_type "printf '\033]2;bad\377\300\355\240\200x-%s\007' \$((5*13))"
t_until 5 title_seen 1 "badx-65" program && ok "bytes that are not UTF-8 are dropped from the event" ||
	fail "bytes that are not UTF-8 are dropped from the event"
title_seen 1 "prompt!" && ok "sandmux's own title text (a prompt waits) is a title event" ||
	fail "sandmux's own title text (a prompt waits) is a title event"
title_seen 1 "denials 3" && ok "and the denials counting up" || fail "and the denials counting up"
title_seen 2 "2: " && ok "other panes' titles too" || fail "other panes' titles too"
n=$(wc -l <"$EV/titles")
sleep 1
same "no event while no title changes" "$(wc -l <"$EV/titles")" "$n"
# ... and the stream was live all along: the next change is an event
m_type "printf '\033]2;after-%s\007' \$((6*11))"
t_until 5 title_seen 1 "after-66" program && ok "the stream still tells the next change" ||
	fail "the stream still tells the next change"
[ ! -s "$EV/titles.err" ] && ok "events --kind title is accepted" || { fail "events --kind title is accepted"; sed 's/^/#   /' "$EV/titles.err"; }
exit $T_FAILED
