# SPDX-License-Identifier: GPL-2.0-or-later
"""Typed views of nsbox's JSON documents: the result record, the ``--check``
document and ``nsbox doctor --json``.

Every view keeps the whole document (``record``, ``plan``, ``document``): the
typed attributes are a convenience over it, never a replacement, and members
that a later nsbox adds are there for whoever reads the dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from ._errors import (
    ApprovalRequired,
    CommandDenied,
    CommandFailed,
    CommandOutOfMemory,
    CommandTimedOut,
)

__all__ = ["SandboxResult", "Verdict", "DoctorReport", "EXIT_DENIED", "EXIT_TIMED_OUT"]

#: ``exit_code`` of a run the front gate refused (nothing ran).
EXIT_DENIED = -100
#: ``exit_code`` of a run whose wall-clock timeout fired.
EXIT_TIMED_OUT = -101


@dataclass(frozen=True)
class SandboxResult:
    """The outcome of one run, read from nsbox's result record.

    ``run()`` returns one for everything the command did -- it exited, was
    killed, timed out, ran out of memory, was refused by the front gate, was
    not found -- and never raises for those; call :meth:`raise_for_status`
    to turn a failure into an exception.

    Attributes:
        exit_code: the command's exit status; ``-100`` when the gate denied
            it, ``-101`` when it timed out; otherwise, where the record has
            no exit code (killed, OOM, not found), nsbox's own exit status
            (``128+N``, ``137``, ``126``, ``127``, ``123`` for an approval
            that is needed).
        stdout, stderr: the command's output as captured in the record
            (bytes that are not UTF-8 replaced by U+FFFD).
        truncated: whether either stream was cut at ``max_output``.
        timed_out, denied, oom_killed: booleans, from the record.
        reason: nsbox's short explanation, or ``None``.
        duration_ms: wall-clock time of the run.
        status: ``exited``, ``signaled``, ``timed_out``, ``oom_killed``,
            ``denied``, ``exec_failed`` or ``needs_approval``.
        signal: the signal number that ended the command, or ``None``.
        resources: CPU time and peaks (``cpu_user_ms``, ``memory_peak_bytes``...).
        enforced: what the sandbox actually applied (namespaces, seccomp,
            limits and their mechanism, ...), or ``None``.
        violations: what the kernel refused during the run.
        network: the proxy's connections (proxy mode only), else ``None``.
        record: the whole record as a dict.
        nsbox_stderr: what nsbox itself printed on standard error (warnings).
    """

    exit_code: int
    stdout: str
    stderr: str
    truncated: bool
    timed_out: bool
    denied: bool
    reason: Optional[str]
    duration_ms: int
    status: str
    signal: Optional[int]
    oom_killed: bool
    resources: Dict[str, Any] = field(repr=False)
    enforced: Optional[Dict[str, Any]] = field(repr=False)
    violations: List[Dict[str, Any]] = field(repr=False)
    network: Optional[Dict[str, Any]] = field(repr=False)
    record: Dict[str, Any] = field(repr=False)
    nsbox_stderr: str = field(default="", repr=False)

    @classmethod
    def from_record(
        cls, record: Dict[str, Any], returncode: int, nsbox_stderr: str = ""
    ) -> "SandboxResult":
        """Build a result from a parsed record and nsbox's exit status."""
        code = record.get("exit_code")
        if not isinstance(code, int):
            code = returncode
        return cls(
            exit_code=code,
            stdout=record.get("stdout") or "",
            stderr=record.get("stderr") or "",
            truncated=bool(record.get("truncated")),
            timed_out=bool(record.get("timed_out")),
            denied=bool(record.get("denied")),
            reason=record.get("reason"),
            duration_ms=int(record.get("duration_ms") or 0),
            status=str(record.get("status")),
            signal=record.get("signal"),
            oom_killed=bool(record.get("oom_killed")),
            resources=record.get("resources") or {},
            enforced=record.get("enforced"),
            violations=list(record.get("violations") or []),
            network=record.get("network"),
            record=record,
            nsbox_stderr=nsbox_stderr,
        )

    @property
    def ok(self) -> bool:
        """True when the command exited by itself with status 0."""
        return self.status == "exited" and self.exit_code == 0

    @property
    def denial(self) -> Optional[Dict[str, Any]]:
        """The record's ``denial`` object (stage, rule, argv_index, token,
        hint) for a refused run, else ``None``."""
        return self.record.get("denial")

    @property
    def request(self) -> Optional[Dict[str, Any]]:
        """The record's ``request`` member: the ``actor``, ``reason`` and
        ``side_effect`` the request carried (bounded), or ``None``."""
        found = self.record.get("request")
        return found if isinstance(found, dict) else None

    @property
    def approval_id(self) -> Optional[str]:
        """For ``needs_approval``: the id to pass as ``approved=``."""
        approval = self.record.get("approval") or {}
        return approval.get("approval_id") or approval.get("id")

    def raise_for_status(self) -> "SandboxResult":
        """Raise a :class:`~nsbox.CommandError` subclass unless the command
        exited with status 0; return ``self`` otherwise, so that calls chain.

        :class:`~nsbox.CommandDenied` (the gate refused it),
        :class:`~nsbox.ApprovalRequired` (an ``ask`` rule),
        :class:`~nsbox.CommandTimedOut`, :class:`~nsbox.CommandOutOfMemory`,
        :class:`~nsbox.CommandFailed` (non-zero exit, signal, not found).
        """
        if self.ok:
            return self
        if self.status == "denied":
            raise CommandDenied(self)
        if self.status == "needs_approval":
            raise ApprovalRequired(self)
        if self.status == "timed_out":
            raise CommandTimedOut(self)
        if self.status == "oom_killed":
            raise CommandOutOfMemory(self)
        raise CommandFailed(self)


@dataclass(frozen=True)
class Verdict:
    """The front gate's dry-run answer for one request (``nsbox --check``).

    Attributes:
        verdict: ``allow``, ``ask`` or ``deny``.
        rule: the rule that decided (``None`` for a plain allow).
        hint: what to do instead, for a refusal.
        reason: the gate's explanation, or ``None``.
        consequence: for ``ask``, the one-line text for an approval prompt.
        approval_id: the id of exactly this request (SHA-256 of the
            canonical request and the policy): for ``ask``, what
            ``run(..., approved=ID)`` accepts once a human approved it;
            ``None`` for ``deny``.
        plan: the whole ``--check`` document (mounts, env, limits, seccomp,
            gate policy, ...).
    """

    verdict: str
    rule: Optional[str]
    hint: Optional[str]
    reason: Optional[str]
    consequence: Optional[str]
    approval_id: Optional[str]
    plan: Dict[str, Any] = field(repr=False)

    @classmethod
    def from_document(cls, doc: Dict[str, Any]) -> "Verdict":
        """Build a verdict from a parsed ``--check`` document."""
        gate = doc.get("gate") or {}
        verdict = doc.get("verdict") or gate.get("verdict")
        if verdict not in ("allow", "ask", "deny"):
            verdict = "allow" if doc.get("allowed") else "deny"
        found = doc.get("approval")
        approval: Dict[str, Any] = found if isinstance(found, dict) else {}

        def pick(name: str) -> Any:
            for src in (doc, approval, gate):
                if src.get(name) is not None:
                    return src[name]
            return None

        return cls(
            verdict=verdict,
            rule=pick("rule"),
            hint=pick("hint"),
            reason=pick("reason"),
            consequence=pick("consequence"),
            approval_id=pick("approval_id"),
            plan=doc,
        )

    @property
    def allowed(self) -> bool:
        """Whether the run would go ahead: ``allow``, or ``ask`` checked
        with an ``approved`` id that matches (the document's ``allowed``)."""
        went = self.plan.get("allowed")
        return went if isinstance(went, bool) else self.verdict == "allow"


@dataclass(frozen=True)
class DoctorReport:
    """What ``nsbox doctor --json`` found on this host.

    Attributes:
        exit_code: 0 when the full sandbox works here, 1 when only
            ``isolation="landlock"`` does, 2 when nsbox cannot run here.
        isolation: ``{default, auto, landlock_net}``.
        checks: one ``{name, ok, info, value, fix}`` per check.
        document: the whole document.
    """

    exit_code: int
    isolation: Dict[str, Any]
    checks: List[Dict[str, Any]]
    document: Dict[str, Any] = field(repr=False)

    @property
    def ok(self) -> bool:
        """True when the full (namespaces) sandbox works on this host."""
        return self.exit_code == 0

    @property
    def failing(self) -> List[Dict[str, Any]]:
        """The checks that failed, each with its ``fix``."""
        return [c for c in self.checks if not c.get("ok") and not c.get("info")]
