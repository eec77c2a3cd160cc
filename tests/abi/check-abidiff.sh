#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# abi.abidiff: the ABI of the built libpmc.so (its exported functions and variables and the
# public types they reach, read from DWARF) against the checked-in tests/abi/libpmc.abi.
# Any difference fails, additions included. With PMC_ABI_UPDATE=1 (update-baseline.sh) it
# writes the baseline instead.
#   SRC=source-dir BUILD=build-dir LIB=libpmc.so check-abidiff.sh
set -euo pipefail
: "${SRC:?}" "${BUILD:?}" "${LIB:?}"
# Real paths: a path spelled through a symlink would miss abidw's.
SRC=$(cd "$SRC" && pwd -P)
BUILD=$(cd "$BUILD" && pwd -P)
baseline=$SRC/tests/abi/libpmc.abi
tmp=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$tmp"' EXIT

# Without DWARF, abidiff sees only symbol names and would pass any change of a type.
if ! readelf -S "$LIB" | grep -q '\.debug_info'; then
	echo "abi.abidiff: $LIB has no DWARF (.debug_info); it must be built with -g" >&2
	exit 1
fi

# Only the types of include/pmc count (--headers-dir, --drop-private-types): the bodies of
# opaque objects may change freely. Locations, the build folder and the dependencies'
# sonames are left out, and each translation unit's path is made relative to the build
# folder (generated sources, as BUILD/...) or else to the source tree, so that the file is
# the same whatever folder (inside the source tree or not) or build type produced it.
abidw --headers-dir "$SRC/include/pmc" --drop-private-types --drop-undefined-syms \
	--no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed --type-id-style hash \
	"$LIB" | sed "s|path='$BUILD/|path='BUILD/|; s|path='$SRC/|path='|" >"$tmp/libpmc.abi"
if grep -n "='/" "$tmp/libpmc.abi" >&2; then
	echo "abi.abidiff: the ABI dump of $LIB still holds absolute paths (above)" >&2
	exit 1
fi

if [ "${PMC_ABI_UPDATE:-0}" = 1 ]; then
	cp "$tmp/libpmc.abi" "$baseline"
	echo "abi.abidiff: wrote $baseline from $LIB"
	exit 0
fi

rc=0
abidiff "$baseline" "$tmp/libpmc.abi" >"$tmp/diff" 2>&1 || rc=$?
if [ $rc != 0 ]; then
	sed 's/^/    /' "$tmp/diff"
	# abidiff's status is a bit mask: 1 error, 2 usage, 4 ABI change, 8 incompatible change.
	if [ $((rc & 3)) != 0 ]; then
		echo "abi.abidiff: abidiff failed (status $rc) on $baseline and $LIB"
	elif [ $((rc & 8)) != 0 ]; then
		echo "abi.abidiff: $LIB breaks the ABI of tests/abi/libpmc.abi (above)."
	else
		echo "abi.abidiff: $LIB changes the ABI of tests/abi/libpmc.abi (above)."
	fi
	echo "abi.abidiff: if the change is intended, run tests/abi/update-baseline.sh BUILD_DIR" \
	     "and commit tests/abi/libpmc.abi with it (tests/abi/README.md)."
	exit 1
fi
echo "abi.abidiff: $LIB matches tests/abi/libpmc.abi"
