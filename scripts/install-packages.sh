#!/bin/bash
# scripts/install-packages.sh - installs the Debian packages in scripts/packages.txt that are missing.
# Non-interactive and idempotent; services that packages ship are kept from starting.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

mapfile -t wanted < <(grep -v '^#' "$here/packages.txt" | grep -v '^[[:space:]]*$')
missing=()
for p in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
	echo "install-packages: all ${#wanted[@]} packages present"
	exit 0
fi
echo "install-packages: installing ${missing[*]}"
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)

# policy-rc.d exit 101 tells invoke-rc.d not to start daemons (knot, kresd, unbound, named,
# pdns_recursor) on install.
policy=/usr/sbin/policy-rc.d
created_policy=
if [[ ! -e $policy ]]; then
	printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee $policy >/dev/null
	"${sudo[@]}" chmod +x $policy
	created_policy=1
fi
restore() { [[ -z $created_policy ]] || "${sudo[@]}" rm -f $policy; }
trap restore EXIT

export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Units that got enabled must not start on the next boot either, nor hold port 53 now.
for unit in knot.service kresd@1.service kresd.target kres-cache-gc.service unbound.service \
	unbound-resolvconf.service named.service named-resolvconf.service pdns-recursor.service; do
	"${sudo[@]}" systemctl disable --now "$unit" >/dev/null 2>&1 || true
done
