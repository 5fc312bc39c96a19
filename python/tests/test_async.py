# SPDX-License-Identifier: GPL-2.0-or-later
"""run_async on asyncio: concurrent runs, and cancellation stopping the
sandbox."""

from __future__ import annotations

import asyncio
import pathlib
import time

import nsbox


def test_concurrent_runs(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project)

    async def main() -> list:
        return await asyncio.gather(*(sb.run_async(["echo", str(i)]) for i in range(6)))

    results = asyncio.run(main())
    assert [r.stdout for r in results] == [f"{i}\n" for i in range(6)]
    assert all(r.ok for r in results)


def test_async_outcomes(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project, timeout=0.5)

    async def main() -> list:
        return await asyncio.gather(sb.run_async(["sleep", "10"]),
                                    sb.run_async(["rm", "clean.txt"]),
                                    sb.run_async(["wc", "-c"], stdin=b"12345"))

    slow, denied, counted = asyncio.run(main())
    assert slow.timed_out and slow.exit_code == -101
    assert denied.denied and denied.exit_code == -100
    assert counted.stdout.strip() == "5"


def test_cancel_stops_the_sandbox(project: pathlib.Path) -> None:
    sb = nsbox.Sandbox(project, rw=["out"])

    async def main() -> float:
        task = asyncio.ensure_future(sb.run_async(["sleep", "60"]))
        await asyncio.sleep(1.0)
        start = time.monotonic()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return time.monotonic() - start

    assert asyncio.run(main()) < 10
