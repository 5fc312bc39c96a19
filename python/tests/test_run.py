# SPDX-License-Identifier: GPL-2.0-or-later
"""Sandbox.run against the real binary: every outcome, and each result
attribute compared with the record it came from."""

from __future__ import annotations

import os
import pathlib

import pytest

import nsbox


def same_as_record(r: nsbox.SandboxResult) -> None:
    rec = r.record
    assert rec["schema"] == 1
    assert r.status == rec["status"]
    for name in ("timed_out", "denied", "oom_killed", "truncated", "reason", "duration_ms",
                 "signal", "resources", "enforced", "violations"):
        assert getattr(r, name) == rec[name], name
    assert r.stdout == rec.get("stdout", "")
    assert r.stderr == rec.get("stderr", "")
    assert r.network == rec.get("network")
    if isinstance(rec["exit_code"], int):
        assert r.exit_code == rec["exit_code"]


def test_exited_zero(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["cat", "clean.txt"])
    same_as_record(r)
    assert (r.status, r.exit_code, r.stdout, r.stderr) == ("exited", 0, "alpha\nbeta\n", "")
    assert r.ok and r.raise_for_status() is r
    assert "user" in r.enforced["namespaces"] and r.enforced["caps_dropped"] is True
    assert r.enforced["seccomp"]["profile"] == "default"


def test_exit_code_and_both_streams(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["python3", "exit7.py"])
    same_as_record(r)
    assert (r.status, r.exit_code, r.stdout, r.stderr) == ("exited", 7, "seven\n", "err\n")
    with pytest.raises(nsbox.CommandFailed) as e:
        r.raise_for_status()
    assert e.value.result is r and "exit code 7" in str(e.value)


def test_stdin_text_and_bytes(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project)
    assert sb.run(["wc", "-l"], "a\nb\nc\n").stdout.strip() == "3"
    assert sb.run(["od", "-An", "-tx1"], b"\x00\xff").stdout.split() == ["00", "ff"]
    assert sb.run(["cat"]).stdout == ""  # no stdin: /dev/null


def test_argv_is_never_options(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["echo", "--ro", "x", "--share-net", "--", "x y"])
    assert r.ok and r.stdout == "--ro x --share-net -- x y\n"


def test_denied(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["python3", "-c", "print(1)"])
    same_as_record(r)
    assert (r.status, r.exit_code, r.denied) == ("denied", nsbox.EXIT_DENIED, True)
    assert r.denial["rule"] == "interp.inline" and r.enforced is None
    with pytest.raises(nsbox.CommandDenied) as e:
        r.raise_for_status()
    assert e.value.rule == "interp.inline" and e.value.hint
    assert isinstance(e.value, nsbox.CommandError)


@pytest.mark.parametrize("argv,rule", [
    (["rm", "clean.txt"], "exec.denylist"),
    (["cat", "../../../etc/shadow"], "path.outside"),
    (["ls", ";", "id"], "shell.metachar"),
])
def test_gate_rules(project: pathlib.Path, argv: list, rule: str) -> None:
    r = nsbox.Sandbox(project).run(argv)
    assert r.denied and r.denial["rule"] == rule and r.exit_code == -100


def test_timed_out(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project, timeout=0.5).run(["sleep", "30"])
    same_as_record(r)
    assert (r.status, r.exit_code, r.timed_out) == ("timed_out", nsbox.EXIT_TIMED_OUT, True)
    assert r.duration_ms < 15000
    assert r.enforced["limits"]["timeout"]["ms"] == 500
    with pytest.raises(nsbox.CommandTimedOut):
        r.raise_for_status()


def test_truncated(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project, max_output=1000).run(["head", "-c", "100000", "/dev/zero"])
    same_as_record(r)
    assert r.ok and r.truncated and len(r.stdout) == 1000
    assert r.record["stdout_bytes"] == 100000 and r.record["stdout_truncated"] is True


def test_signaled(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["python3", "kill_self.py"])
    same_as_record(r)
    assert (r.status, r.signal, r.exit_code) == ("signaled", 9, 137)
    with pytest.raises(nsbox.CommandFailed, match="signal 9"):
        r.raise_for_status()


def test_not_found(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project).run(["no-such-command-here"])
    same_as_record(r)
    assert (r.status, r.exit_code) == ("exec_failed", 127)
    assert r.record["setup_error"]["stage"] == "resolve"


def test_rw_and_ro(project: pathlib.Path, tmp_path: pathlib.Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "in.txt").write_text("input\n")
    sb = nsbox.Sandbox(project, ro=[str(data)], rw=["out"])
    assert sb.run(["cp", str(data / "in.txt"), "out/copy.txt"]).ok
    assert (project / "out" / "copy.txt").read_text() == "input\n"
    r = sb.run(["touch", str(data / "new.txt")])
    assert r.status == "exited" and r.exit_code != 0 and "Read-only" in r.stderr
    assert not (data / "new.txt").exists()


def test_env(project: pathlib.Path) -> None:
    os.environ["NSBOX_PY_SECRET"] = "leak"
    try:
        sb = nsbox.Sandbox(project, env={"GREETING": "hello world"})
        assert sb.run(["python3", "env.py", "GREETING"]).stdout == "hello world\n"
        assert sb.run(["python3", "env.py", "NSBOX_PY_SECRET"]).stdout == "<unset>\n"
    finally:
        del os.environ["NSBOX_PY_SECRET"]


def test_limits_and_seccomp_recorded(project: pathlib.Path) -> None:
    r = nsbox.Sandbox(project, memory="256M", seccomp="strict").run(["true"])
    assert r.ok
    assert r.enforced["limits"]["memory"]["bytes"] == 256 * 1024 * 1024
    assert r.enforced["seccomp"]["profile"] == "strict"


def test_actor_reason_side_effect(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project, actor="agent-7", reason="read a file", side_effect="read_only")
    req = sb.request(["cat", "clean.txt"])
    assert (req["actor"], req["reason"], req["side_effect"]) == (
        "agent-7", "read a file", "read_only")
    r = sb.run(["cat", "clean.txt"])
    assert r.ok and r.request is not None
    assert (r.request["actor"], r.request["reason"], r.request["side_effect"]) == (
        "agent-7", "read a file", "read_only")


def test_one_shot_run(project: pathlib.Path) -> None:
    r = nsbox.run(["cat", "clean.txt"], project=project, timeout=30)
    assert r.ok and r.stdout == "alpha\nbeta\n"


def test_per_run_override(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project, timeout=60)
    assert sb.run(["sleep", "5"], timeout=0.3).timed_out


def test_request_rejects_a_string(project: pathlib.Path) -> None:
    with pytest.raises(TypeError):
        nsbox.Sandbox(project).run("cat clean.txt")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        nsbox.Sandbox(project).run([])


def test_any_request_member(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project, hostname="pkgtest", allow_inline_code=True, kill_after=1,
                       tmp_size="32M")
    r = sb.run(["python3", "-c", "import socket; print(socket.gethostname())"])
    assert r.ok and r.stdout == "pkgtest\n"
    assert r.enforced["limits"]["tmp"]["bytes"] == 32 * 1024 * 1024
    req = sb.request(["true"], share_net=True)
    assert req["network"] == {"share": True} and req["limits"]["kill_after"] == 1


def test_unknown_member_is_refused(project: pathlib.Path) -> None:
    with pytest.raises(nsbox.SandboxError):
        nsbox.Sandbox(project, no_such_member="x").run(["true"])
