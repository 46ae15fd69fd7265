"""Matches whose backtracking could outlast the evaluation budget, run in a child process
that is killed when its time is up.

``regress`` has no step limit and a match cannot be interrupted from Python, so a pattern the
pre-screen finds risky on a text (``/\\d+x/`` on 200 KB, ``/(a+)+$/`` on 40 characters) is
matched in a separate Python process: what finishes in time gives node's answer, exactly; what
does not is stopped and refused as flowctx's bound. The process is started on first need and
kept for the next risky match (one JSON line per request).
"""

from __future__ import annotations

import json
import sys
import threading
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the child is started on first need: a process that never needs it does not
    import subprocess  # pay for subprocess's import (most of a plain `flowctx eval`'s regexp)

#: the wall time one evaluation's risky matches may take together
SECONDS: Final = 1.0

_CHILD: Final = r"""
import json, sys
import regress
sys.stdout.write("ready\n")
sys.stdout.flush()
for line in sys.stdin:
    req = json.loads(line)
    try:
        rx = regress.Regex(req["p"], req["f"])
        found = rx.find_iter(req["t"]) if req["a"] else [rx.find(req["t"])]
        out = []
        for m in found or ():
            if m is None:
                continue
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


class _Worker:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        import select
        import subprocess

        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", _CHILD],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
            )
            assert self.proc.stdout is not None
            # wait for its imports, so that they do not count against the match's time
            ready, _, _ = select.select([self.proc.stdout], [], [], 30)
            if not ready or self.proc.stdout.readline().strip() != "ready":
                self.stop()
                raise TooSlow
        return self.proc

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def search(
        self, pattern: str, flags: str, text: str, every: bool, groups: int, seconds: float
    ) -> Spans:
        import select

        request = json.dumps({"p": pattern, "f": flags, "t": text, "a": every, "g": groups})
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
