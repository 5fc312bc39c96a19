#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The example payload: read input/data.txt, summarize it, write out/result.txt.

Inside nsbox, input/ is read-only, out/ is writable, and nothing else of the
host's files is visible beyond the read-only system view.
"""

import os
import socket
import sys


def main() -> int:
    with open("input/data.txt", encoding="utf-8") as f:
        rows = [line.split() for line in f if line.strip()]
    total = sum(int(count) for _, count in rows)
    largest = max(rows, key=lambda r: int(r[1]))

    print(f"read {len(rows)} rows from input/data.txt: {total} items in all, "
          f"most of them {largest[0]} ({largest[1]})")
    print(f"inside the sandbox: uid {os.getuid()}, pid {os.getpid()}, "
          f"hostname {socket.gethostname()}")

    # input/ is bound read-only: writing there must fail.
    try:
        with open("input/scratch.txt", "w", encoding="utf-8"):
            pass
        print("unexpected: input/ is writable", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"input/ is read-only, as asked ({e.strerror})")

    with open("out/result.txt", "w", encoding="utf-8") as f:
        f.write(f"rows {len(rows)}\ntotal {total}\nlargest {largest[0]}\n")
    print("wrote out/result.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
