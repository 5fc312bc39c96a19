# SPDX-License-Identifier: GPL-2.0-or-later
"""Starting nsbox: finding the binary, handing it the request over one pipe
and reading the record from another.

Two pipes, never files: the request goes in through ``--request-fd`` (so no
option of the sandboxed command is ever spelled on a command line) and the
record comes back through ``--result-fd``, a descriptor the sandbox never
sees.  Both are inherited by number (``pass_fds``); every other descriptor of
the caller is closed in nsbox by ``subprocess``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import threading
from typing import Any, Dict, List, Optional, Tuple, Union

from ._errors import SandboxError, SandboxUnavailable

__all__ = ["find_binary", "Launch", "parse_nsbox_stderr"]

Input = Union[str, bytes, None]


def find_binary(binary: Optional[str] = None) -> str:
    """Return the nsbox executable to use: ``binary`` if given, else the
    ``NSBOX_BIN`` environment variable, else ``nsbox`` on ``PATH``."""
    if binary:
        found = binary if os.sep in binary else shutil.which(binary)
        source = "binary="
    elif os.environ.get("NSBOX_BIN"):
        found = os.environ["NSBOX_BIN"]
        source = "NSBOX_BIN"
    else:
        found = shutil.which("nsbox")
        source = "PATH"
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise SandboxUnavailable(
            f"no executable nsbox found (looked at {source}: {binary or found or 'nsbox'})",
            stage="launch",
            hint="install nsbox, or pass binary='/path/to/nsbox' or set NSBOX_BIN",
        )
    return os.path.abspath(found)


def parse_nsbox_stderr(text: str) -> Tuple[str, Optional[str]]:
    """Split nsbox's error text into (message, hint): the last ``nsbox:``
    line that is not a warning, and the line after it when it is a hint."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    message, hint = "", None
    for ln in lines:
        body = ln[len("nsbox: "):] if ln.startswith("nsbox: ") else None
        if body is None or body.startswith("warning:"):
            continue
        if body.startswith("hint: "):
            hint = body[len("hint: "):]
        else:
            message, hint = body, None
    if not message and lines:
        message = lines[-1]
    return message, hint


def _encode(data: Input) -> Optional[bytes]:
    if data is None:
        return None
    if isinstance(data, str):
        return data.encode("utf-8")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError("stdin must be str, bytes or None")


def _write_all(fd: int, data: bytes) -> None:
    """Write the request and close the pipe; nsbox reads it to its end."""
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
    except BrokenPipeError:
        pass  # nsbox stopped reading (a usage error): its record says why
    finally:
        os.close(fd)


def _read_all(fd: int, out: List[bytes]) -> None:
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            out.append(chunk)
    finally:
        os.close(fd)


class Launch:
    """One invocation of nsbox: the argv, the pipes and what came back."""

    def __init__(
        self,
        binary: str,
        request: Dict[str, Any],
        *,
        check: bool = False,
        approved: Optional[str] = None,
        cwd: Optional[str] = None,
    ) -> None:
        self.binary = binary
        self.check = check
        self.cwd = cwd
        self.request = request
        self.payload = json.dumps(request, separators=(",", ":")).encode("utf-8")
        self.approved = approved
        self._req_r, self._req_w = os.pipe()
        self._rec_r, self._rec_w = (-1, -1) if check else os.pipe()
        self._record: List[bytes] = []
        self._threads: List[threading.Thread] = []

    def argv(self) -> List[str]:
        args = [self.binary]
        if not self.check:
            # first, so that even a usage error later is recorded
            args += ["--result-fd", str(self._rec_w)]
        if self.check:
            args.append("--check")
        if self.approved is not None:
            args += ["--approved", self.approved]
        return args + ["--request-fd", str(self._req_r)]

    def pass_fds(self) -> Tuple[int, ...]:
        return (self._req_r,) if self.check else (self._req_r, self._rec_w)

    def started(self) -> None:
        """After the child exists: drop our copies of its ends, start the
        writer and the record reader."""
        os.close(self._req_r)
        if not self.check:
            os.close(self._rec_w)
        w = threading.Thread(target=_write_all, args=(self._req_w, self.payload), daemon=True)
        self._threads.append(w)
        if not self.check:
            r = threading.Thread(target=_read_all, args=(self._rec_r, self._record), daemon=True)
            self._threads.append(r)
        for t in self._threads:
            t.start()

    def failed_to_start(self, err: OSError) -> SandboxUnavailable:
        for fd in (self._req_r, self._req_w, self._rec_r, self._rec_w):
            if fd >= 0:
                os.close(fd)
        return SandboxUnavailable(
            f"cannot execute '{self.binary}': {err.strerror or err}",
            stage="launch",
            hint="check that the file is an nsbox binary this user may execute",
        )

    def join(self) -> None:
        for t in self._threads:
            t.join()

    def record(self, returncode: int, stderr: str) -> Dict[str, Any]:
        """The parsed record, or a SandboxError when there is none."""
        raw = b"".join(self._record).strip()
        if not raw:
            message, hint = parse_nsbox_stderr(stderr)
            raise SandboxError(
                message or f"nsbox exited with status {returncode} and wrote no record",
                stage="launch",
                hint=hint,
                stderr=stderr,
            )
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SandboxError(f"unreadable record: {e}", stage="launch", stderr=stderr) from e
        if not isinstance(rec, dict):
            raise SandboxError("the record is not a JSON object", stage="launch", stderr=stderr)
        return rec


def raise_for_nsbox(rec: Dict[str, Any], stderr: str) -> None:
    """Turn nsbox's own failures (usage_error, setup_failed) into exceptions."""
    status = rec.get("status")
    if status not in ("usage_error", "setup_failed"):
        return
    err = rec.get("setup_error") or {}
    cls = SandboxUnavailable if status == "setup_failed" else SandboxError
    raise cls(
        err.get("message") or rec.get("reason") or str(status),
        stage=err.get("stage") or "usage",
        hint=err.get("hint"),
        status=status,
        record=rec,
        stderr=stderr,
    )


def run_sync(launch: Launch, stdin: Input) -> Tuple[int, str, str]:
    """Run nsbox to its end; return (exit status, stdout, stderr)."""
    data = _encode(stdin)
    try:
        proc = subprocess.Popen(launch.argv(), **_child_io(launch, data))
    except OSError as e:
        raise launch.failed_to_start(e) from e
    launch.started()
    try:
        out, err = proc.communicate(input=data)
    except BaseException:
        _stop(proc)
        raise
    finally:
        launch.join()
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def _child_io(launch: Launch, data: Optional[bytes]) -> Dict[str, Any]:
    """nsbox's standard streams, the descriptors it inherits and its cwd, the
    same for the blocking and the asyncio child."""
    return {
        "stdin": subprocess.PIPE if data is not None else subprocess.DEVNULL,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "pass_fds": launch.pass_fds(),
        "cwd": launch.cwd,
    }


def _stop(proc: "subprocess.Popen[bytes]") -> None:
    """Interrupted (KeyboardInterrupt, cancellation): SIGTERM reaches nsbox's
    supervisor, which stops the whole sandbox; SIGKILL if it does not end."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def run_async(launch: Launch, stdin: Input) -> Tuple[int, str, str]:
    """The asyncio form of :func:`run_sync`: the child is an asyncio
    subprocess; the two pipes are served by threads, joined off the loop."""
    data = _encode(stdin)
    try:
        proc = await asyncio.create_subprocess_exec(*launch.argv(), **_child_io(launch, data))
    except OSError as e:
        raise launch.failed_to_start(e) from e
    launch.started()
    loop = asyncio.get_running_loop()
    try:
        out, err = await proc.communicate(input=data)
    except BaseException:
        if proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                proc.kill()
        raise
    finally:
        await loop.run_in_executor(None, launch.join)
    rc = proc.returncode if proc.returncode is not None else -1
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
