#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rewrites tests/abi/libpmc.abi from a build tree, for a commit that changes libpmc's ABI on
# purpose; the dump is made exactly as abi.abidiff makes it (check-abidiff.sh).
#   tests/abi/update-baseline.sh BUILD_DIR     (a configured tree with testing on)
set -euo pipefail
build=${1:?usage: tests/abi/update-baseline.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/../.." && pwd)
cmake --build "$build" --target abi-lib
PMC_ABI_UPDATE=1 ctest --test-dir "$build" -R '^abi\.abidiff$' --output-on-failure
# Show what the commit will change, so that nothing unintended goes in with it.
git -C "$src" diff --stat -- tests/abi/libpmc.abi
