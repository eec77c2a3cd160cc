#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that every C source and header git tracks is formatted as .clang-format says; with
# --fix, formats them in place.  Debian 12's clang-format (14) is the reference.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=(--dry-run --Werror)
[ "${1:-}" = --fix ] && mode=(-i)
command -v clang-format >/dev/null || {
	echo "check-format: clang-format is not installed (scripts/setup.sh --test)" >&2
	exit 1
}
mapfile -t files < <(git ls-files '*.c' '*.h' '*.h.in')
if ! clang-format "${mode[@]}" "${files[@]}" 2>"${TMPDIR:-/tmp}/check-format.$$"; then
	grep -oE '^[^ :]+:[0-9]+' "${TMPDIR:-/tmp}/check-format.$$" | cut -d: -f1 | sort -u |
		sed 's/^/check-format: not formatted: /' >&2
	rm -f "${TMPDIR:-/tmp}/check-format.$$"
	echo "check-format: the files above are not formatted as .clang-format says; run scripts/check-format.sh --fix" >&2
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/check-format.$$"
echo "check-format: ${#files[@]} files formatted as .clang-format says"
