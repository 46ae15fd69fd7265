"""The routes view, driven through Pilot on real workspaces under tmp_path."""

from __future__ import annotations

import json
import shutil
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from textual import on
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Select, Static, Tree

from flowctx_core.model.scenarios import Scenario
from flowctx_core.routing import Candidate
from flowctx_core.session import Session, open_session
from flowctx_tui.messages import ScenarioChanged
from flowctx_tui.widgets.json_editor import JsonEditor
from flowctx_tui.widgets.routes import RoutesView
from flowctx_tui.widgets.scratchpad import Scratchpad
from tests.conftest import settle as settle_app

TOKEN = "tok-routes-7f3e9a"
CONTRACT = """
definitions:
  environment:
    type: string
    source: {type: config, env_var: DEPLOY_ENVIRONMENT, default: staging}
  service_token:
    type: string
    source: {type: config, env_var: SERVICE_TOKEN}
  plan_approved:
    type: boolean
    source: {type: state, default: false}
  max_build_iterations:
    type: integer
    source: {type: state, default: 2}
agents:
  PlannerAgent: {variables: [plan_approved, max_build_iterations]}
"""
FLOW = """
steps:
  - {name: Validate, type: Action, starting: true}
  - {name: AwaitApproval, type: Prompt}
  - {name: Approved, type: Action}
  - {name: Rejected, type: Action}
  - {name: Retry, type: Action}
  - {name: Escalate, type: Sub-Agent, status: Disabled}
paths:
  - {from: AwaitApproval, to: Rejected, priority: 0}
  - {from: AwaitApproval, to: Retry, priority: 10,
     condition: "data.retryCount < 3 && payload.status === 'pending'"}
  - {from: AwaitApproval, to: Approved, priority: 20, condition: "data.userApproval === true"}
  - {from: AwaitApproval, to: Escalate, priority: 30,
     condition: "context.environment === 'production' && payload.amount > 10000"}
  - {from: Validate, to: AwaitApproval, priority: 10, condition: "stepResult.step === 'Success'"}
  - {from: Validate, to: Rejected, priority: 0}
"""
GRAPH = """
transitions:
  - source: PlannerAgent
    transition_type: condition
    condition_type: tool_called
    tool_name: request_revision
    target: {type: AgentTarget, agent: InterviewAgent}
  - source: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    condition: "${plan_approved} and ${max_build_iterations} > 0"
    target: PatternAgent
  - source: PlannerAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: service_token
    condition_value: let-me-in
    target: {type: TerminateTarget}
  - source: PlannerAgent
    transition_type: after_turn
    target: {type: RevertToUserTarget}
"""


def make_session(workspace: Any) -> Session:
    root = workspace(
        {
            "workflows/Approvals/context_variables.yaml": CONTRACT,
            "workflows/Approvals/flow.yaml": FLOW,
            "workflows/Approvals/transition_graph.yaml": GRAPH,
        }
    )
    return open_session(root, env={"DEPLOY_ENVIRONMENT": "production", "SERVICE_TOKEN": TOKEN})


class RoutesApp(App[None]):
    """Hosts the routes view (and the scratchpad, when asked) the way FlowctxApp does."""

    def __init__(self, session: Session, workflow: str, *, scratchpad: bool = False) -> None:
        super().__init__()
        self.session = session
        self.workflow = workflow
        self.with_scratchpad = scratchpad

    def compose(self) -> ComposeResult:
        if self.with_scratchpad:
            yield Scratchpad(id="scratchpad-view")
        yield RoutesView(id="routes-view")

    def on_mount(self) -> None:
        self.push()

    def push(self) -> None:
        snapshot = self.session.snapshot([self.workflow])
        matrix = self.session.matrix(self.workflow)
        routes = snapshot.routes[self.workflow]
        for pad in self.query(Scratchpad):
            pad.update_workspace(self.session, self.workflow, matrix, env_overrides={}, launch={})
        self.query_one(RoutesView).update_workspace(
            self.session, self.workflow, matrix, env_overrides={}, launch={}, routes=routes
        )

    @on(ScenarioChanged)
    def _scenario(self, message: ScenarioChanged) -> None:
        # as FlowctxApp: the app, not the scratchpad, gives the routes view its scenario
        self.query_one(RoutesView).set_scenario(message.scenario)


async def settle(pilot: Pilot[Any], timeout: float = 5.0) -> RoutesView:
    """Wait (bounded) until the latest scenario and files are routed and shown."""
    app = pilot.app
    view = app.query_one(RoutesView)
    pads = list(app.query(Scratchpad))
    await settle_app(pilot, lambda: view.pending or any(p.pending for p in pads), timeout)
    return view


def candidates(view: RoutesView) -> list[str]:
    """The candidate lines of every decision, in order, as the user reads them."""
    tree = view.query_one("#rv-tree", Tree)
    return [
        candidate.label.plain.strip()  # type: ignore[union-attr]
        for decision in tree.root.children
        for candidate in decision.children
        if isinstance(candidate.data, Candidate)  # not the line saying why
    ]


def winners(view: RoutesView) -> list[str]:
    return [line for line in candidates(view) if line.startswith("★")]


@pytest.fixture
def session(workspace: Any) -> Session:
    return make_session(workspace)


async def test_candidates_in_evaluation_order_with_the_winner(session: Session) -> None:
    async with RoutesApp(session, "Approvals").run_test(size=(110, 40)) as pilot:
        view = await settle(pilot)
        assert view.outcome is not None
        assert view.outcome.sources[:3] == ("Validate", "AwaitApproval", "Approved")
        assert view.source == "Validate"  # the first source until one is picked

        view.query_one("#rv-source", Select).value = "AwaitApproval"
        view.set_scenario(Scenario(data={"userApproval": True}))
        view = await settle(pilot)
        lines = view.lines()
        assert lines[0].startswith("workflows/Approvals/flow.yaml  from AwaitApproval: → Approved")
        assert candidates(view) == [
            "1.  false  context.environment === 'production' && payload.amount > 10000"
            "  → Escalate  (priority 30)",
            "★ 2.  true  data.userApproval === true  → Approved  (priority 20)",
            "3.  false  data.retryCount < 3 && payload.status === 'pending'"
            "  → Retry  (priority 10)",
            "4.  always  (no condition)  → Rejected  (priority 0)",
        ]


async def test_the_winner_changes_when_the_data_changes(session: Session) -> None:
    async with RoutesApp(session, "Approvals").run_test(size=(110, 40)) as pilot:
        view = await settle(pilot)
        view.select_source("AwaitApproval")
        view.set_scenario(
            Scenario(data={"userApproval": False, "retryCount": 1}, payload={"status": "pending"})
        )
        view = await settle(pilot)
        assert winners(view) == [
            "★ 3.  true  data.retryCount < 3 && payload.status === 'pending'"
            "  → Retry  (priority 10)"
        ]
        # a production spend over the limit picks Escalate, which is Disabled: the next
        # valid path to an Active step wins, and the view says why
        view.set_scenario(
            Scenario(
                data={"userApproval": True},
                payload={"status": "approved", "amount": 50_000},
            )
        )
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/flow.yaml  from AwaitApproval: → Approved"
        )
        assert candidates(view)[0].startswith("1.  true  context.environment")


async def test_the_scratchpad_scenario_drives_the_routes(session: Session) -> None:
    app = RoutesApp(session, "Approvals", scratchpad=True)
    async with app.run_test(size=(110, 60)) as pilot:
        view = await settle(pilot)
        view.select_source("AwaitApproval")
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/flow.yaml  from AwaitApproval: → Rejected"
        )

        pad = app.query_one(Scratchpad)
        pad.query_one("#sp-data", JsonEditor).set_text('{"userApproval": true}')
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/flow.yaml  from AwaitApproval: → Approved"
        )
        summary = str(view.query_one("#rv-scenario", Static).render())
        assert summary.startswith("scenario: data 1")

        # the tools called in the scratchpad decide a tool_called rule
        view.select_source("PlannerAgent")
        pad.query_one("#sp-tools", JsonEditor).set_text('["request_revision"]')
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/transition_graph.yaml  from PlannerAgent: → InterviewAgent"
        )
        assert winners(view)[0].startswith("★ 1.  true")

        # context edits in the scratchpad reach the Mozaiks rules too
        pad.query_one("#sp-tools", JsonEditor).set_text("[]")
        context = json.loads(pad.query_one("#sp-context", JsonEditor).text)
        context["plan_approved"] = True
        pad.query_one("#sp-context", JsonEditor).set_text(json.dumps(context))
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/transition_graph.yaml  from PlannerAgent: → PatternAgent"
        )


async def test_a_context_variable_removed_in_the_scratchpad_changes_the_route(
    session: Session,
) -> None:
    app = RoutesApp(session, "Approvals", scratchpad=True)
    async with app.run_test(size=(110, 60)) as pilot:
        view = await settle(pilot)
        view.select_source("PlannerAgent")
        pad = app.query_one(Scratchpad)
        context = json.loads(pad.query_one("#sp-context", JsonEditor).text)
        context["plan_approved"] = True
        pad.query_one("#sp-context", JsonEditor).set_text(json.dumps(context))
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/transition_graph.yaml  from PlannerAgent: → PatternAgent"
        )

        # deleting the budget from context: ${max_build_iterations} now reads as None, and
        # None > 0 is a TypeError in the Mozaiks evaluator, so the after_turn rule wins instead
        del context["max_build_iterations"]
        pad.query_one("#sp-context", JsonEditor).set_text(json.dumps(context))
        view = await settle(pilot)
        assert view.lines()[0].startswith(
            "workflows/Approvals/transition_graph.yaml  from PlannerAgent: → user"
        )
        assert candidates(view)[1].startswith("2.  error  ${plan_approved} and")
        assert any(
            "error: '>' not supported between instances of 'NoneType'" in line
            for line in view.lines()
        )
        assert any(
            "${max_build_iterations} is not in context: the Mozaiks evaluator reads it as None"
            in line
            for line in view.lines()
        )
        summary = str(view.query_one("#rv-scenario", Static).render())
        assert "context edits 1, context removed 1" in summary
        assert "only in the scratchpad" not in summary


async def test_secrets_stay_masked_in_the_routes(session: Session) -> None:
    async with RoutesApp(session, "Approvals").run_test(size=(110, 40)) as pilot:
        view = await settle(pilot)
        view.select_source("PlannerAgent")
        view = await settle(pilot)
        assert not any(TOKEN in line for line in view.lines())
        assert any("***" in line for line in view.lines())  # the context_equals read is shown
        # the other reveal state's trees are built off the UI thread, then shown
        view.reveal = True
        view = await settle(pilot)
        assert any(TOKEN in line for line in view.lines())
        view.reveal = False
        view = await settle(pilot)
        assert not any(TOKEN in line for line in view.lines())


async def test_routes_follow_the_files_and_report_their_errors(session: Session) -> None:
    app = RoutesApp(session, "Approvals")
    async with app.run_test(size=(110, 40)) as pilot:
        view = await settle(pilot)
        view.select_source("AwaitApproval")
        view = await settle(pilot)
        assert len(candidates(view)) == 4

        flow = session.root / "workflows/Approvals/flow.yaml"
        text = FLOW.replace(
            "priority: 0}\n  - {from: AwaitApproval, to: Retry",
            "priority: 50}\n  - {from: AwaitApproval, to: Retry",
            1,
        )
        text = text.replace("data.userApproval === true", "data.userApproval === = true")
        flow.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        app.push()  # what FlowctxApp does after its watcher reports the change
        view = await settle(pilot)
        lines = candidates(view)
        assert lines[0] == "★ 1.  always  (no condition)  → Rejected  (priority 50)"
        assert lines[-2].startswith("3.  error  data.userApproval === = true  → Approved")
        # the error is expanded under its candidate
        assert any("error" in line and "Unexpected token '='" in line for line in view.lines())

        flow.write_text("steps: [\n", encoding="utf-8")
        app.push()
        view = await settle(pilot)
        problems = str(view.query_one("#rv-problems", Static).render())
        assert problems.startswith("workflows/Approvals/flow.yaml:")
        assert view.outcome is not None and "AwaitApproval" not in view.outcome.sources


async def test_a_workflow_without_routing_files_says_so(workspace: Any) -> None:
    root = workspace({"workflows/Plain/context_variables.yaml": CONTRACT})
    session = open_session(root, env={})
    async with RoutesApp(session, "Plain").run_test(size=(110, 40)) as pilot:
        view = await settle(pilot)
        assert view.lines() == [
            "no routing files in this workflow (flow.yaml, transition_graph.yaml, handoffs.yaml)"
        ]


async def test_the_real_app_hosts_the_routes_view(tmp_path: Path) -> None:
    from flowctx_tui.app import FlowctxApp
    from flowctx_tui.cli.workspace_args import demo_path

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    session = open_session(root, env={})
    app = FlowctxApp(session, "AppGenerator", watch=False, cursor_blink=False)
    async with app.run_test(size=(100, 30)) as pilot:
        deadline = time.monotonic() + 10
        while app.result is None and time.monotonic() < deadline:
            await pilot.pause(0.02)
        await pilot.press("3")
        view = await settle(pilot)
        assert view.workflow == "AppGenerator"
        assert view.source == "InterviewAgent"
        files = [line.split("  ")[0] for line in view.lines() if not line.startswith(" ")]
        assert files == [
            "workflows/AppGenerator/transition_graph.yaml",
            "workflows/AppGenerator/handoffs.yaml",
        ]
        assert winners(view)


async def test_ctrl_y_shows_the_whole_run_of_the_current_scenario(tmp_path: Path) -> None:
    from flowctx_tui.app import FlowctxApp
    from flowctx_tui.cli.workspace_args import demo_path

    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    session = open_session(root, env={})
    app = FlowctxApp(session, "AppGenerator", watch=False, cursor_blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 10
        while app.result is None and time.monotonic() < deadline:
            await pilot.pause(0.02)
        await pilot.press("3")
        view = await settle(pilot)
        assert not any(line.startswith("trace ") for line in view.lines())
        # the scenario the scratchpad would post: the interview is complete
        app.post_message(ScenarioChanged(Scenario(context_overrides={"interview_complete": True})))
        view.query_one("#rv-tree").focus()
        await pilot.press("ctrl+y")
        view = await settle(pilot)
        lines = view.lines()
        head = next(line for line in lines if line.startswith("trace "))
        # InterviewAgent -> PlannerAgent (the interview is complete), then nothing approves the
        # plan, so the planner hands the turn back to the user, whose turn no rule leaves
        assert head == "trace InterviewAgent → PlannerAgent → user  ended (no_transition_matched)"
        turns = [
            line.strip() for line in lines if line.startswith("  1. ") or line.startswith("  2. ")
        ]
        assert turns[0].startswith("1. InterviewAgent → PlannerAgent  rule 1")
        assert turns[1].startswith("2. PlannerAgent → user  rule 3")
        await pilot.press("ctrl+y")
        view = await settle(pilot)
        assert not any(line.startswith("trace ") for line in view.lines())
