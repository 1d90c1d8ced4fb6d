#!/usr/bin/env python3
"""What a durable commit costs on this disk, by the shape of its writes.

An LMDB commit under --durability full pwrite()s every page the group dirtied,
fdatasync()s them, then writes the meta page through an O_DSYNC descriptor.
This times the same system calls on a file of its own for a few shapes: the
pages scattered (as a B-tree's random leaves and their parents are), the same
pages side by side, and one small sequential append (what a log would write).
It prints milliseconds per commit; nothing here is asserted.

Usage: bench/disk-writes.py [--dir DIR] [--commits N] [--pages N]
"""

import argparse
import os
import random
import tempfile
import time

PAGE = 4096


def timed(label, commits, one_commit):
    start = time.perf_counter()
    for _ in range(commits):
        one_commit()
    per_commit_ms = (time.perf_counter() - start) / commits * 1000
    print(f"  {label:58s} {per_commit_ms:6.3f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", default=".", help="directory on the disk to measure")
    parser.add_argument("--commits", type=int, default=400, help="commits per shape")
    parser.add_argument("--pages", type=int, default=16, help="data pages per commit")
    parser.add_argument("--file-mib", type=int, default=40, help="size of the test file")
    args = parser.parse_args()

    page = b"p" * PAGE
    file_pages = args.file_mib * 1024 * 1024 // PAGE
    with tempfile.NamedTemporaryFile(dir=args.dir, prefix="disk-writes-") as handle:
        data_fd = handle.fileno()
        # Written and synced up front, so every later write overwrites allocated
        # blocks, as LMDB's do once its file has grown.
        for first in range(0, file_pages, 256):
            os.pwrite(data_fd, page * 256, first * PAGE)
        os.fsync(data_fd)
        meta_fd = os.open(handle.name, os.O_RDWR | os.O_DSYNC)
        try:
            def commit(offsets, run_length=1):
                for offset in offsets:
                    os.pwrite(data_fd, page * run_length, offset * PAGE)
                os.fdatasync(data_fd)
                os.pwrite(meta_fd, page[:120], 0)

            def scattered(region_pages):
                def one():
                    first = random.randrange(2, file_pages - region_pages)
                    commit(sorted(random.sample(range(first, first + region_pages), args.pages)))
                return one

            def contiguous():
                commit([random.randrange(2, file_pages - args.pages)], args.pages)

            log_end = [0]

            def log_append():
                record = b"r" * 2400  # eight ~300-byte PutItems
                os.pwrite(data_fd, record, log_end[0])
                log_end[0] = (log_end[0] + len(record)) % (file_pages * PAGE // 2)
                os.fdatasync(data_fd)

            print(f"{args.commits} commits per shape, {args.pages} pages of {PAGE} bytes, "
                  f"then fdatasync, then a 120-byte O_DSYNC meta write; file {args.file_mib} MiB in {args.dir}")
            timed("1 page", args.commits, lambda: commit([random.randrange(2, file_pages)]))
            timed(f"{args.pages} pages side by side (one pwrite)", args.commits, contiguous)
            timed(f"{args.pages} pages scattered over 64 pages", args.commits, scattered(64))
            timed(f"{args.pages} pages scattered over 1024 pages (4 MiB)", args.commits, scattered(1024))
            timed(f"{args.pages} pages scattered over the whole file", args.commits, scattered(file_pages - 4))
            timed("a log: 2,400 bytes appended, fdatasync, no meta write", args.commits, log_append)
        finally:
            os.close(meta_fd)


if __name__ == "__main__":
    main()
