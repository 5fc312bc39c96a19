# SPDX-License-Identifier: GPL-2.0-or-later
"""For an nsbox older than ``--request-fd`` (0.1.0 before issue 17): the same
request spelled as options.  Used only when the binary's ``--help`` does not
list ``--request-fd``; the command's own argv still follows ``--`` untouched.
"""

from __future__ import annotations

import functools
import os
import subprocess
from typing import Any, Dict, List, Tuple

__all__ = ["supports_request", "request_to_options"]


@functools.lru_cache(maxsize=16)
def _help(binary: str, stamp: Tuple[int, int]) -> str:
    try:
        proc = subprocess.run([binary, "--help"], stdin=subprocess.DEVNULL,
                              capture_output=True, check=False, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout.decode("utf-8", "replace")


def supports_request(binary: str) -> bool:
    """Whether this nsbox reads a request document (``--request-fd``)."""
    try:
        st = os.stat(binary)
    except OSError:
        return True
    return "--request-fd" in _help(binary, (st.st_ino, st.st_mtime_ns))


def request_to_options(req: Dict[str, Any]) -> List[str]:
    """The options equivalent to ``req``, then ``--`` and its argv."""
    out: List[str] = []
    if "project" in req:
        out += ["--project", req["project"]]
    if "cwd" in req:
        out += ["--chdir", req["cwd"]]
    for name in ("ro", "rw", "tmpfs"):
        for item in req.get(name, []):
            out += [f"--{name}", item]
    for k, v in (req.get("env") or {}).items():
        out += ["--env", f"{k}={v}"]
    net = req.get("network") or {}
    for item in net.get("allow", []):
        out += ["--allow-net", item]
    for item in net.get("deny", []):
        out += ["--deny-net", item]
    limits = req.get("limits") or {}
    for name in ("memory", "pids", "cpus", "timeout", "max_output"):
        if name in limits:
            out += ["--" + name.replace("_", "-"), str(limits[name])]
    if req.get("capture"):
        out.append("--capture")
    if "seccomp" in req:
        out += ["--seccomp", req["seccomp"]]
    if "policy" in req:
        out += ["--policy", req["policy"]]
    return out + ["--", *req["argv"]]
