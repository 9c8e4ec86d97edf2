#!/bin/bash
# scripts/format.sh - applies .clang-format to every C file of the project.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files "*.c" "*.h" | xargs -r clang-format -i
