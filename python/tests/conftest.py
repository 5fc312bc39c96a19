# SPDX-License-Identifier: GPL-2.0-or-later
"""Fixtures: the real nsbox binary and a temporary project.

NSBOX_BIN names the binary (make check-python sets it; as the unprivileged
user it is a copy in a root-owned directory that user may execute); without
it the tests use build/nsbox of this source tree.
"""

from __future__ import annotations

import os
import pathlib

import pytest

SRCDIR = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def nsbox_bin() -> str:
    path = os.environ.get("NSBOX_BIN") or str(SRCDIR / "build" / "nsbox")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no nsbox binary at {path}: run make, or set NSBOX_BIN")
    os.environ["NSBOX_BIN"] = path
    return path


@pytest.fixture
def project(tmp_path: pathlib.Path, nsbox_bin: str) -> pathlib.Path:
    """A project folder: clean.txt, a writable out/, a script."""
    tmp_path.chmod(0o755)
    proj = tmp_path / "project"
    proj.mkdir()
    (proj / "clean.txt").write_text("alpha\nbeta\n")
    (proj / "out").mkdir()
    (proj / "out").chmod(0o777)
    (proj / "kill_self.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    (proj / "exit7.py").write_text("import sys\nprint('seven'); print('err', file=sys.stderr)\nsys.exit(7)\n")
    (proj / "env.py").write_text("import os, sys\nprint(os.environ.get(sys.argv[1], '<unset>'))\n")
    return proj
