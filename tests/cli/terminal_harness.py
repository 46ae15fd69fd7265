"""Running the installed ``flowctx`` the way a user's shell does: into a pipe, or in a real
pseudo-terminal of a given size. Every run has a timeout, so a command that hangs (an app
drawing into a pipe forever) fails the test instead of hanging the suite."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

TIMEOUT = 60.0
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def flowctx_command() -> list[str]:
    """The console script beside this Python, else the same entry point via -m."""
    script = Path(sys.executable).with_name("flowctx")
    if script.exists():
        return [str(script)]
    found = shutil.which("flowctx")
    return [found] if found else [sys.executable, "-m", "flowctx_tui"]


def clean_env(**extra: str) -> dict[str, str]:
    """Only what a shell needs, so the tester's own NO_COLOR, TERM or runtime settings do not
    decide what these tests see."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run_piped(
    args: list[str], *, cwd: Path, env: dict[str, str], stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """stdout and stderr to pipes, stdin from /dev/null unless told."""
    return subprocess.run(
        [*flowctx_command(), *args],
        cwd=cwd,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


@dataclass(frozen=True)
class TtyRun:
    returncode: int
    #: everything written to the terminal, with the terminal's \r\n turned into \n
    output: str

    @property
    def plain(self) -> str:
        return ESCAPE.sub("", self.output)


def run_in_pty(
    args: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    columns: int = 100,
    stdin_is_tty: bool = True,
) -> TtyRun:
    """stdout and stderr on a real pseudo-terminal ``columns`` wide; stdin on it too, or
    /dev/null. Fails (after killing the command) when it does not end within TIMEOUT."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(
        [*flowctx_command(), *args],
        cwd=cwd,
        env=env,
        stdin=slave if stdin_is_tty else subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + TIMEOUT
    try:
        while True:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"flowctx {' '.join(args)} did not end in {TIMEOUT} s")
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # EIO: the command ended and closed the terminal
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        code = proc.wait(timeout=TIMEOUT)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    text = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return TtyRun(code, text)
