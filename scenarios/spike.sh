#!/bin/bash
# scenarios/spike.sh - the main experiment (placeholder until the scenarios issue lands).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-packages.sh"
"$root/scripts/build.sh" >/dev/null
echo "spike.sh: the spike scenario is not built yet (issue: scenarios); the programs are in $root/build/bin" >&2
exit 1
