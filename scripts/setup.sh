#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what pmc needs from Debian's packages (run as root on Debian 12).
#   scripts/setup.sh          build and run pmc
#   scripts/setup.sh --test   also what the tests, fuzzers and benchmarks use
set -euo pipefail
pkgs=(build-essential cmake pkg-config libpfm4-dev libdw-dev libelf-dev libcapstone-dev
      libjansson-dev libiberty-dev libzstd-dev valgrind python3 scdoc protobuf-c-compiler
      libprotobuf-c-dev zlib1g-dev golang-github-google-pprof-dev)
if [ "${1:-}" = "--test" ]; then
	pkgs+=(libcriterion-dev clang libclang-rt-14-dev linux-perf libpapi-dev hyperfine
	       binutils abigail-tools clang-format man-db groff-base bsdextrautils locales
	       chromium protobuf-compiler golang-go python3-jsonschema openmpi-bin libopenmpi-dev
	       likwid gfortran zstd)
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: ${#pkgs[@]} packages present"
# Tracepoints (syscalls:*) need tracefs, which a fresh machine may not have mounted; as root,
# mount it where the kernel provides the mount point, as perf does on first use.
if [ ! -d /sys/kernel/tracing/events ] && [ -d /sys/kernel/tracing ] && [ "$(id -u)" = 0 ]; then
	if mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
		echo "setup: mounted tracefs on /sys/kernel/tracing"
	else
		echo "setup: cannot mount tracefs on /sys/kernel/tracing: tracepoints unavailable" >&2
	fi
fi
