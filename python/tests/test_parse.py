# SPDX-License-Identifier: GPL-2.0-or-later
"""The pure parts, on made-up documents: outcomes this host cannot produce
(the OOM killer needs a cgroup memory controller), nsbox's own failures
mapped to exceptions, and the request document."""

from __future__ import annotations

from typing import Any, Dict

import pytest

import nsbox
from nsbox._launch import parse_nsbox_stderr, raise_for_nsbox


def record(**over: Any) -> Dict[str, Any]:
    rec: Dict[str, Any] = {
        "schema": 1, "nsbox": "0.1.0", "status": "exited", "exit_code": 0, "signal": None,
        "timed_out": False, "oom_killed": False, "denied": False, "reason": None,
        "denial": None, "setup_error": None, "duration_ms": 5, "stdout_bytes": 0,
        "stderr_bytes": 0, "truncated": False, "stdout": "", "stderr": "",
        "resources": {}, "enforced": {}, "violations": [],
    }
    rec.update(over)
    return rec


def test_oom_killed() -> None:
    r = nsbox.SandboxResult.from_record(
        record(status="oom_killed", exit_code=None, signal=9, oom_killed=True,
               violations=[{"kind": "oom_kill", "count": 1}]), 137)
    assert (r.exit_code, r.oom_killed, r.signal) == (137, True, 9)
    with pytest.raises(nsbox.CommandOutOfMemory) as e:
        r.raise_for_status()
    assert isinstance(e.value, nsbox.CommandFailed) and "signal 9" in str(e.value)


def test_needs_approval_exit_code() -> None:
    r = nsbox.SandboxResult.from_record(
        record(status="needs_approval", exit_code=None,
               approval={"rule": "ask exec x", "approval_id": "ab" * 32}), 123)
    assert (r.exit_code, r.approval_id) == (123, "ab" * 32)
    with pytest.raises(nsbox.ApprovalRequired) as e:
        r.raise_for_status()
    assert e.value.approval_id == "ab" * 32 and e.value.rule == "ask exec x"


@pytest.mark.parametrize("status,cls", [
    ("usage_error", nsbox.SandboxError),
    ("setup_failed", nsbox.SandboxUnavailable),
])
def test_nsbox_failures(status: str, cls: type) -> None:
    rec = record(status=status, exit_code=None, setup_error={
        "stage": "userns", "errno": 1, "errno_name": "EPERM",
        "message": "cannot create a user namespace", "hint": "run nsbox doctor"})
    with pytest.raises(cls) as e:
        raise_for_nsbox(rec, "")
    assert (e.value.stage, e.value.hint, e.value.status) == ("userns", "run nsbox doctor", status)
    assert e.value.message == "cannot create a user namespace" and e.value.record is rec
    raise_for_nsbox(record(), "")  # the command's outcomes raise nothing


def test_verdict_documents() -> None:
    old = nsbox.Verdict.from_document({"allowed": False, "gate": {"rule": "exec.denylist",
                                                                  "hint": "h", "reason": "r"}})
    assert (old.verdict, old.rule, old.hint, old.reason) == ("deny", "exec.denylist", "h", "r")
    ask = nsbox.Verdict.from_document({
        "allowed": False, "verdict": "ask", "gate": {"rule": None},
        "approval": {"rule": "ask argv git push", "consequence": "publishes",
                     "approval_id": "cd" * 32}})
    assert (ask.verdict, ask.rule, ask.consequence, ask.approval_id) == (
        "ask", "ask argv git push", "publishes", "cd" * 32)


def test_stderr_parsing() -> None:
    text = ("nsbox: warning: something minor\n"
            "nsbox: --ro 'x': No such file or directory\n"
            "nsbox: hint: create it first\n")
    assert parse_nsbox_stderr(text) == ("--ro 'x': No such file or directory", "create it first")
    assert parse_nsbox_stderr("") == ("", None)


def test_request_document() -> None:
    req = nsbox.build_request(
        ["make", "-j2"], project="/p", ro=["a"], rw=["b:/dst"], tmpfs=["/scratch:64M"],
        env={"A": "1"}, allow_net=["example.org:443"], memory="512M", pids=64, cpus=0.5,
        timeout=60, max_output=4096, seccomp="strict", actor="agent", reason="build",
        side_effect="writes_workspace")
    assert req == {
        "argv": ["make", "-j2"], "project": "/p", "ro": ["a"], "rw": ["b:/dst"],
        "tmpfs": ["/scratch:64M"], "env": {"A": "1"}, "network": {"allow": ["example.org:443"]},
        "limits": {"memory": "512M", "pids": 64, "cpus": 0.5, "timeout": 60, "max_output": 4096},
        "capture": True, "seccomp": "strict", "actor": "agent", "reason": "build",
        "side_effect": "writes_workspace"}
    assert nsbox.build_request(["true"]) == {"argv": ["true"], "capture": True}
    with pytest.raises(TypeError):
        nsbox.build_request(["true"], ro="a")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        nsbox.build_request(["true"], env={"A": 1})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        nsbox.build_request(["true"], memory=True)
