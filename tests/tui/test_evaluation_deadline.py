"""The app never freezes on a condition (issue 13): evaluation runs in a worker thread, the
latest input wins, "evaluating…" shows while it runs, and a deadline gives up on it with the
typed text and the last result kept on screen.

Typing the issue's hostile condition key by key uses the real evaluator. For the states that
depend on an evaluation being slow (running, overtaken, past its deadline) a gate holds one
condition's evaluation in its worker thread until the test releases it, then runs the real
evaluator: a slow evaluation made deterministic, so that no assertion depends on timing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from flowctx_core.expressions import evaluate as real_evaluate
from flowctx_core.model.scenarios import Scenario
from flowctx_core.session import Session
from flowctx_tui import latest_run
from flowctx_tui.widgets import routes as routes_module
from flowctx_tui.widgets import scratchpad as scratchpad_module
from tests.conftest import until
from tests.tui.test_routes_view import RoutesApp, candidates
from tests.tui.test_routes_view import make_session as routes_session
from tests.tui.test_routes_view import settle as settle_routes
from tests.tui.test_scratchpad import (
    PadApp,
    editor,
    explain_lines,
    make_session,
    result_text,
    settle,
    type_expression,
)

SLOW = "data.n > 1 && 'held' === 'held'"


class Gate:
    """Holds every call of ``fn`` whose arguments ``match`` until ``release()``."""

    def __init__(self, fn: Callable[..., Any], matches: Callable[[tuple[Any, ...]], bool]) -> None:
        self.fn = fn
        self.matches = matches
        self.started = threading.Event()
        self.opened = threading.Event()
        self.cancel_seen: list[bool] = []  # per held call: was it stopped while held?

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.matches(args):
            self.started.set()
            self.opened.wait(10)  # bounded: a test that forgets to release still ends
            cancel = kwargs.get("cancel")
            self.cancel_seen.append(bool(cancel is not None and cancel.is_set()))
        return self.fn(*args, **kwargs)

    def release(self) -> None:
        self.opened.set()


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate(real_evaluate, lambda args: args[0] == SLOW)
    monkeypatch.setattr(scratchpad_module, "evaluate", held)
    yield held
    held.release()


@pytest.fixture
def session(workspace: Any) -> Session:
    return make_session(workspace)


async def test_typing_the_hostile_condition_key_by_key_keeps_every_key(session: Session) -> None:
    hostile = (
        "['00000000000000000000'.split('').map(c => '00000000000000000000').join('')"
        ".split('').slice(0, 400)].map(L => [L.map(x => L)].map(M => String(M.map(y => M))"
        ".length))[0][0] > 0"
    )
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await type_expression(pilot, hostile, keys=True)
        pad = await settle(pilot, timeout=30)
        # every key was processed and shown, and the answer is for the whole text
        assert pad.expression_input.value == hostile
        assert pad.scenario.expression == hostile
        assert result_text(pad).split("\n")[0].startswith(("✔", "✘", "error: "))
        # the app still takes keys: one more character is evaluated as usual
        await pilot.press("end", "0")
        pad = await settle(pilot, timeout=30)
        assert pad.expression_input.value == hostile + "0"


async def test_a_newer_key_wins_over_an_evaluation_still_running(
    session: Session, gate: Gate
) -> None:
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        editor(pad, "data").set_text('{"n": 2}')
        pad = await settle(pilot)
        await type_expression(pilot, SLOW)
        await until(pilot, gate.started.is_set, "the held evaluation to start")
        await until(pilot, lambda: "evaluating…" in result_text(pad), "'evaluating…'")
        # while it runs, the user types on: each key is processed and shown at once
        await pilot.press("space", "&", "&", "space", "d", "a", "t", "a", ".", "n", ">", "5")
        assert pad.expression_input.value == SLOW + " && data.n>5"
        await until(pilot, lambda: result_text(pad).startswith("✘ false"), "the newer result")
        assert any("data.n>5" in line for line in explain_lines(pad))
        # the older evaluation was stopped, and its late answer (true) never shows
        gate.release()
        pad = await settle(pilot)
        assert gate.cancel_seen == [True]
        assert result_text(pad) == "✘ false"


async def test_past_the_deadline_it_gives_up_and_keeps_the_last_result(
    session: Session, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(latest_run, "DEADLINE", 0.5)
    async with PadApp(session, "Review").run_test(size=(100, 30)) as pilot:
        pad = await settle(pilot)
        editor(pad, "data").set_text('{"n": 0}')
        pad = await settle(pilot)
        await type_expression(pilot, "data.n === 0")
        pad = await settle(pilot)
        assert result_text(pad) == "✔ true"
        before = explain_lines(pad)

        await type_expression(pilot, SLOW)
        await until(pilot, lambda: "gave up" in result_text(pad), "the deadline")
        shown = result_text(pad)
        assert shown.startswith("✔ true\ngave up after 0.5 s: the condition did not finish")
        assert "the result shown is for the last condition that finished" in shown
        assert pad.expression_input.value == SLOW  # what was typed stays
        assert explain_lines(pad) == before  # and so does the last explain
        assert not pad.pending
        gate.release()
        pad = await settle(pilot)
        assert gate.cancel_seen == [True]  # the evaluation was told to stop
        assert "gave up" in result_text(pad)  # its late answer is not shown

        # the next input is evaluated as usual
        await pilot.press("end", "space", "&", "&", "space", "1")
        pad = await settle(pilot)
        assert result_text(pad) == "✘ false"  # n is 0


# --- the routes view -------------------------------------------------------------------------


def _slow_scenario(args: tuple[Any, ...]) -> bool:
    scenario: Scenario = args[3]  # compute_routes(session, workflow, wanted, scenario, ...)
    return isinstance(scenario.data, dict) and bool(scenario.data.get("slow"))


@pytest.fixture
def routes_gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate(routes_module.compute_routes, _slow_scenario)
    monkeypatch.setattr(routes_module, "compute_routes", held)
    monkeypatch.setattr(latest_run, "DEADLINE", 0.5)
    yield held
    held.release()


def problems_text(view: Any) -> str:
    return str(view.query_one("#rv-problems", Static).render())


async def test_routes_give_up_past_the_deadline_and_keep_the_last_routes(
    workspace: Any, routes_gate: Gate
) -> None:
    async with RoutesApp(routes_session(workspace), "Approvals").run_test(size=(110, 40)) as pilot:
        pilot_: Pilot[Any] = pilot  # typed: the app class is the view's host
        view = await settle_routes(pilot_)
        view.select_source("AwaitApproval")
        view.set_scenario(Scenario(data={"userApproval": True}))
        view = await settle_routes(pilot_)
        before = candidates(view)
        assert any(line.startswith("★ 2.  true  data.userApproval") for line in before)

        view.set_scenario(Scenario(data={"userApproval": False, "slow": True}))
        await until(pilot_, routes_gate.started.is_set, "the held routing")
        await until(pilot_, lambda: "routing…" in problems_text(view), "'routing…'")
        await until(pilot_, lambda: "gave up" in problems_text(view), "the deadline")
        assert problems_text(view).startswith(
            "gave up after 0.5 s: routing under this scenario did not finish; "
            "the routes shown are from before the change"
        )
        assert candidates(view) == before
        assert not view.pending
        routes_gate.release()
        view = await settle_routes(pilot_)
        assert candidates(view) == before  # the abandoned answer is not shown
        assert "gave up" in problems_text(view)

        # the next change routes as usual, and the status line goes
        view.set_scenario(Scenario(data={"userApproval": False}))
        view = await settle_routes(pilot_)
        assert problems_text(view) == ""
        assert not any(line.startswith("★ 2.") for line in candidates(view))
