# SPDX-License-Identifier: GPL-2.0-or-later
"""allow / ask / deny through the package: an ask rule holds the command
until run(..., approved=ID) with the id check() gave for exactly that
request; the id is refused for any other request."""

from __future__ import annotations

import pathlib

import pytest

import nsbox


@pytest.fixture
def policy(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "ask.policy"
    path.write_text("ask argv git push : publishes commits to the remote\n"
                    "ask exec wc : counts words (a test rule)\n")
    path.chmod(0o644)
    return str(path)


def test_three_verdicts(project: pathlib.Path, policy: str) -> None:
    sb = nsbox.Sandbox(project, policy=policy)
    allow = sb.check(["cat", "clean.txt"])
    ask = sb.check(["wc", "-l", "clean.txt"])
    deny = sb.check(["rm", "clean.txt"])
    assert (allow.verdict, ask.verdict, deny.verdict) == ("allow", "ask", "deny")
    assert ask.rule == "ask exec wc" and ask.consequence == "counts words (a test rule)"
    assert ask.approval_id and len(ask.approval_id) == 64 and not ask.allowed
    assert deny.rule == "exec.denylist" and deny.approval_id is None
    assert ask.plan["approval"]["needed"] is True


def test_needs_approval_then_approved(project: pathlib.Path, policy: str) -> None:
    sb = nsbox.Sandbox(project, policy=policy)
    held = sb.run(["wc", "-l", "clean.txt"])
    assert held.status == "needs_approval" and held.exit_code == 123
    assert held.record["approval"]["needed"] is True and held.stdout == ""
    with pytest.raises(nsbox.ApprovalRequired) as e:
        held.raise_for_status()
    assert e.value.rule == "ask exec wc" and e.value.approval_id == held.approval_id
    verdict = sb.check(["wc", "-l", "clean.txt"])
    assert verdict.approval_id == held.approval_id
    ran = sb.run(["wc", "-l", "clean.txt"], approved=verdict.approval_id)
    assert ran.ok and ran.stdout.strip() == "2 clean.txt"
    assert ran.record["approval"]["approved"] is True


@pytest.mark.parametrize("change", [
    {"argv": ["wc", "-c", "clean.txt"]},
    {"rw": ["out"]},
    {"env": {"X": "1"}},
    {"allow_net": ["example.org"]},
])
def test_approval_bound_to_the_request(project: pathlib.Path, policy: str, change: dict) -> None:
    sb = nsbox.Sandbox(project, policy=policy)
    approval = sb.check(["wc", "-l", "clean.txt"]).approval_id
    argv = change.pop("argv", ["wc", "-l", "clean.txt"])
    other = sb.run(argv, approved=approval, **change)
    assert other.status == "needs_approval" and other.exit_code == 123
    assert other.approval_id != approval


def test_wrong_id_is_a_usage_error(project: pathlib.Path, policy: str) -> None:
    with pytest.raises(nsbox.SandboxError) as e:
        nsbox.Sandbox(project, policy=policy).run(["wc", "clean.txt"], approved="not-an-id")
    assert e.value.stage == "usage"


def test_check_with_the_approval(project: pathlib.Path, policy: str) -> None:
    sb = nsbox.Sandbox(project, policy=policy)
    approval = sb.check(["wc", "clean.txt"]).approval_id
    assert sb.check(["wc", "clean.txt"], approved=approval).allowed
    assert not sb.check(["wc", "-w", "clean.txt"], approved=approval).allowed
