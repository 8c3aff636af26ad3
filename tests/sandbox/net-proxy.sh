#!/bin/sh
# networkPolicy through the proxy, with curl as a person would use it:
# HTTP CONNECT, plain HTTP and SOCKS5 (socks5h), IPv4 and IPv6, exact,
# wildcard, CIDR and host:port rules, deny beating allow, names resolving
# to private addresses, and the denial lines and events. Test hosts: see
# tests/net/netns.inc.
. "$TESTS/net/netns.inc"
net_up || { fail "test hosts in a network namespace"; exit 1; }

# One sandbox for every allowed fetch: each prints its marker line.
out=$(nrun -- sh -c '
curl -sS --max-time 5 http://good.test/plain
curl -sS --max-time 5 -p http://good.test/connect
curl -sS --max-time 5 -x "$ALL_PROXY" http://good.test/socks
curl -sS --max-time 5 -p http://v6only.test/v6name
curl -sS --max-time 5 -x "$ALL_PROXY" "http://[2001:db8::10]/v6lit"
curl -sS --max-time 5 http://api.wild.test/wild
curl -sS --max-time 5 -p http://wild.test/apex
curl -sS --max-time 5 http://198.51.100.10/cidr
curl -sS --max-time 5 -p http://porty.test:8080/port
echo "proxy=$HTTPS_PROXY all=$ALL_PROXY no=$NO_PROXY"' 2>&1)
contains "plain HTTP through the proxy" "$out" "hello from 198.51.100.10:80 /plain host=good.test"
contains "HTTP CONNECT through the proxy" "$out" "hello from 198.51.100.10:80 /connect host=good.test"
contains "SOCKS5 with a remote name (socks5h)" "$out" "hello from 198.51.100.10:80 /socks host=good.test"
contains "IPv6: a name with only AAAA" "$out" "hello from 2001:db8::10:80 /v6name"
contains "IPv6: a literal allowed by CIDR, over SOCKS5" "$out" "hello from 2001:db8::10:80 /v6lit"
contains "wildcard *.wild.test matches a subdomain" "$out" "hello from 198.51.100.10:80 /wild"
contains "wildcard *.wild.test matches the domain itself" "$out" "hello from 198.51.100.10:80 /apex"
contains "an IPv4 literal allowed by CIDR" "$out" "hello from 198.51.100.10:80 /cidr"
contains "host:port rule allows its port" "$out" "hello from 198.51.100.10:8080 /port"
contains "the proxy variables" "$out" "proxy=http://127.0.0.1:3128 all=socks5h://127.0.0.1:3128 no=localhost,127.0.0.1,::1"
case "$out" in *"sandmux: denied"*) fail "no denial for allowed hosts"; echo "$out" | sed 's/^/#   /' ;; *) ok "no denial for allowed hosts" ;; esac

# HTTPS: curl finds HTTPS_PROXY and tunnels TLS through CONNECT; the
# certificate is the test's own, so -k.
if openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=good.test -keyout "$ws/.t/key.pem" \
	-out "$ws/.t/cert.pem" >/dev/null 2>&1; then
	srv python3 "$NET/httpd.py" 198.51.100.10 443 "$ws/.t/cert.pem" "$ws/.t/key.pem" & T_PIDS="$T_PIDS $!"
	i=0; until curl -sk -o /dev/null https://198.51.100.10/ || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
	out=$(nrun -- curl -sS -k --max-time 5 https://good.test/tls 2>&1)
	contains "HTTPS through the proxy (HTTPS_PROXY, CONNECT)" "$out" "hello from 198.51.100.10:443 /tls"
fi

# git over HTTP (the dumb protocol, served by a plain HTTP server) finds
# the proxy through http_proxy like any curl-based tool.
if command -v git >/dev/null; then
	git_serve 8081
	out=$(nrun -- sh -c 'git clone -q -b main http://good.test:8081/repo.git clone && cat clone/f' 2>&1)
	contains "git clone over HTTP through the proxy" "$out" "hello-git"
fi

# Denied: each fails, and the end of the run says why, once per host.
out=$(nrun --report "$ws/.t/report.json" -- sh -c '
for u in http://denied.test/ http://denied.test/again http://bad.wild.test/ http://198.51.100.11/ http://porty.test/; do
	curl -sS --max-time 5 -o /dev/null -w "%{http_code}\n" "$u"
done
curl -sS --max-time 5 -p http://denied.test/ 2>&1 | grep -o "response 403"
curl -sS --max-time 5 -x "$ALL_PROXY" http://denied.test/ 2>&1 | grep -o "(2)"' 2>&1)
same "denied requests get 403" "$(echo "$out" | grep -c '^403$')" 5
contains "CONNECT to a denied host gets 403" "$out" "response 403"
contains "SOCKS5 to a denied host gets reply 2 (not allowed)" "$out" "(2)"
report=$(cat "$ws/.t/report.json" 2>/dev/null)
contains "the denial is an event of the proxy layer" "$report" '"layer":	"proxy"'
contains "the event names target and rule" "$report" '"target":	"denied.test:80"'
contains "the event suggests the allow entry" "$report" '"networkPolicy.allow":	["denied.test"]'
contains "deny beats allow: the deny rule is named" "$report" '"rule":	"networkPolicy.deny: bad.wild.test"'
contains "an IPv4 literal outside the CIDR is denied" "$report" '"target":	"198.51.100.11:80"'
contains "host:port rule: another port is denied" "$report" '"target":	"porty.test:80"'

out=$(nrun -- curl -sS --max-time 5 http://denied.test/ 2>&1 >/dev/null; nrun -- curl -sS --max-time 5 http://denied.test/x 2>&1 >/dev/null)
line='sandmux: denied connect denied.test:80 (networkPolicy: not in allow list) — allow with: "networkPolicy": {"allow": ["denied.test"]}'
contains "sandmux run prints the denial line at the end" "$out" "$line"
out=$(nrun -- sh -c 'curl -sS --max-time 5 http://denied.test/a; curl -sS --max-time 5 http://denied.test/b; curl -sS --max-time 5 http://bad.wild.test/' 2>&1)
same "one line per denied host" "$(echo "$out" | grep -c '^sandmux: denied connect denied.test:80')" 1
same "one line for the other denied host" "$(echo "$out" | grep -c '^sandmux: denied connect bad.wild.test:80')" 1

# Allowed names that resolve to addresses no rule can open: refused
# before any connect, with no suggestion.
for h in priv.test lo.test meta.test mapped.test zero.test ula.test mixed.test self.test; do
	out=$(nrun -- curl -sS --max-time 5 -p "http://$h/" 2>&1)
	contains "$h: refused by address" "$out" "sandmux: denied connect $h:80"
	contains "$h: no broadening offered" "$out" "sandmux offers no broadening for this"
done
out=$(nrun -- curl -sS --max-time 5 -p http://priv.test/ 2>&1)
contains "the refusal names the resolved address" "$out" "priv.test resolved to 10.1.2.3"
out=$(nrun -- curl -sS --max-time 5 -p http://self.test/ 2>&1)
contains "an address of the proxy's own host is refused" "$out" "hardcoded: an address of this host; self.test resolved to 198.51.100.1"
for lit in 127.0.0.1 169.254.169.254 '[::1]' '[::ffff:127.0.0.1]' 0.0.0.0 10.0.0.1; do
	out=$(nrun -- sh -c 'curl -sS --max-time 5 --noproxy "" -x "$ALL_PROXY" "http://$0:5353/"' "$lit" 2>&1)
	contains "literal $lit refused" "$out" "sandmux: denied connect"
done
# What no policy entry can open is named for what it is, and nothing is
# offered for it (no allow entry, hence no prompt): ::1 was "unspecified
# address", and the host's own address came with an allow entry.
out=$(nrun --report "$ws/.t/fixed.json" -- sh -c '
for t in "[::1]" 198.51.100.1; do curl -sS --max-time 5 --noproxy "" -p "http://$t:5353/"; done' 2>&1)
report=$(cat "$ws/.t/fixed.json" 2>/dev/null)
contains "::1 is refused as loopback" "$report" '"rule":	"hardcoded: loopback ::1"'
contains "the host's own address, as such" "$report" '"rule":	"hardcoded: an address of this host"'
case "$report" in *'"networkPolicy.allow"'*) fail "no allow entry offered for fixed blocks"; echo "$report" | sed 's/^/#   /' ;;
	*) ok "no allow entry offered for fixed blocks" ;; esac
case "$out" in *"allow with"*) fail "the denial lines offer nothing"; echo "$out" | sed 's/^/#   /' ;;
	*) ok "the denial lines offer nothing" ;; esac
exit $T_FAILED
