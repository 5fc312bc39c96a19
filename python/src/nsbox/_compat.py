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


_NAMED = {"argv", "project", "cwd", "env", "network", "limits", "actor", "reason", "side_effect"}
_NETWORK = {"allow": "--allow-net", "deny": "--deny-net", "ranges": "--allow-net-range",
            "proxy_port": "--proxy-port", "share": "--share-net"}


def _option(out: List[str], opt: str, value: Any) -> None:
    if value is True:
        out.append(opt)
    elif isinstance(value, list):
        for item in value:
            out += [opt, str(item)]
    elif value is not None and value is not False:
        out += [opt, str(value)]


def request_to_options(req: Dict[str, Any]) -> List[str]:
    """The options equivalent to ``req``, then ``--`` and its argv."""
    out: List[str] = []
    if "project" in req:
        out += ["--project", req["project"]]
    if "cwd" in req:
        out += ["--chdir", req["cwd"]]
    for k, v in (req.get("env") or {}).items():
        out += ["--env", f"{k}={v}"]
    for name, value in (req.get("network") or {}).items():
        _option(out, _NETWORK[name], value)
    for name, value in (req.get("limits") or {}).items():
        _option(out, "--" + name.replace("_", "-"), value)
    for name, value in req.items():
        if name not in _NAMED:
            _option(out, "--" + name.replace("_", "-"), value)
    return out + ["--", *req["argv"]]
