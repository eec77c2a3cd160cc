#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# abi.headers: each public header (include/pmc, and the vpmu protocol in include/vpmu) compiles
# alone, as C11 and as C++11, without a warning, and a header that declares functions gives
# them C linkage in C++ (extern "C").
#   CC=cc CXX=c++ check-headers.sh INCLUDE_DIR
set -uo pipefail
inc=${1:?usage: check-headers.sh INCLUDE_DIR}
tmp=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$tmp"' EXIT
fail=0
headers=("$inc"/pmc/*.h "$inc"/vpmu/*.h)
for h in "${headers[@]}"; do
	name=${h#"$inc"/}
	printf '#include <%s>\n' "$name" >"$tmp/tu.c"
	# The vpmu protocol's records end in flexible array members, which C++ has only as the
	# extension g++ and clang++ accept: it is checked as C++ without -pedantic.
	cxx_pedantic=-pedantic
	[[ $name == vpmu/* ]] && cxx_pedantic=
	if ! out=$("${CC:-cc}" -std=c11 -Wall -Wextra -Werror -pedantic -I"$inc" -fsyntax-only \
		   "$tmp/tu.c" 2>&1); then
		printf 'abi.headers: %s does not compile alone as C11:\n%s\n' "$name" \
			"$(head -n 8 <<<"$out")"
		fail=1
	fi
	if ! out=$("${CXX:-c++}" -std=c++11 -Wall -Wextra -Werror $cxx_pedantic -I"$inc" \
		   -fsyntax-only -x c++ "$tmp/tu.c" 2>&1); then
		printf 'abi.headers: %s does not compile alone as C++11:\n%s\n' "$name" \
			"$(head -n 8 <<<"$out")"
		fail=1
	fi
	# Compiling cannot see a missing extern "C": C++ callers would fail only at link time.
	if grep -q '\bPMC_API\b' "$h" && ! grep -q '^extern "C" {' "$h"; then
		printf 'abi.headers: %s declares PMC_API functions without extern "C" for C++\n' \
			"$name"
		fail=1
	fi
done
if [ $fail = 0 ]; then
	echo "abi.headers: each of the ${#headers[@]} headers compiles alone" \
	     "as C11 and C++11"
fi
exit $fail
