"""Matches whose backtracking could outlast the evaluation budget, run in a child process
that is killed when its time is up.

``regress`` has no step limit and a match cannot be interrupted from Python, so a pattern the
pre-screen finds risky on a text (``/\\d+x/`` on 200 KB, ``/(a+)+$/`` on 40 characters) is
matched in a separate Python process: what finishes in time gives node's answer, exactly; what
does not is stopped and refused as flowctx's bound. The process is started on first need and
kept for the next risky match (one JSON line per request).

The child never outlives flowctx: the kernel kills it when flowctx ends, by any signal
(``PR_SET_PDEATHSIG``), it is stopped at exit, and each match runs under a CPU limit of its
own (``RLIMIT_CPU``), so even a parent that stopped reading cannot leave it spinning.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import threading
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the child is started on first need: a process that never needs it does not
    import concurrent.futures  # pay for these imports (most of a plain `flowctx eval`'s regexp)
    import subprocess

#: the wall time one evaluation's risky matches may take together
SECONDS: Final = 1.0

_CHILD: Final = r"""
import ctypes, json, os, resource, signal, sys
# die with flowctx, however it ends (SIGKILL included): the kernel sends SIGKILL to this
# process when the thread that started it ends, and that thread lives as long as flowctx
try:
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
except (OSError, AttributeError):
    pass
if os.getppid() != int(sys.argv[1]):
    os._exit(0)  # flowctx ended before the line above took effect
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
import regress
sys.stdout.write("ready\n")
sys.stdout.flush()
_, hard = resource.getrlimit(resource.RLIMIT_CPU)
for line in sys.stdin:
    req = json.loads(line)
    # a CPU limit per match: the kernel ends this process past it, whatever the parent does
    usage = resource.getrusage(resource.RUSAGE_SELF)
    limit = int(usage.ru_utime + usage.ru_stime + req["s"]) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (limit if hard < 0 else min(limit, hard), hard))
    try:
        rx = regress.Regex(req["p"], req["f"])
        found = rx.find_iter(req["t"]) if req["a"] else [rx.find(req["t"])]
        out = []
        for m in found or ():
            if m is None:
                continue
            if len(out) >= req["x"]:
                break
            spans = []
            for g in range(req["g"] + 1):
                r = m.range() if g == 0 else m.group(g)
                spans.append(None if r is None else [r.start, r.stop])
            out.append(spans)
        reply = {"m": out}
    except Exception as exc:
        reply = {"e": str(exc)}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
"""


class TooSlow(Exception):
    """The child did not answer in time (and was stopped)."""


Spans = list[list[tuple[int, int] | None]]


def _popen() -> subprocess.Popen[str]:
    import subprocess

    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
    )


class _Worker:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[str] | None = None
        #: the one thread that starts children: the child's death signal is tied to the thread
        #: that forked it, so a short-lived caller thread (an app or server worker) must not
        self.spawner: concurrent.futures.ThreadPoolExecutor | None = None

    def _start(self) -> subprocess.Popen[str]:
        import select

        if self.proc is None or self.proc.poll() is not None:
            if self.spawner is None:
                import concurrent.futures

                self.spawner = concurrent.futures.ThreadPoolExecutor(
                    1, thread_name_prefix="flowctx-regex-worker"
                )
                atexit.register(self.stop)
            self.proc = self.spawner.submit(_popen).result()
            assert self.proc.stdout is not None
            # wait for its imports, so that they do not count against the match's time
            ready, _, _ = select.select([self.proc.stdout], [], [], 30)
            if not ready or self.proc.stdout.readline().strip() != "ready":
                self.stop()
                raise TooSlow
        return self.proc

    def forget(self) -> None:
        """In a forked child: the parent's worker, pipes and spawner thread are not this
        process's (the thread does not exist here), so start afresh on first need."""
        self.lock = threading.Lock()
        self.proc = None
        self.spawner = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def search(
        self,
        pattern: str,
        flags: str,
        text: str,
        every: bool,
        groups: int,
        seconds: float,
        most: int,
    ) -> Spans:
        """The spans of the first match, or of every match up to ``most`` of them."""
        import select

        request = json.dumps(
            {"p": pattern, "f": flags, "t": text, "a": every, "g": groups, "s": seconds, "x": most}
        )
        with self.lock:
            proc = self._start()
            assert proc.stdin is not None and proc.stdout is not None
            try:
                proc.stdin.write(request + "\n")
                proc.stdin.flush()
            except OSError:
                self.stop()
                raise TooSlow from None
            ready, _, _ = select.select([proc.stdout], [], [], seconds)
            if not ready:
                self.stop()  # the match runs on in the child: end it
                raise TooSlow
            line = proc.stdout.readline()
        if not line:
            self.stop()
            raise TooSlow
        reply: dict[str, Any] = json.loads(line)
        if "e" in reply:
            raise ValueError(reply["e"])
        return [[None if s is None else (s[0], s[1]) for s in m] for m in reply["m"]]


WORKER: Final = _Worker()
os.register_at_fork(after_in_child=WORKER.forget)
