#!/bin/sh
# Policy files and sandmux's own files are never reached through a link:
# a per-repo sandbox.json that is a symlink (to a file the sandbox can
# write, to the per-user file), lies behind a symlinked .sandmux/ or
# .cursor/, is a FIFO or has a second name is refused in one line by
# `trust`, `policy show` and `run`; trust records what it read, once; the
# trust record, ~/.sandmux/state and denials.jsonl are not written through
# links. Every effect is checked on the files themselves.
. "$TESTS/lib.sh"

# HOME outside /tmp: a run's sandbox has its own /tmp.
H=$(mktemp -d "${HOME:-/root}/.sandmux-files.XXXXXX") || exit 1
T_CLEAN="$T_CLEAN $H"
export HOME="$H"
unset SANDMUX_SANDBOX
ws=$(t_tmpdir); ws=$(cd "$ws" && pwd -P)
mkdir -p "$HOME/.sandmux" "$HOME/outside"
U=$HOME/.sandmux/sandbox.json
echo '{"networkPolicy": {"allow": ["a.com"]}}' >"$U"
cp "$U" "$ws/user.orig"
# a file every sandbox of this workspace can write, naming HOME writable
EVIL=$ws/evil.json
printf '{"additionalReadwritePaths": ["%s"]}\n' "$HOME" >"$EVIL"
cp "$EVIL" "$ws/evil.orig"
R=$ws/.sandmux/sandbox.json
sm() { (cd "$ws" && "$SANDMUX" "$@"); }

# refused_everywhere NAME WANT: trust, policy show and run each exit 2 with
# one line holding WANT, and nothing is trusted or run.
refused_everywhere() {
	rm -f "$HOME/.sandmux/trust.json" "$ws/ran"
	out=$(sm trust 2>&1); rc=$?
	same "$1: trust exits 2" "$rc" 2
	same "$1: trust says it in one line" "$(printf '%s\n' "$out" | wc -l)" 1
	contains "$1: trust names the file and why" "$out" "$2"
	refuse "$1: nothing trusted" test -e "$HOME/.sandmux/trust.json"
	out=$(sm policy show 2>&1); rc=$?
	same "$1: policy show exits 2" "$rc" 2
	same "$1: policy show says it in one line" "$(printf '%s\n' "$out" | wc -l)" 1
	contains "$1: policy show names the file and why" "$out" "$2"
	out=$(sm run -- touch "$ws/ran" 2>&1); rc=$?
	same "$1: run exits 2" "$rc" 2
	contains "$1: run names the file and why" "$out" "$2"
	refuse "$1: run runs nothing" test -e "$ws/ran"
	same "$1: the link's target is unchanged" "$(cat "$EVIL")" "$(cat "$ws/evil.orig")"
	same "$1: the per-user file is unchanged" "$(cat "$U")" "$(cat "$ws/user.orig")"
}

mkdir -p "$ws/.sandmux"
ln -s ../evil.json "$R"
refused_everywhere "repo file linked to a writable file" "$R: a symbolic link is on its way below $ws"
ln -sf "$U" "$R"
refused_everywhere "repo file linked to ~/.sandmux/sandbox.json" "$R: a symbolic link is on its way below $ws"
rm -rf "$ws/.sandmux"
ln -s "$HOME/.sandmux" "$ws/.sandmux"
refused_everywhere "a linked .sandmux directory" "$R: a symbolic link is on its way below $ws"
rm -f "$ws/.sandmux"
mkdir -p "$ws/elsewhere"
cp "$EVIL" "$ws/elsewhere/sandbox.json"
ln -s elsewhere "$ws/.cursor"
refused_everywhere "a linked .cursor directory" "$ws/.cursor/sandbox.json: a symbolic link is on its way below $ws"
rm -f "$ws/.cursor"
mkdir -p "$ws/.sandmux"
mkfifo "$R"
# a FIFO would block a reader forever: refused at once
out=$(timeout 20 sh -c 'cd "$1" && "$2" trust' sh "$ws" "$SANDMUX" 2>&1); rc=$?
same "a FIFO as sandbox.json: trust exits 2 at once" "$rc" 2
contains "a FIFO as sandbox.json: not a regular file" "$out" "$R: not a regular file"
out=$(timeout 20 sh -c 'cd "$1" && "$2" policy show' sh "$ws" "$SANDMUX" 2>&1); rc=$?
same "a FIFO as sandbox.json: policy show exits 2 at once" "$rc" 2
rm -f "$R"
# a second name in the writable workspace: writes there would change it
ln "$EVIL" "$R"
refused_everywhere "a hard link to a writable file" "$R: has 2 hard links"
rm -f "$R"
out=$(sm trust "$EVIL" 2>&1); rc=$?
same "trust FILE: only a per-repo policy file" "$rc" 2
contains "trust FILE: says what it wants" "$out" "not a per-repo policy file"

# --- trust reads once: the bytes explained are the bytes recorded ---
# strace holds a second open of the file (the old code's re-read for the
# hash) for 5 s; the file is swapped for a widening one as soon as the
# first read is closed. The record must still be of what was read first.
echo '{}' >"$R"
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null; then
	rm -f "$HOME/.sandmux/trust.json"
	printf '{"additionalReadwritePaths": ["%s"]}\n' "$HOME/outside" >"$ws/wide.json"
	log=$ws/strace.log
	(cd "$ws" && strace -f -qq -o "$log" -P "$R" -e trace=open,openat,openat2,read,close \
		-e inject=open,openat,openat2:delay_enter=5000000:when=2+ "$SANDMUX" trust >"$ws/trust.out" 2>&1) &
	tpid=$!
	i=0; while [ $i -lt 200 ] && ! grep -q 'close(' "$log" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
	grep -q 'close(' "$log" && ok "read-once: the first read was seen" || fail "read-once: the first read was seen"
	cp "$ws/wide.json" "$ws/.sandmux/new" && mv "$ws/.sandmux/new" "$R"
	wait $tpid
	same "read-once: trust explains what it read" "$(cat "$ws/trust.out")" "sandmux: trusted $R (it widens nothing)"
	want=$(printf '{}\n' | sha256sum | cut -d' ' -f1)
	got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trusted"].get(sys.argv[2], ""))' "$HOME/.sandmux/trust.json" "$R" 2>&1)
	same "read-once: the record is of the bytes shown" "$got" "sha256:$want"
	err=$(sm policy show 2>&1 >/dev/null)
	contains "read-once: the swapped file is not trusted" "$err" "$R is not trusted"
	out=$(sm policy explain --op write "$HOME/outside/x" 2>&1)
	contains "read-once: its widening does not apply" "$out" "deny: write"
else
	ok "read-once # SKIP strace cannot run here"
fi

# --- the trust record is not read or written through a link ---
echo '{}' >"$R"
rm -f "$HOME/.sandmux/trust.json"
printf '{"additionalReadwritePaths": ["%s"]}\n' "$HOME/outside" >"$R"
tag=$(sha256sum "$R" | cut -d' ' -f1)
printf '{"version": 1, "trusted": {"%s": "sha256:%s"}}\n' "$R" "$tag" >"$ws/forged.json"
cp "$ws/forged.json" "$ws/forged.orig"
ln -s "$ws/forged.json" "$HOME/.sandmux/trust.json"
err=$(sm policy show 2>&1 >/dev/null)
contains "a linked trust record trusts nothing" "$err" "$R is not trusted"
out=$(sm trust 2>&1); rc=$?
same "trust refuses to write a linked record" "$rc" 1
contains "and names it" "$out" "$HOME/.sandmux/trust.json: a symbolic link"
same "the record's link target is unchanged" "$(cat "$ws/forged.json")" "$(cat "$ws/forged.orig")"
rm -f "$HOME/.sandmux/trust.json" "$R"

# --- ~/.sandmux/state and denials.jsonl are not written through links ---
mkdir -p "$ws/state-elsewhere"
mkdir -p "$HOME/.sandmux/state"
echo precious >"$ws/victim.txt"
ln -s "$ws/victim.txt" "$HOME/.sandmux/state/denials.jsonl"
out=$(sm run --report - -- sh -c "touch '$HOME/outside/denied'" 2>&1)
contains "a denial happened (the run's report)" "$out" "$HOME/outside/denied"
same "denials.jsonl linked: the target is unchanged" "$(cat "$ws/victim.txt")" "precious"
contains "and the run says why" "$out" "$HOME/.sandmux/state/denials.jsonl: a symbolic link; refused"
rm -rf "$HOME/.sandmux/state"
ln -s "$ws/state-elsewhere" "$HOME/.sandmux/state"
out=$(sm run -- true 2>&1); rc=$?
same "a linked ~/.sandmux/state: run refuses" "$rc" 1
contains "and names it" "$out" "$HOME/.sandmux/state: a symbolic link; refused"
same "nothing was made through it" "$(ls -A "$ws/state-elsewhere")" ""
rm -f "$HOME/.sandmux/state"
check "with a plain state directory, run works again" sm run -- true

# --- a link the command plants at its own --report path is not followed ---
echo precious >"$ws/victim.txt"
out=$(sm run --report "$ws/report.json" -- sh -c "ln -sf '$ws/victim.txt' '$ws/report.json'; touch '$HOME/outside/r'" 2>&1)
same "--report: the command's link target is unchanged" "$(cat "$ws/victim.txt")" "precious"
[ -L "$ws/report.json" ] && ok "--report: the command did plant its link" || fail "--report: the command did plant its link"

# --- the shared build cache is not bound through a link ---
mkdir -p "$ws/cache-target" "$HOME/.sandmux/state/tmp"
ln -s "$ws/cache-target" "$HOME/.sandmux/state/tmp/shared-cache"
echo '{"enableSharedBuildCache": true}' >"$ws/cache.json"
out=$(sm run --config "$ws/cache.json" -- sh -c 'echo x > "$PIP_CACHE_DIR.probe"' 2>&1); rc=$?
refuse "a linked shared-cache: run refuses" [ "$rc" = 0 ]
contains "and names it" "$out" "shared-cache: a symbolic link; refused"
same "nothing was written through it" "$(ls -A "$ws/cache-target")" ""
rm -f "$HOME/.sandmux/state/tmp/shared-cache"
