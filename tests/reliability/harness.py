"""Helpers for the reliability tests: bounded cost measured per input, hangs turned into
failures, a subprocess that cannot bypass file permissions, and the CLI run in-process."""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import gc
import multiprocessing
import os
import resource
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.cli import main

#: The bounds asserted for one hostile input (CPU seconds, MB of RSS growth). CPU time, not wall
#: time: the suite shares two cores with other workers, and wall time measures them. The worst
#: input measures about 1.5 s on the 2-core test machine (docs/reliability.md); the bound
#: leaves it twice that under load. ``FLOWCTX_RELIABILITY_SLACK`` scales it on a slower machine.
CPU_SECONDS = 3.0 * float(os.environ.get("FLOWCTX_RELIABILITY_SLACK", "1"))
PEAK_MB = 200.0
#: A hang becomes a failure (the worker dumps its stack and exits) after this many seconds.
HANG_SECONDS = 120.0


@dataclass(frozen=True)
class Cost:
    result: Any
    cpu_s: float
    #: growth of the peak resident set while ``fn`` ran
    peak_mb: float

    def within_bounds(self) -> bool:
        return self.cpu_s < CPU_SECONDS and self.peak_mb < PEAK_MB

    def __str__(self) -> str:
        return f"{self.cpu_s:.3f} s CPU, {self.peak_mb:.1f} MB peak RSS growth"


@contextlib.contextmanager
def no_hang(seconds: float = HANG_SECONDS) -> Iterator[None]:
    """Kill the process with a stack dump if the block runs longer than ``seconds``.

    A hang in-process would stall the whole suite; this turns it into a crashed test.
    """
    # the real stderr: pytest's capture object has no file descriptor
    faulthandler.dump_traceback_later(seconds, exit=True, file=sys.__stderr__)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def _measure_in_child(fn: Callable[[], Any], conn: Connection) -> None:
    try:
        gc.collect()
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.process_time()
        result = fn()
        cpu = time.process_time() - start
        grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
        conn.send((True, (result, cpu, grown_kb / 1024)))
    except BaseException:
        conn.send((False, traceback.format_exc()))
    finally:
        conn.close()
        os._exit(0)


def cost(fn: Callable[[], Any], hang_seconds: float = HANG_SECONDS) -> Cost:
    """Run ``fn`` once in a forked child: its CPU time, its peak RSS growth, its result.

    A fork starts with this process's memory (so nothing is imported twice) and a fresh
    high-water mark, so the growth is what ``fn`` allocated, C libraries included; tracemalloc
    would miss libyaml and slow allocation-heavy code several times over. A child that runs
    past ``hang_seconds`` is killed and the test fails. ``fn`` must return picklable data.
    """
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_measure_in_child, args=(fn, send))
    child.start()
    send.close()
    try:
        if not receive.poll(hang_seconds):
            pytest.fail(f"no answer within {hang_seconds:.0f} s: a hang")
        ok, payload = receive.recv()
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    if not ok:
        pytest.fail(f"raised in the measured call:\n{payload}")
    result, cpu, grown_mb = payload
    return Cost(result, cpu, grown_mb)


def record(request: pytest.FixtureRequest, what: str, measured: Cost) -> None:
    """Show the figure in the test report (``-rP`` or ``-s``) so the docs can quote it."""
    print(f"[figure] {request.node.name}: {what}: {measured}")


def run_cli(args: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``flowctx ARGS`` in this process: exit code, stdout, stderr. A traceback propagates."""
    with no_hang():
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- a subprocess without the root bypass of file permissions --------------------------------

_PR_CAPBSET_DROP = 24
_CAP_DAC_OVERRIDE = 1
_CAP_DAC_READ_SEARCH = 2


def _drop_file_capabilities() -> None:  # runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def permissions_bite(scratch: Path) -> str | None:
    """Why a chmod 000 file would still be readable by the flowctx subprocess, or None.

    Tests run as root, which reads anything. Dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
    from the child's bounding set makes the exec'd interpreter obey permissions (switching to
    ``nobody`` cannot work here: the interpreter lives under /root, mode 700).
    """
    probe = scratch / "permission-probe"
    probe.write_text("x", encoding="utf-8")
    probe.chmod(0)
    try:
        child = subprocess.run(
            [sys.executable, "-c", f"open({str(probe)!r}).read()"],
            preexec_fn=_drop_file_capabilities if os.geteuid() == 0 else None,
            capture_output=True,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot start a child without CAP_DAC_OVERRIDE ({exc})"
    finally:
        probe.unlink()
    if child.returncode == 0:
        return "a mode 000 file stays readable (root without a droppable CAP_DAC_OVERRIDE)"
    return None


def clean_env() -> dict[str, str]:
    """This process's environment without the settings flowctx reads."""
    ours = ("MOZAIKS_", "FLOWCTX_", "CONTEXT_")
    return {k: v for k, v in os.environ.items() if not k.startswith(ours)}


def flowctx_without_root_bypass(
    args: Sequence[str], cwd: Path, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The real ``flowctx`` script in a child that file permissions apply to."""
    return subprocess.run(
        [sys.executable, "-m", "flowctx_tui", *args],
        preexec_fn=_drop_file_capabilities if os.geteuid() == 0 else None,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=clean_env(),
        check=False,
    )
