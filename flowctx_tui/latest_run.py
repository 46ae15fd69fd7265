"""The latest run wins: how a view recomputes off the UI thread while the user types on.

The scratchpad (a condition), the routes view and the graph view each recompute when an input
changes, with the same rules: wait for ``DEBOUNCE`` seconds of quiet, compute in a thread
worker (the UI thread only renders), show a result only if no newer input came meanwhile, say
"busy" once a run takes ``BUSY_AFTER`` seconds (a quick run, almost all, never flickers it), and
give up on a run after ``DEADLINE`` seconds, stopping it and keeping the last result shown. A
newer input stops the running one at once: its stop flag is set, and evaluators that check it
end instead of running on unseen.
"""

from __future__ import annotations

import contextlib
import inspect
import threading
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

from textual.timer import Timer
from textual.widget import Widget

T = TypeVar("T")

#: Seconds of quiet after a change before the view recomputes.
DEBOUNCE = 0.1
#: Seconds before a view says it is busy.
BUSY_AFTER = 0.3
#: Seconds a run may take before the view gives up on it, stops it and says so.
DEADLINE = 2.0


class LatestRun(Generic[T]):
    """One view's runs, numbered by generation: only the latest generation's result shows.

    ``start`` (called once the inputs have been quiet for ``DEBOUNCE``) reads the view's
    inputs and calls ``run`` with the work, or ``show_now`` with a result it has at hand.
    ``show`` puts a result on screen (it may be a coroutine function: the run counts as shown
    once it returns). ``busy`` and ``give_up`` (given the seconds waited) are optional: without
    ``give_up`` a run has no deadline.
    """

    def __init__(
        self,
        host: Widget,
        *,
        group: str,
        start: Callable[[], None],
        show: Callable[[T], Awaitable[None] | None],
        busy: Callable[[], None] | None = None,
        give_up: Callable[[float], None] | None = None,
    ) -> None:
        self._host = host
        self._group = group
        self._start = start
        self._show = show
        self._busy = busy
        self._give_up = give_up
        self.generation = 0
        self.shown = 0
        self._given_up: int | None = None  # the generation the deadline abandoned
        self._debounce: Timer | None = None
        # the running work: its stop flag and the timers that say "busy" and give up on it
        self._cancel: threading.Event | None = None
        self._clock: list[Timer] = []

    @property
    def pending(self) -> bool:
        """True until the latest change has been computed and shown (or given up on)."""
        return self.shown != self.generation

    def changed(self) -> None:
        """An input changed: stop the running work now, start again after the quiet time."""
        self.generation += 1
        self._stop_running()
        if self._debounce is not None:
            self._debounce.stop()
        self._debounce = self._host.set_timer(DEBOUNCE, self._started)

    def _started(self) -> None:
        self._debounce = None
        self._start()

    def run(self, work: Callable[[threading.Event], T]) -> None:
        """Compute ``work(stop_flag)`` in a thread worker for the current generation."""
        generation = self.generation
        self._stop_running()
        cancel = self._cancel = threading.Event()
        self._clock = []
        if self._busy is not None:
            self._clock.append(self._host.set_timer(BUSY_AFTER, lambda: self._say_busy(generation)))
        if self._give_up is not None:
            self._clock.append(
                self._host.set_timer(DEADLINE, lambda: self._deadline(generation, DEADLINE))
            )
        self._host.run_worker(
            lambda: self._work(generation, work, cancel),
            group=self._group,
            thread=True,
            exit_on_error=False,
        )

    def show_now(self, result: T) -> Awaitable[None] | None:
        """Show a result the view has without computing (for the current generation)."""
        return self._finish(self.generation, result)

    def _work(
        self, generation: int, work: Callable[[threading.Event], T], cancel: threading.Event
    ) -> None:
        """Runs in the worker thread; hands the result to the UI thread unless superseded."""
        result = work(cancel)
        if cancel.is_set() or generation != self.generation:
            return  # a newer input or the deadline: nobody is waiting for this one
        with contextlib.suppress(RuntimeError):  # the app is closing
            self._host.app.call_from_thread(self._finish, generation, result)

    def _finish(self, generation: int, result: T) -> Awaitable[None] | None:
        if generation != self.generation or generation == self._given_up:
            return None  # inputs changed meanwhile, or given up on; the newer run will show
        self._stop_running()
        shown = self._show(result)
        if inspect.isawaitable(shown):
            return self._mark_after(shown, generation)
        self.shown = generation
        return None

    async def _mark_after(self, showing: Awaitable[None], generation: int) -> None:
        await showing
        self.shown = generation

    def _say_busy(self, generation: int) -> None:
        if generation == self.generation and self.shown != generation and self._busy:
            self._busy()

    def _deadline(self, generation: int, seconds: float) -> None:
        """The deadline passed: stop the run; the view keeps its inputs and last result."""
        if generation != self.generation or self.shown == generation or not self._give_up:
            return
        self._stop_running()
        self._given_up = self.shown = generation
        self._give_up(seconds)

    def _stop_running(self) -> None:
        if self._cancel is not None:
            self._cancel.set()
            self._cancel = None
        for timer in self._clock:
            timer.stop()
        self._clock = []
