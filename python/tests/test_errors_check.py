# SPDX-License-Identifier: GPL-2.0-or-later
"""nsbox's own failures, binary discovery, check() and doctor()."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import stat
import subprocess
import sys

import pytest

import nsbox

SRCDIR = pathlib.Path(__file__).resolve().parents[2]


def test_usage_error_is_sandbox_error(project: pathlib.Path) -> None:
    with pytest.raises(nsbox.SandboxError) as e:
        nsbox.Sandbox(project, ro=["does-not-exist"]).run(["true"])
    err = e.value
    assert not isinstance(err, nsbox.SandboxUnavailable)
    assert err.stage == "usage" and err.status == "usage_error"
    assert "does-not-exist" in err.message and err.hint
    assert err.record["status"] == "usage_error"


def test_bad_limit_is_sandbox_error(project: pathlib.Path) -> None:
    with pytest.raises(nsbox.SandboxError) as e:
        nsbox.Sandbox(project, memory="lots").run(["true"])
    assert e.value.record is not None and e.value.record["status"] == "usage_error"


def test_missing_binary(project: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with pytest.raises(nsbox.SandboxUnavailable) as e:
        nsbox.Sandbox(project, binary=str(tmp_path / "nope")).run(["true"])
    assert e.value.stage == "launch" and "NSBOX_BIN" in (e.value.hint or "")


def test_no_record_is_sandbox_error(project: pathlib.Path, tmp_path: pathlib.Path) -> None:
    fake = tmp_path / "fake-nsbox"
    fake.write_text("#!/bin/sh\necho 'nsbox: broken here' >&2\necho 'nsbox: hint: fix it' >&2\nexit 125\n")
    fake.chmod(0o755)
    with pytest.raises(nsbox.SandboxError) as e:
        nsbox.Sandbox(project, binary=str(fake)).run(["true"])
    assert (e.value.message, e.value.hint) == ("broken here", "fix it")


def test_discovery_order(monkeypatch: pytest.MonkeyPatch, nsbox_bin: str,
                         tmp_path: pathlib.Path) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shutil.copy(nsbox_bin, bindir / "nsbox")
    monkeypatch.delenv("NSBOX_BIN")
    monkeypatch.setenv("PATH", str(bindir))
    assert nsbox.find_binary() == str(bindir / "nsbox")
    monkeypatch.setenv("NSBOX_BIN", nsbox_bin)
    assert nsbox.find_binary() == os.path.abspath(nsbox_bin)
    other = tmp_path / "other"
    shutil.copy(nsbox_bin, other)
    assert nsbox.find_binary(str(other)) == str(other)
    monkeypatch.delenv("NSBOX_BIN")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(nsbox.SandboxUnavailable):
        nsbox.find_binary()


def test_check_allow(project: pathlib.Path) -> None:
    v = nsbox.Sandbox(project, ro=["clean.txt"]).check(["cat", "clean.txt"])
    assert v.verdict == "allow" and v.allowed and v.rule is None
    assert v.approval_id is None or len(v.approval_id) == 64
    assert v.plan["check"] is True
    assert any(m["dest"] == str(project) for m in v.plan["mounts"])


def test_check_deny(project: pathlib.Path) -> None:
    v = nsbox.check(["python3", "-c", "1"], project=project)
    assert (v.verdict, v.rule, v.allowed) == ("deny", "interp.inline", False)
    assert v.hint and v.reason


def test_check_usage_error(project: pathlib.Path) -> None:
    with pytest.raises(nsbox.SandboxError) as e:
        nsbox.Sandbox(project, rw=["missing-dir"]).check(["true"])
    assert "missing-dir" in e.value.message


def test_doctor(nsbox_bin: str) -> None:
    d = nsbox.doctor()
    assert d.exit_code in (0, 1, 2)
    assert d.document["schema"] == 1 and d.checks
    assert d.ok == (d.exit_code == 0)
    assert all("name" in c for c in d.checks)


def test_version_agrees() -> None:
    version = (SRCDIR / "VERSION").read_text().strip()
    assert nsbox.__version__ == version
    pyproject = (SRCDIR / "python" / "pyproject.toml").read_text()
    assert f'version = "{version}"' in pyproject
    pkg = json.loads((SRCDIR / "js" / "package.json").read_text())
    assert pkg["version"] == version


def test_binary_version_agrees(nsbox_bin: str) -> None:
    out = subprocess.run([nsbox_bin, "--version"], capture_output=True, text=True).stdout
    assert nsbox.__version__ in out


def test_py_typed_shipped() -> None:
    assert (pathlib.Path(nsbox.__file__).parent / "py.typed").exists()


def test_agent_demo(nsbox_bin: str) -> None:
    demo = SRCDIR / "examples" / "agent_demo.py"
    proc = subprocess.run([sys.executable, str(demo), "--nsbox", nsbox_bin],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert len(rows) >= 10 and all(r["as_expected"] for r in rows)
    assert stat.S_ISREG(os.stat(demo).st_mode)


def test_imported_from_the_installed_wheel() -> None:
    venv = os.environ.get("NSBOX_PY_INSTALLED")
    if not venv:
        pytest.skip("not run from make check-python's venv")
    assert os.path.realpath(nsbox.__file__).startswith(os.path.realpath(venv))


def test_types_check_strictly(tmp_path: pathlib.Path) -> None:
    """The package and a harness written against it pass mypy --strict for
    Python 3.9 (mypy from Debian; skipped without it)."""
    pytest.importorskip("mypy")
    user = tmp_path / "harness.py"
    user.write_text(
        "import asyncio\nimport nsbox\n\n"
        "def main() -> int:\n"
        "    sb = nsbox.Sandbox('.', ro=['input'], rw=['out'], memory='512M', timeout=60,\n"
        "                      max_output=1 << 20, allow_net=['example.org'], env={'A': 'b'})\n"
        "    v: nsbox.Verdict = sb.check(['python3', 'script.py'])\n"
        "    r: nsbox.SandboxResult = sb.run(['python3', 'script.py'], stdin=b'',\n"
        "                                    approved=v.approval_id)\n"
        "    r2 = asyncio.run(sb.run_async(['true']))\n"
        "    try:\n"
        "        r.raise_for_status()\n"
        "    except nsbox.CommandDenied as e:\n"
        "        print(e.rule, e.hint, e.result.exit_code)\n"
        "    except nsbox.SandboxError as e:\n"
        "        print(e.stage, e.hint)\n"
        "    code: int = r.exit_code + r2.duration_ms\n"
        "    d: nsbox.DoctorReport = nsbox.doctor()\n"
        "    return code if d.ok else 2\n")
    env = dict(os.environ)
    if not os.environ.get("NSBOX_PY_INSTALLED"):  # the sources, not a wheel (py.typed)
        env["MYPYPATH"] = str(pathlib.Path(nsbox.__file__).parent.parent)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.9",
         "--no-incremental", "--cache-dir", os.devnull, str(user)],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
