#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The members of the static libraries a launch runs (make hot-functions).

tools/hot-functions.txt gathers nsbox's own functions at the start of its
text; in the static build, glibc's and libmnl's code is there too, compiled
without -ffunction-sections, one input section per archive member (malloc.o,
memcpy-evex-unaligned-erms.o, ...).  This lists those members, so that the
linker script (Makefile, HOT_LD) can gather them as well:

  hot-archive.py write MAP LIST STEPS...
      STEPS: tools/hotstep.c's output (ROLE OFFSET lines) for launches of the
      nsbox that the link map MAP describes.  Writes LIST: one ARCHIVE:MEMBER
      per line, in the three groups of tools/hot-functions.txt (the
      supervisor's alone, both processes', init's and the payload's alone).

  hot-archive.py check MAP LIST LO HI
      Every member LIST names has text in MAP, all of it in [LO, HI) (the
      .text.nsb_hot section, hex).  Exit 1 naming each one that does not.

Only archives are listed (crt files and nsbox's own objects are placed by
HOT_LD otherwise), and only those whose members the linker script can name:
libc.a and libmnl.a (libcap-ng.a goes whole, init alone calls it).
"""
import bisect
import os
import re
import sys

ARCHIVES = ("libc.a", "libmnl.a")
HEADER = """\
# The members of the static libraries (glibc, libmnl) whose code a default
# launch of the static nsbox runs, laid out with tools/hot-functions.txt at
# the start of its text (Makefile, HOT_LD).  Written by make hot-functions
# (tools/hotstep.c single-steps a launch as root and as nsbox-test; then
# tools/hot-archive.py); checked by make check-hot-list.  The same three
# groups.  The string functions are the variants this machine's CPU picks
# (evex here); on another CPU others run from outside the section, which
# costs a fault or two, nothing else.
"""


def text_sections(map_path):
    """(address, size, archive, member) of every text input section in MAP."""
    out = []
    pending = None
    with open(map_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if pending is not None:
                fields = line.split()
                if len(fields) >= 3 and fields[0].startswith("0x"):
                    out.append((int(fields[0], 16), int(fields[1], 16), " ".join(fields[2:])))
                pending = None
                continue
            m = re.match(r"^ (\.text\S*)\s*$", line)
            if m:
                pending = m.group(1)
                continue
            m = re.match(r"^ \.text\S*\s+(0x[0-9a-f]+)\s+(0x[0-9a-f]+)\s+(.*)$", line)
            if m:
                out.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3).strip()))
    sections = []
    for addr, size, origin in out:
        m = re.match(r"^.*/([^/(]+)\(([^)]+)\)$", origin)
        if size and m and m.group(1) in ARCHIVES:
            sections.append((addr, size, m.group(1), m.group(2)))
    sections.sort()
    return sections


def member_at(sections, starts, offset):
    i = bisect.bisect_right(starts, offset) - 1
    if i >= 0:
        addr, size, archive, member = sections[i]
        if addr <= offset < addr + size:
            return f"{archive}:{member}"
    return None


def write(map_path, list_path, steps):
    sections = text_sections(map_path)
    starts = [s[0] for s in sections]
    roles = {}
    for path in steps:
        with open(path, encoding="ascii") as f:
            for line in f:
                role, offset = line.split()
                name = member_at(sections, starts, int(offset, 16))
                if name:
                    roles.setdefault(name, set()).add(int(role))
    if not roles:
        sys.exit("hot-archive: no archive member ran: was the nsbox traced the static one "
                 f"that {map_path} describes?")
    groups = {"supervisor": [], "both": [], "init": []}
    for name, r in roles.items():
        group = "supervisor" if r == {0} else "init" if 0 not in r else "both"
        groups[group].append(name)
    with open(list_path + ".tmp", "w", encoding="ascii") as f:
        f.write(HEADER)
        for group in ("supervisor", "both", "init"):
            f.write(f"# {group}\n")
            for name in sorted(groups[group]):
                f.write(name + "\n")
    os.replace(list_path + ".tmp", list_path)
    print(f"hot-archive: {len(roles)} members in {list_path} "
          f"({len(groups['supervisor'])} the supervisor's, {len(groups['both'])} both's, "
          f"{len(groups['init'])} init's)")


def check(map_path, list_path, lo, hi):
    sections = text_sections(map_path)
    where = {}
    for addr, size, archive, member in sections:
        where.setdefault(f"{archive}:{member}", []).append((addr, size))
    bad = 0
    n = 0
    with open(list_path, encoding="ascii") as f:
        for line in f:
            name = line.strip()
            if not name or name.startswith("#"):
                continue
            n += 1
            if name not in where:
                print(f"check-hot-list: {list_path}: {name} is no longer linked into nsbox",
                      file=sys.stderr)
                bad = 1
                continue
            for addr, size in where[name]:
                if addr < lo or addr + size > hi:
                    print(f"check-hot-list: {name} at {addr:#x} lies outside .text.nsb_hot "
                          f"[{lo:#x}, {hi:#x})", file=sys.stderr)
                    bad = 1
    if bad:
        print(f"check-hot-list: the list is stale: run 'make hot-functions' as root and "
              f"commit {list_path}", file=sys.stderr)
        sys.exit(1)
    print(f"check-hot-list: {n} archive members, all in .text.nsb_hot")


def main(argv):
    if len(argv) >= 4 and argv[1] == "write":
        write(argv[2], argv[3], argv[4:])
    elif len(argv) == 6 and argv[1] == "check":
        check(argv[2], argv[3], int(argv[4], 16), int(argv[5], 16))
    else:
        sys.exit("usage: hot-archive.py write MAP LIST STEPS... | check MAP LIST LO HI")


if __name__ == "__main__":
    main(sys.argv)
