# SPDX-License-Identifier: GPL-2.0-or-later
"""The public entry points: :class:`Sandbox`, :func:`run`, :func:`check`,
:func:`doctor`."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict, Mapping, Optional, Sequence, Union

from ._errors import SandboxError, SandboxUnavailable
from ._launch import Input, Launch, find_binary, parse_nsbox_stderr, raise_for_nsbox
from ._launch import run_async as _run_async
from ._launch import run_sync as _run_sync
from ._request import Size, build_request
from ._result import DoctorReport, SandboxResult, Verdict

__all__ = ["Sandbox", "run", "check", "doctor"]


class Sandbox:
    """A reusable sandbox configuration; each :meth:`run` is a fresh sandbox.

    Args:
        project: the project root, bound read-only and the working directory
            inside (nsbox's default: the current directory).  Relative
            ``ro``/``rw`` paths are resolved against it.
        ro, rw: host paths bound read-only / read-write (``PATH`` or
            ``PATH:DEST``).
        tmpfs: empty tmpfs mounts (``DEST`` or ``DEST:SIZE``).
        env: variables set inside (nothing of the caller's passes otherwise).
        allow_net, deny_net: hosts reachable through nsbox's egress proxy
            (``HOST[:PORT]``, ``*.SUFFIX``); empty means no network.
        memory, pids, cpus, timeout, max_output: limits (sizes as bytes or
            ``"512M"``; ``timeout`` in seconds, fractions allowed).
        seccomp: ``"default"``, ``"strict"``, ``"none"`` or a profile path.
        policy: a front-gate policy file (nsbox-policy(5)).
        actor, reason, side_effect: echoed into the record for the audit log.
        binary: the nsbox executable; else ``$NSBOX_BIN``, else ``PATH``.
        extra: further request members, passed through unchanged.
        **members: any other request member by its name: ``kill_after``,
            ``tmp_size``, ``share_net``, ``allow_net_range``, ``proxy_port``
            (the network and limits groups), ``hostname``,
            ``allow_inline_code``, ``allow_metachar``, ``allow_path``,
            ``deny_exec``, ``allow_exec``, ``mask``, ``overlay``,
            ``isolation``, ... (nsbox(1), REQUEST DOCUMENT).
    """

    def __init__(
        self,
        project: Optional[Union[str, "os.PathLike[str]"]] = None,
        *,
        ro: Sequence[str] = (),
        rw: Sequence[str] = (),
        tmpfs: Sequence[str] = (),
        env: Optional[Mapping[str, str]] = None,
        allow_net: Sequence[str] = (),
        deny_net: Sequence[str] = (),
        memory: Optional[Size] = None,
        pids: Optional[Union[int, str]] = None,
        cpus: Optional[float] = None,
        timeout: Optional[float] = None,
        max_output: Optional[Size] = None,
        seccomp: Optional[str] = None,
        policy: Optional[str] = None,
        actor: Optional[str] = None,
        reason: Optional[str] = None,
        side_effect: Optional[str] = None,
        binary: Optional[str] = None,
        extra: Optional[Mapping[str, Any]] = None,
        **members: Any,
    ) -> None:
        self.project = os.path.abspath(os.fspath(project)) if project is not None else None
        self.options: Dict[str, Any] = dict(
            ro=list(ro),
            rw=list(rw),
            tmpfs=list(tmpfs),
            env=dict(env or {}),
            allow_net=list(allow_net),
            deny_net=list(deny_net),
            memory=memory,
            pids=pids,
            cpus=cpus,
            timeout=timeout,
            max_output=max_output,
            seccomp=seccomp,
            policy=policy,
            actor=actor,
            reason=reason,
            side_effect=side_effect,
            extra=dict(extra or {}),
        )
        self.options.update(members)
        self._binary_arg = binary

    @property
    def binary(self) -> str:
        """The nsbox executable this sandbox runs (found on each access)."""
        return find_binary(self._binary_arg)

    def request(self, argv: Sequence[str], **overrides: Any) -> Dict[str, Any]:
        """The request document a run of ``argv`` sends to nsbox.  Keyword
        arguments override this sandbox's options for this one request."""
        if isinstance(argv, str):
            raise TypeError("argv must be a list of strings (no shell is involved)")
        opts = dict(self.options)
        opts.update({k: v for k, v in overrides.items() if v is not None})
        return build_request(argv, project=self.project, **opts)

    def _launch(self, argv: Sequence[str], check: bool, approved: Optional[str],
                overrides: Dict[str, Any]) -> Launch:
        return Launch(
            self.binary,
            self.request(argv, **overrides),
            check=check,
            approved=approved,
            cwd=self.project,
        )

    def run(
        self,
        argv: Sequence[str],
        stdin: Input = None,
        *,
        approved: Optional[str] = None,
        **overrides: Any,
    ) -> SandboxResult:
        """Run ``argv`` in a fresh sandbox and return its result.

        ``stdin`` (str or bytes) is the command's standard input; without it
        the command reads an empty ``/dev/null``.  ``approved`` is an
        ``approval_id`` from :meth:`check` for a command an ``ask`` rule
        holds.  Never raises for what the command did (see
        :meth:`SandboxResult.raise_for_status`); raises
        :class:`~nsbox.SandboxError` when nsbox itself fails (exit 125) and
        :class:`~nsbox.SandboxUnavailable` when no sandbox can be built.
        """
        launch = self._launch(argv, False, approved, overrides)
        rc, _out, err = _run_sync(launch, stdin)
        return _result(launch, rc, err)

    async def run_async(
        self,
        argv: Sequence[str],
        stdin: Input = None,
        *,
        approved: Optional[str] = None,
        **overrides: Any,
    ) -> SandboxResult:
        """:meth:`run` for asyncio: ``await sb.run_async([...])``.  Cancelling
        the task stops the sandbox (SIGTERM to nsbox, then SIGKILL)."""
        launch = self._launch(argv, False, approved, overrides)
        rc, _out, err = await _run_async(launch, stdin)
        return _result(launch, rc, err)

    def check(self, argv: Sequence[str], *, approved: Optional[str] = None,
              **overrides: Any) -> Verdict:
        """Ask the front gate what it would do with ``argv`` (``--check``):
        ``allow``, ``ask`` (with an ``approval_id``) or ``deny`` (with the
        rule and a hint), plus the whole plan.  Runs nothing.  With
        ``approved``, whether that id would let this request run."""
        launch = self._launch(argv, True, approved, overrides)
        rc, out, err = _run_sync(launch, None)
        return _verdict(rc, out, err)


def _result(launch: Launch, rc: int, err: str) -> SandboxResult:
    rec = launch.record(rc, err)
    raise_for_nsbox(rec, err)
    return SandboxResult.from_record(rec, rc, err)


def _verdict(rc: int, out: str, err: str) -> Verdict:
    doc: Any = None
    if out.strip():
        try:
            doc = json.loads(out)
        except json.JSONDecodeError:
            doc = None
    if not isinstance(doc, dict):
        message, hint = parse_nsbox_stderr(err)
        cls = SandboxUnavailable if rc != 125 and rc >= 0 else SandboxError
        raise cls(
            message or f"nsbox --check exited with status {rc} and printed no document",
            stage="usage" if rc == 125 else "launch",
            hint=hint,
            stderr=err,
        )
    return Verdict.from_document(doc)


def run(argv: Sequence[str], stdin: Input = None, *, approved: Optional[str] = None,
        **options: Any) -> SandboxResult:
    """One-shot: ``nsbox.run(["make", "test"], rw=["out"], timeout=60)`` is
    ``Sandbox(**options).run(argv, stdin)``."""
    return Sandbox(**options).run(argv, stdin, approved=approved)


def check(argv: Sequence[str], *, approved: Optional[str] = None, **options: Any) -> Verdict:
    """One-shot: ``Sandbox(**options).check(argv)``."""
    return Sandbox(**options).check(argv, approved=approved)


def doctor(binary: Optional[str] = None) -> DoctorReport:
    """Run ``nsbox doctor --json``: what this host supports and what to
    change.  Never raises for a host that cannot run nsbox (``exit_code`` 2
    says so); raises :class:`~nsbox.SandboxUnavailable` when there is no
    binary to ask."""
    exe = find_binary(binary)
    try:
        proc = subprocess.run([exe, "doctor", "--json"], stdin=subprocess.DEVNULL,
                              capture_output=True, check=False)
    except OSError as e:
        raise SandboxUnavailable(f"cannot execute '{exe}': {e.strerror or e}") from e
    err = proc.stderr.decode("utf-8", "replace")
    try:
        doc = json.loads(proc.stdout.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        doc = None
    if not isinstance(doc, dict):
        message, hint = parse_nsbox_stderr(err)
        raise SandboxError(message or "nsbox doctor printed no JSON document",
                           stage="doctor", hint=hint, stderr=err)
    code = doc.get("exit_code")
    return DoctorReport(
        exit_code=code if isinstance(code, int) else proc.returncode,
        isolation=doc.get("isolation") or {},
        checks=list(doc.get("checks") or []),
        document=doc,
    )
