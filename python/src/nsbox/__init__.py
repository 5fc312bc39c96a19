# SPDX-License-Identifier: GPL-2.0-or-later
"""Run commands in the nsbox sandbox from Python.

    import nsbox

    sb = nsbox.Sandbox(project=".", ro=["input"], rw=["out"],
                       memory="512M", timeout=60, max_output="1M")
    verdict = sb.check(["python3", "script.py"])     # allow | ask | deny
    result = sb.run(["python3", "script.py"])        # a SandboxResult
    print(result.status, result.exit_code, result.stdout)
    result.raise_for_status()                        # typed exceptions

The request travels to nsbox as one JSON document over a pipe
(``--request-fd``) and the result record comes back over another
(``--result-fd``); see nsbox(1).  Standard library only.
"""

from ._errors import (
    ApprovalRequired,
    CommandDenied,
    CommandError,
    CommandFailed,
    CommandOutOfMemory,
    CommandTimedOut,
    NsboxError,
    SandboxError,
    SandboxUnavailable,
)
from ._launch import find_binary
from ._request import build_request
from ._result import EXIT_DENIED, EXIT_TIMED_OUT, DoctorReport, SandboxResult, Verdict
from ._sandbox import Sandbox, check, doctor, run

#: The package's version; equal to nsbox's own (the top-level VERSION file).
__version__ = "0.1.0"

__all__ = [
    "Sandbox",
    "SandboxResult",
    "Verdict",
    "DoctorReport",
    "run",
    "check",
    "doctor",
    "find_binary",
    "build_request",
    "EXIT_DENIED",
    "EXIT_TIMED_OUT",
    "NsboxError",
    "SandboxError",
    "SandboxUnavailable",
    "CommandError",
    "CommandDenied",
    "ApprovalRequired",
    "CommandTimedOut",
    "CommandFailed",
    "CommandOutOfMemory",
    "__version__",
]
