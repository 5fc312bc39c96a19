#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Summarise one array job's records (examples/slurm/nsbox-array.sbatch).

    python3 examples/slurm/summarize.py batch/results/<array job id>.jsonl

Prints the count per status, then one row per task (node, status, exit
code, CPU time, peak memory, how the memory limit was enforced), then each
failure with its stage and reason.  Exits 1 when any task did not exit 0.
"""

import json
import sys


def status_of(line):
    rec = line.get("record")
    return rec.get("status", "?") if isinstance(rec, dict) else "no_record"


def cpu_ms(rec):
    res = rec.get("resources") or {}
    user, sys_ = res.get("cpu_user_ms"), res.get("cpu_sys_ms")
    if user is None and sys_ is None:
        return "-"
    return str((user or 0) + (sys_ or 0))


def peak(rec):
    value = (rec.get("resources") or {}).get("memory_peak_bytes")
    if value is None:
        return "-"
    return f"{value / 1048576:.1f}M"


def memory_via(rec):
    limits = (rec.get("enforced") or {}).get("limits") or {}
    mem = limits.get("memory")
    if not mem:
        return "none"
    return f"{mem.get('bytes', 0) // 1048576}M/{mem.get('via')}"


def failure(line):
    """(stage, reason) of a task that did not exit 0, or None."""
    rec = line.get("record")
    if not isinstance(rec, dict):
        return "nsbox", f"no record (nsbox exited {line.get('exit')})"
    status = rec.get("status")
    if status == "exited" and rec.get("exit_code") == 0:
        return None
    for key in ("setup_error", "denial"):
        detail = rec.get(key)
        if isinstance(detail, dict):
            return detail.get("stage") or key, detail.get("message") or rec.get("reason")
    if status == "exited":
        return "command", f"exit code {rec.get('exit_code')}"
    return status, rec.get("reason") or f"signal {rec.get('signal')}"


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = []
    with open(argv[1], encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if not text.strip():
                continue
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError as e:
                print(f"{argv[1]}:{number}: not JSON: {e}", file=sys.stderr)
                return 1
    lines.sort(key=lambda line: line.get("task", 0))

    counts = {}
    for line in lines:
        counts[status_of(line)] = counts.get(status_of(line), 0) + 1
    nodes = sorted({line.get("node") for line in lines})
    print(f"{len(lines)} tasks on {len(nodes)} nodes ({', '.join(nodes)})")
    for status, count in sorted(counts.items()):
        print(f"  {status:<14} {count}")

    print(f"\n{'task':>5} {'node':<10} {'status':<12} {'exit':>5} {'cpu_ms':>7} "
          f"{'peak':>8}  memory")
    for line in lines:
        rec = line.get("record") if isinstance(line.get("record"), dict) else {}
        code = rec.get("exit_code")
        print(f"{line.get('task'):>5} {line.get('node', '?'):<10} {status_of(line):<12} "
              f"{'-' if code is None else code:>5} {cpu_ms(rec):>7} {peak(rec):>8}  "
              f"{memory_via(rec)}")

    failed = [(line, failure(line)) for line in lines]
    failed = [(line, why) for line, why in failed if why]
    if failed:
        print(f"\n{len(failed)} failed:")
        for line, (stage, reason) in failed:
            print(f"  task {line.get('task')} on {line.get('node')}: [{stage}] {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
