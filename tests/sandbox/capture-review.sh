#!/bin/sh
# Reviewing a capture layer cannot be fooled by what the sandbox wrote:
# names are shown with their control characters as '?', setuid/setgid
# bits never reach the host and a mode change shows in the diff, a FIFO
# is never read (diff and apply return), and apply and discard are
# refused while the layer's sandbox still runs. Checked on the host.
. "$TESTS/sandbox/common.inc"
cd "$ws" || exit 1
tag=sandmux-review-$$
hd="$HOME/$tag"
T_CLEAN="$T_CLEAN $hd"
mkdir -p "$hd"
cfg="$ws/.t/capture.json"
echo '{"outsideWrites": "capture"}' >"$cfg"
rep="$ws/.t/report.json"
layer_of() { sed -n 's/.*"capture_layer":[[:space:]]*"\(.*\)".*/\1/p' "$1"; }
E=$(printf '\033')
cap() { "$SANDMUX" captured --layer "$layer" "$@"; }

# 1. a name made to rewrite the terminal: every line the CLI prints
# shows it with '?' for each control character
evil="$hd/victim.txt$(printf '\033[1A\033[2K\033[1A\033[2K\r')"
sbx --config "$cfg" --report "$rep" -- sh -c "echo hidden > '$evil'; printf 'x\033[2Kline\n' > $hd/content.txt" \
	>/dev/null 2>&1
layer=$(layer_of "$rep")
list=$(cap list 2>&1)
diff=$(cap diff 2>&1)
contains "names: list shows the name escaped" "$list" "victim.txt?[1A?[2K?[1A?[2K?"
case "$list$diff" in *"$E"*) fail "names: no escape byte in list or diff" ;; *) ok "names: no escape byte in list or diff" ;; esac
contains "names: the diff shows the file's content escaped" "$diff" "+x?[2Kline"
out=$(cap apply --all 2>&1)
case "$out" in *"$E"*) fail "names: no escape byte in apply's messages" ;; *) ok "names: no escape byte in apply's messages" ;; esac
contains "names: apply names it escaped" "$out" "applied create  $hd/victim.txt?[1A"
out=$(cap discard 2>&1)
check "names: discard works" test ! -e "$layer"
rm -f "$hd"/*

# 2. mode bits: a chmod alone is seen in the diff; setuid, setgid and
# sticky never reach the host
echo m >"$hd/tool"
chmod 0644 "$hd/tool"
sbx --config "$cfg" --report "$rep" -- sh -c "chmod 4755 $hd/tool; echo s > $hd/new; chmod 6755 $hd/new" \
	>/dev/null 2>&1
layer=$(layer_of "$rep")
mode=$(stat -c %a "$layer/upper$hd/tool" 2>/dev/null)
if [ "$mode" = 4755 ]; then
	contains "mode: the list has the chmod-only change" "$(cap list 2>&1)" "write   $hd/tool"
	contains "mode: diff shows the mode change" "$(cap diff "$hd/tool" 2>&1)" "$hd/tool: mode 0644 -> 4755"
	contains "mode: diff shows a new file's mode" "$(cap diff "$hd/new" 2>&1)" "$hd/new: new file, mode 6755"
	cap apply --all >/dev/null 2>&1
	same "mode: the applied file is not setuid on the host" "$(stat -c %a "$hd/tool")" "755"
	same "mode: the new file is neither setuid nor setgid" "$(stat -c %a "$hd/new" 2>&1)" "755"
else
	ok "mode: chmod 4755 refused inside ($mode): nothing to apply # skip"
fi
cap discard >/dev/null 2>&1
rm -f "$hd"/*

# 3. the layer in use: apply and discard refused while its sandbox runs
# (it could change a file between the person's diff and the apply)
before=$(ls "$HOME/.sandmux/state/capture/run" 2>/dev/null)
rm -f .t/go .t/written
sbx --config "$cfg" -- sh -c "echo good > $hd/swap; : > .t/written
	i=0; while [ ! -e .t/go ] && [ \$i -lt 600 ]; do sleep 0.05; i=\$((i + 1)); done; echo bad > $hd/swap" \
	>/dev/null 2>&1 &
run=$!
i=0; while [ ! -e .t/written ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
layer=""
for l in $(ls "$HOME/.sandmux/state/capture/run" 2>/dev/null); do
	case " $(echo $before) " in *" $l "*) ;; *) layer="$HOME/.sandmux/state/capture/run/$l" ;; esac
done
check "in use: the running sandbox's layer is there" test -d "$layer/upper"
out=$(timeout 20 "$SANDMUX" captured --layer "$layer" apply --all 2>&1)
rc=$?
same "in use: apply is refused" "$rc" "1"
contains "in use: apply says why" "$out" "in use: its sandbox still runs"
refuse "in use: nothing reached the host" test -e "$hd/swap"
out=$(timeout 20 "$SANDMUX" captured --layer "$layer" discard 2>&1)
contains "in use: discard is refused" "$out" "in use: its sandbox still runs"
check "in use: the layer is still there" test -d "$layer/upper"
: >.t/go
wait $run
out=$(cap apply --all 2>&1)
same "in use: once ended, apply writes what the sandbox left" "$(cat "$hd/swap" 2>&1)" "bad"
cap discard >/dev/null 2>&1
rm -f "$hd"/*

# 4. a FIFO in the layer is never opened for reading: diff and apply
# return, list says it is not applied, nothing reaches the host
echo host >"$hd/notes.txt"
sbx --config "$cfg" --report "$rep" -- sh -c "mkfifo $hd/fifo.txt; rm $hd/notes.txt; mkfifo $hd/notes.txt" \
	>/dev/null 2>&1
layer=$(layer_of "$rep")
contains "fifo: list says it is not applied" "$(cap list 2>&1)" "create  $hd/fifo.txt (fifo, not applied)"
out=$(timeout 20 "$SANDMUX" captured --layer "$layer" diff 2>&1)
rc=$?
check "fifo: diff returns (rc $rc)" test "$rc" != 124
contains "fifo: diff says why there is none" "$out" "$hd/notes.txt: a fifo, not read, not applied"
out=$(timeout 20 "$SANDMUX" captured --layer "$layer" apply --all 2>&1)
rc=$?
same "fifo: apply returns and refuses (rc $rc)" "$rc" "1"
contains "fifo: apply says why" "$out" "$hd/fifo.txt: a fifo in the layer: not applied"
refuse "fifo: no FIFO was made on the host" test -e "$hd/fifo.txt"
same "fifo: the host file is unchanged" "$(cat "$hd/notes.txt")" "host"
cap discard >/dev/null 2>&1
exit $T_FAILED
