#!/bin/sh
# Installs the Debian packages sandmux needs to build (or those named on
# the command line) that are missing. As root it runs apt-get; otherwise it
# tries sudo without a password, and when that is not possible it names
# exactly what is missing and fails. Plain sh: it runs before make exists.
[ $# -gt 0 ] || set -- make gcc libc6-dev pkg-config libcjson-dev libseccomp-dev libncurses-dev libvterm-dev
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "sandmux: missing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
	echo "sandmux: installing them with apt-get"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing && exit 0
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing && exit 0
fi
echo "sandmux: cannot install them; as root run: apt-get install$missing" >&2
exit 1
