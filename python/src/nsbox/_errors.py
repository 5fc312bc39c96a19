# SPDX-License-Identifier: GPL-2.0-or-later
"""The exceptions of the nsbox package.

Two families, never mixed:

* :class:`SandboxError` -- nsbox itself could not do what was asked (exit
  status 125, a missing binary, an unreadable record).  Raised by
  :meth:`nsbox.Sandbox.run` and :meth:`nsbox.Sandbox.check`.
* :class:`CommandError` -- the command ran (or was refused) and the outcome is
  not success.  Raised only by :meth:`nsbox.SandboxResult.raise_for_status`,
  never by ``run()``: what the command did is data, not an exception.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ._result import SandboxResult

__all__ = [
    "NsboxError",
    "SandboxError",
    "SandboxUnavailable",
    "CommandError",
    "CommandDenied",
    "ApprovalRequired",
    "CommandTimedOut",
    "CommandOutOfMemory",
    "CommandFailed",
]


class NsboxError(Exception):
    """Base class of every exception this package raises."""


class SandboxError(NsboxError):
    """nsbox itself failed: invalid request, policy or profile (exit 125).

    Attributes:
        stage: where it failed, as the record's ``setup_error.stage`` says
            (``usage``, ``policy``, ``profile``, ``limits``, ``userns``, ...),
            or ``"launch"`` when nsbox could not be started or gave no record.
        message: nsbox's message, without the ``nsbox:`` prefix.
        hint: what to do about it, or ``None``.
        status: the record's ``status`` (``usage_error``, ``setup_failed``),
            or ``None`` when there was no record.
        record: the whole record, or ``None``.
        stderr: what nsbox printed on its standard error.
    """

    def __init__(
        self,
        message: str,
        *,
        stage: str = "launch",
        hint: Optional[str] = None,
        status: Optional[str] = None,
        record: Optional[Dict[str, Any]] = None,
        stderr: str = "",
    ) -> None:
        self.stage = stage
        self.message = message
        self.hint = hint
        self.status = status
        self.record = record
        self.stderr = stderr
        text = f"nsbox: {stage}: {message}"
        if hint:
            text += f"\nhint: {hint}"
        super().__init__(text)


class SandboxUnavailable(SandboxError):
    """No sandbox can be built here: the binary is missing or cannot run, or
    the record's status is ``setup_failed`` (user namespaces refused, a limit
    that cannot be enforced, ...).  ``nsbox.doctor()`` says what to change."""


class CommandError(NsboxError):
    """The command did not succeed; ``result`` holds the whole outcome."""

    def __init__(self, result: "SandboxResult", text: str) -> None:
        self.result = result
        super().__init__(text)


class CommandDenied(CommandError):
    """The front gate refused the command; nothing ran.

    ``rule`` is the gate's rule id (``exec.deny``, ``interp.inline``,
    ``path.outside``, ...) and ``hint`` what to do instead."""

    def __init__(self, result: "SandboxResult") -> None:
        denial = result.record.get("denial") or {}
        self.rule: Optional[str] = denial.get("rule")
        self.hint: Optional[str] = denial.get("hint")
        super().__init__(result, f"denied by rule {self.rule}: {result.reason}")


class ApprovalRequired(CommandError):
    """The policy says a human must approve this command first (status
    ``needs_approval``); ``approval_id`` is the id to pass to
    ``run(..., approved=ID)`` once the harness has asked."""

    def __init__(self, result: "SandboxResult") -> None:
        approval = result.record.get("approval") or {}
        self.approval_id: Optional[str] = approval.get("approval_id") or approval.get("id")
        self.rule: Optional[str] = approval.get("rule")
        super().__init__(result, f"needs approval: {result.reason}")


class CommandTimedOut(CommandError):
    """The wall-clock timeout fired (exit_code -101)."""

    def __init__(self, result: "SandboxResult") -> None:
        super().__init__(result, f"timed out after {result.duration_ms} ms: {result.reason}")


class CommandFailed(CommandError):
    """The command exited non-zero, was killed by a signal, or could not be
    found or executed inside the sandbox."""

    def __init__(self, result: "SandboxResult") -> None:
        if result.signal is not None and result.status in ("signaled", "oom_killed"):
            what = f"killed by signal {result.signal}"
        else:
            what = f"exit code {result.exit_code}"
        text = f"{result.status}: {what}"
        if result.reason:
            text += f": {result.reason}"
        super().__init__(result, text)


class CommandOutOfMemory(CommandFailed):
    """The kernel's OOM killer stopped the sandbox at its memory limit."""
