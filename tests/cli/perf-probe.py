#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Asks the kernel, without pmc, whether this process may open a software event.

Usage: perf-probe.py user|kernel|cpu [PID]

user: task-clock at user level on PID (default: this process); kernel: the same with the
kernel counted; cpu: cpu-clock on the first CPU this process may run on, every task.
Prints "ok", or the errno's name (EACCES, EPERM, ...), so that tests compare what pmc says
with what the kernel does, not with what its settings suggest. Prints "unknown-arch" and
exits 2 on an architecture whose system call number it does not know (add it here).
"""
import ctypes
import errno
import os
import platform
import struct
import sys

NR_PERF_EVENT_OPEN = {"x86_64": 298, "aarch64": 241, "riscv64": 241, "ppc64le": 319,
                      "ppc64": 319, "s390x": 331, "i686": 336, "armv7l": 364}
PERF_TYPE_SOFTWARE = 1
PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK = 0, 1
DISABLED, EXCLUDE_KERNEL, EXCLUDE_HV = 1 << 0, 1 << 5, 1 << 6
ATTR_SIZE = 128


def main():
    nr = NR_PERF_EVENT_OPEN.get(platform.machine())
    if nr is None:
        print("unknown-arch")
        return 2
    kind = sys.argv[1]
    pid = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    cpu = -1
    config = PERF_COUNT_SW_TASK_CLOCK
    flags = DISABLED | EXCLUDE_HV | (0 if kind == "kernel" else EXCLUDE_KERNEL)
    if kind == "cpu":
        pid, cpu, config = -1, min(os.sched_getaffinity(0)), PERF_COUNT_SW_CPU_CLOCK
    # type, size, config, sample_period, sample_type, read_format, the flag bits; then zeros
    head = struct.pack("=IIQQQQQ", PERF_TYPE_SOFTWARE, ATTR_SIZE, config, 0, 0, 0, flags)
    attr = ctypes.create_string_buffer(head + bytes(ATTR_SIZE - len(head)), ATTR_SIZE)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    fd = libc.syscall(ctypes.c_long(nr), attr, ctypes.c_int(pid), ctypes.c_int(cpu),
                      ctypes.c_int(-1), ctypes.c_ulong(0))
    if fd < 0:
        print(errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno())))
    else:
        os.close(fd)
        print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
