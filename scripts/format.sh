#!/bin/bash
# scripts/format.sh [FILE...] - applies .clang-format to the C files named, or to every C file of
# the project when none is named.
set -euo pipefail
if (($#)); then
	exec clang-format -i "$@"
fi
cd "$(dirname "$0")/.."
git ls-files "*.c" "*.h" | xargs -r clang-format -i
