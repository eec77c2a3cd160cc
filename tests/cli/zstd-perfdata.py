#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a perf.data file of many samples, plain or as perf record -z writes it.

Usage: zstd-perfdata.py PLAIN ZSTD ELF ROUNDS PER_ROUND ADDR... [--no-time] [--no-rounds] [--pipe]

One cpu-clock event (ip, tid, time and period; no time with --no-time), a COMM and an MMAP of
ELF (pid 7, at 0x555555554000, from file offset 0), then ROUNDS rounds of PER_ROUND samples,
each round ended by a FINISHED_ROUND (none with --no-rounds): sample i of a round is at ELF's address ADDR[i % n]
(hexadecimal, as nm prints them), its time the round's plus i, its period 1000 plus a
pseudo-random number below 10 (so that the data compress about 100 times, under the reader's
limit of 256). PLAIN gets the records as they are; ZSTD the same records as perf record -z
writes them: compressed with the zstd command as one stream, cut into PERF_RECORD_COMPRESSED
records of at most 60,000 bytes (so records are split across them, as perf's are).
--pipe writes pipe mode (perf record -o -): the attr as a record, no file header.
"""
import random
import struct
import subprocess
import sys

IP, TID, TIME, PERIOD = 1 << 0, 1 << 1, 1 << 2, 1 << 8
MMAP, COMM, SAMPLE = 1, 3, 9
HEADER_ATTR, FINISHED_ROUND, COMPRESSED = 64, 68, 81
ATTR_SIZE = 128
BASE, PID = 0x555555554000, 7


def rec(rtype, body, misc=0):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def attr(sample_type):
    a = bytearray(ATTR_SIZE)
    struct.pack_into("<IIQQQ", a, 0, 1, ATTR_SIZE, 0, 1000, sample_type)  # cpu-clock
    struct.pack_into("<Q", a, 40, 1 << 6)  # exclude_hv
    return bytes(a)


def records(elf, rounds, per_round, addrs, sample_type, finished):
    path = elf.encode() + b"\0" * (8 - len(elf) % 8)
    yield rec(COMM, struct.pack("<II", PID, PID) + b"gen\0\0\0\0\0")
    yield rec(MMAP, struct.pack("<IIQQQ", PID, PID, BASE, 1 << 20, 0) + path)
    rnd = random.Random(1)
    for r in range(rounds):
        out = []
        for i in range(per_round):
            ip = BASE + addrs[i % len(addrs)]
            period = 1000 + (rnd.randrange(64) == 0)
            if sample_type & TIME:
                body = struct.pack("<QIIQQ", ip, PID, PID, r * per_round + i // 32, period)
            else:
                body = struct.pack("<QIIQ", ip, PID, PID, period)
            out.append(rec(SAMPLE, body))
        if finished:
            out.append(rec(FINISHED_ROUND, b""))
        yield b"".join(out)


def compressed(chunks):
    z = subprocess.Popen(["zstd", "-q", "-c", "-3"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    # The output is read in a thread of its own: the pipe would fill while we write.
    import threading
    got = []
    t = threading.Thread(target=lambda: got.append(z.stdout.read()))
    t.start()
    for c in chunks:
        z.stdin.write(c)
    z.stdin.close()
    t.join()
    if z.wait() != 0:
        sys.exit("zstd failed")
    data, out = got[0], []
    for p in range(0, len(data), 60000):
        out.append(rec(COMPRESSED, data[p:p + 60000]))
    return b"".join(out)


def write(path, a, body, pipe):
    with open(path, "wb") as f:
        if pipe:
            f.write(struct.pack("<QQ", 0x32454C4946524550, 16))
            f.write(rec(HEADER_ATTR, a + struct.pack("<Q", 1)))
        else:
            data_off = 104 + ATTR_SIZE + 16
            f.write(struct.pack("<QQQQQQQ", 0x32454C4946524550, 104, ATTR_SIZE + 16,
                                104, ATTR_SIZE + 16, data_off, len(body)))
            f.write(bytes(16 + 32))  # event_types, features
            f.write(a + bytes(16))
        f.write(body)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    plain, packed, elf, rounds, per_round = args[0], args[1], args[2], int(args[3]), int(args[4])
    addrs = [int(a, 16) for a in args[5:]]
    sample_type = IP | TID | PERIOD | (0 if "--no-time" in flags else TIME)
    a = attr(sample_type)
    body = b"".join(records(elf, rounds, per_round, addrs, sample_type,
                            "--no-rounds" not in flags))
    write(plain, a, body, "--pipe" in flags)
    write(packed, a, compressed([body]), "--pipe" in flags)


if __name__ == "__main__":
    main()
