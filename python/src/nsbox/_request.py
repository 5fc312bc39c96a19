# SPDX-License-Identifier: GPL-2.0-or-later
"""The request document nsbox reads with ``--request-fd`` (see nsbox(1),
REQUEST DOCUMENT).

The package never assembles a command line for the sandboxed command: every
option travels as a member of one JSON document over a pipe, so an argument
that starts with ``-`` or holds a space means nothing special on the way.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

__all__ = ["build_request", "Size"]

#: A size: bytes as an int, or nsbox's text form ("512M", "1G").
Size = Union[int, str]


def _strs(name: str, value: Optional[Sequence[str]]) -> List[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a list of strings, not a single string")
    out = []
    for item in value:
        if not isinstance(item, str):
            raise TypeError(f"{name} entries must be strings, got {type(item).__name__}")
        out.append(item)
    return out


def build_request(
    argv: Sequence[str],
    *,
    project: Optional[str] = None,
    cwd: Optional[str] = None,
    ro: Optional[Sequence[str]] = None,
    rw: Optional[Sequence[str]] = None,
    tmpfs: Optional[Sequence[str]] = None,
    env: Optional[Mapping[str, str]] = None,
    allow_net: Optional[Sequence[str]] = None,
    deny_net: Optional[Sequence[str]] = None,
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
    kill_after: Optional[float] = None,
    tmp_size: Optional[Size] = None,
    share_net: bool = False,
    allow_net_range: Optional[Sequence[str]] = None,
    proxy_port: Optional[int] = None,
    extra: Optional[Mapping[str, Any]] = None,
    **members: Any,
) -> Dict[str, Any]:
    """Return the request document for one run, as a dict.

    Only what was given appears, so nsbox's own defaults apply to the rest.
    Output is always captured into the record (``capture``): that is how
    :class:`~nsbox.SandboxResult` gets ``stdout`` and ``stderr``.  Any other
    keyword is a top-level request member of the same name
    (``hostname="build"``, ``allow_inline_code=True``,
    ``isolation="landlock"``, ``overlay=["src"]``: nsbox(1), REQUEST DOCUMENT, lists
    them; ``None`` and ``False`` leave a member out), and nsbox refuses a
    member it does not know.  ``extra`` is merged last, as it is.
    """
    args = _strs("argv", argv)
    if not args:
        raise ValueError("argv must name a command")
    req: Dict[str, Any] = {"argv": args}
    if project is not None:
        req["project"] = str(project)
    if cwd is not None:
        req["cwd"] = str(cwd)
    for name, paths in (("ro", ro), ("rw", rw), ("tmpfs", tmpfs)):
        items = _strs(name, paths)
        if items:
            req[name] = items
    if env:
        for k, v in env.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("env must map strings to strings")
        req["env"] = dict(env)
    network: Dict[str, Any] = {}
    if allow_net:
        network["allow"] = _strs("allow_net", allow_net)
    if deny_net:
        network["deny"] = _strs("deny_net", deny_net)
    if share_net:
        network["share"] = True
    if allow_net_range:
        network["ranges"] = _strs("allow_net_range", allow_net_range)
    if proxy_port is not None:
        network["proxy_port"] = proxy_port
    if network:
        req["network"] = network
    limits: Dict[str, Any] = {}
    for name, value in (
        ("memory", memory),
        ("pids", pids),
        ("cpus", cpus),
        ("timeout", timeout),
        ("max_output", max_output),
        ("kill_after", kill_after),
        ("tmp_size", tmp_size),
    ):
        if value is not None:
            if isinstance(value, bool):
                raise TypeError(f"{name} must be a number or a string")
            limits[name] = value
    if limits:
        req["limits"] = limits
    req["capture"] = True
    if seccomp is not None:
        req["seccomp"] = seccomp
    if policy is not None:
        req["policy"] = str(policy)
    for name, value in (("actor", actor), ("reason", reason), ("side_effect", side_effect)):
        if value is not None:
            req[name] = value
    for name, member in members.items():
        if member is None or member is False:
            continue
        req[name] = list(member) if isinstance(member, tuple) else member
    if extra:
        req.update(extra)
    return req
