#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An agent harness's battery of tool calls through the nsbox Python package.

Makes a temporary project holding one clean file, runs legal and hostile
calls in it (a denied executable, an interpreter with inline code, shell
metacharacters, a path escape through '..' and through a symlink, a write to
the read-only project, a timeout, an oversized output), prints the results as
one JSON table and exits 0 only when every call ended as expected.

    python3 examples/agent_demo.py [--nsbox PATH]

The nsbox binary: --nsbox, else $NSBOX_BIN, else nsbox on PATH.  The package
is imported as installed, else from python/src next to this file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import Any, Callable, Dict, List, Sequence

try:
    import nsbox
except ImportError:  # running from the source tree
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "python", "src"))
    import nsbox

CLEAN = "the clean file: 3 lines\nalpha\nbeta\n"

Expect = Callable[[nsbox.SandboxResult], bool]


def denied_by(rule: str) -> Expect:
    return lambda r: r.status == "denied" and r.exit_code == nsbox.EXIT_DENIED and (
        (r.denial or {}).get("rule") == rule)


def battery(project: str) -> List[Dict[str, Any]]:
    """The calls: (name, argv, extra options, expected outcome, its check)."""
    outside = os.path.join(os.path.dirname(project), "secret.txt")
    with open(outside, "w", encoding="utf-8") as f:
        f.write("not for the agent\n")
    os.symlink(outside, os.path.join(project, "shortcut"))
    big = 4 * 1024 * 1024
    return [
        dict(name="read the clean file", argv=["cat", "clean.txt"], opts={},
             expect="exited 0, file content",
             ok=lambda r: r.ok and r.stdout == CLEAN),
        dict(name="list the project", argv=["ls", "-a"], opts={},
             expect="exited 0",
             ok=lambda r: r.ok and "clean.txt" in r.stdout.split()),
        dict(name="count words from stdin", argv=["wc", "-w"], opts={}, stdin="a b c\n",
             expect="exited 0, 3",
             ok=lambda r: r.ok and r.stdout.strip() == "3"),
        dict(name="denied executable", argv=["rm", "-f", "clean.txt"], opts={},
             expect="denied exec.denylist", ok=denied_by("exec.denylist")),
        dict(name="interpreter with inline code",
             argv=["python3", "-c", "import os; os.remove('clean.txt')"], opts={},
             expect="denied interp.inline", ok=denied_by("interp.inline")),
        dict(name="shell metacharacters", argv=["cat", "clean.txt", "&&", "id"], opts={},
             expect="denied shell.metachar", ok=denied_by("shell.metachar")),
        dict(name="command substitution", argv=["echo", "$(cat /etc/shadow)"], opts={},
             expect="denied shell.metachar", ok=denied_by("shell.metachar")),
        dict(name="path escape through ..", argv=["cat", "../secret.txt"], opts={},
             expect="denied path.outside", ok=denied_by("path.outside")),
        dict(name="path escape through a symlink", argv=["cat", "shortcut"], opts={},
             expect="denied path.symlink_escape", ok=denied_by("path.symlink_escape")),
        dict(name="write to the read-only project", argv=["touch", "new.txt"], opts={},
             expect="exited non-zero, nothing written",
             ok=lambda r: r.status == "exited" and r.exit_code != 0
             and not os.path.exists(os.path.join(project, "new.txt"))),
        dict(name="timeout", argv=["sleep", "30"], opts={"timeout": 1},
             expect="timed_out -101",
             ok=lambda r: r.timed_out and r.status == "timed_out"
             and r.exit_code == nsbox.EXIT_TIMED_OUT and r.duration_ms < 20000),
        dict(name="oversized output", argv=["head", "-c", str(big), "/dev/zero"],
             opts={"max_output": 65536},
             expect="exited 0, truncated at 64 KiB",
             ok=lambda r: r.ok and r.truncated and len(r.stdout) == 65536
             and r.record.get("stdout_bytes") == big),
        dict(name="command not found", argv=["no-such-tool-xyz"], opts={},
             expect="exec_failed 127",
             ok=lambda r: r.status == "exec_failed" and r.exit_code == 127),
    ]


def run_battery(binary: str | None) -> List[Dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="nsbox-agent-demo-") as top:
        os.chmod(top, 0o755)
        project = os.path.join(top, "project")
        os.mkdir(project)
        with open(os.path.join(project, "clean.txt"), "w", encoding="utf-8") as f:
            f.write(CLEAN)
        sb = nsbox.Sandbox(project, binary=binary, memory="512M", timeout=30,
                           max_output="1M", actor="agent_demo", reason="battery")
        for call in battery(project):
            argv: Sequence[str] = call["argv"]
            result = sb.run(argv, call.get("stdin"), **call["opts"])
            passed = bool(call["ok"](result))
            rows.append({
                "call": call["name"],
                "argv": list(argv),
                "expected": call["expect"],
                "status": result.status,
                "exit_code": result.exit_code,
                "rule": (result.denial or {}).get("rule"),
                "truncated": result.truncated,
                "duration_ms": result.duration_ms,
                "as_expected": passed,
            })
        with open(os.path.join(project, "clean.txt"), encoding="utf-8") as f:
            rows.append({"call": "clean file untouched", "argv": [], "expected": "same content",
                         "status": None, "exit_code": None, "rule": None, "truncated": False,
                         "duration_ms": 0, "as_expected": f.read() == CLEAN})
    return rows


def main(args: Sequence[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nsbox", help="the nsbox binary (default: $NSBOX_BIN, then PATH)")
    opts = ap.parse_args(args)
    try:
        rows = run_battery(opts.nsbox)
    except nsbox.SandboxError as e:
        print(f"agent_demo: {e}", file=sys.stderr)
        return 2
    print(json.dumps(rows, indent=1))
    bad = [r["call"] for r in rows if not r["as_expected"]]
    print(f"{len(rows) - len(bad)} passed, {len(bad)} failed", file=sys.stderr)
    for name in bad:
        print(f"agent_demo: not as expected: {name}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
