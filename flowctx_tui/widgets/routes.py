"""The routes view: where the workflow goes next from a step or agent, under the scenario.

Pick a source (a flow step or an agent with rules, from ``flowctx_core.routing.sources``); every
candidate route of ``flow.yaml``, ``transition_graph.yaml`` and ``handoffs.yaml`` is listed in
evaluation order with its condition, its live outcome (true / false / error / always / not
evaluable / skipped, coloured) and its explain (expand a candidate), and the winner is
highlighted with the reason. All of it is ``flowctx_core.routing.decide`` output; nothing is decided
here. It is computed off the UI thread, debounced, and a stale computation is dropped.

Hooks (the only ones):

* ``update_workspace(session, workflow, matrix, *, env_overrides, launch, routes)`` from the
  app after every (re)load and workflow switch, with the routing files and the matrix that
  load read and resolved (nothing is read again here); ``reveal`` (reactive) from the app.
* ``set_scenario(scenario)``, from the app, which keeps the scratchpad's scenario (the
  scratchpad posts ``messages.ScenarioChanged``): the routes view uses the same scenario as the
  scratchpad without either knowing the other. Until then it routes with an empty scenario.
* ``set_route_changes(changes, base)``, from the app in review mode: the decisions whose
  winner changed since the base are marked, and a line names them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Select, Static, Tree
from textual.widgets.tree import TreeNode

from flowctx_core.base.secrets import mask_text
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_core.model.scenarios import Scenario
from flowctx_core.routing import (
    RouteDecision,
    Routes,
    decide,
    load_routes,
    sources,
    unread_routing,
)
from flowctx_core.routing.decision import Candidate
from flowctx_core.routing.trace import Trace
from flowctx_core.runtime.policy import policy_of
from flowctx_tui.cli.terminal import escape_controls as esc
from flowctx_tui.latest_run import LatestRun
from flowctx_tui.widgets.explain_tree import FitTree, add_explain

if TYPE_CHECKING:
    from collections.abc import Sequence

    from flowctx_core.base.diagnostics import Diagnostic
    from flowctx_core.model.matrix import Matrix
    from flowctx_core.review.diff import RouteChange
    from flowctx_core.session import Session
    from flowctx_core.testing.coverage import Coverage

OUTCOME_STYLES = {
    "true": "bold green",
    "false": "red",
    "error": "bold white on red",
    "always": "cyan",
    "not evaluable": "yellow",
    "skipped": "dim",
}
NO_FILES = f"no routing files in this workflow ({', '.join(ROUTING_FILES.values())})"


@dataclass(frozen=True)
class RoutesOutcome:
    """One computation: the sources offered, the source used, its decisions, file problems."""

    sources: tuple[str, ...]
    source: str | None
    decisions: tuple[RouteDecision, ...]
    problems: tuple[Diagnostic, ...]
    #: the whole run from the source under the scenario (``flowctx trace``), when asked for
    trace: Trace | None = None

    def prepare(self, *, reveal: bool) -> RoutesOutcome:
        """Build every candidate's explain tree now (each is built on first use otherwise):
        called in the worker thread, so the UI thread only renders finished trees."""
        for decision in self.decisions:
            for candidate in decision.candidates:
                candidate.explain_tree(reveal=reveal)
        return self


def compute_routes(
    session: Session,
    workflow: str,
    wanted: str | None,
    scenario: Scenario,
    env_overrides: dict[str, str],
    launch: dict[str, Any],
    matrix: Matrix | None = None,
    routes: Routes | None = None,
    with_trace: bool = False,
) -> RoutesOutcome:
    """Decide from ``wanted`` (or the first source). Runs in a thread. The app passes the
    routing files and the matrix of its last load; without them they are read here.
    ``with_trace``: also the whole run from there, each turn changing nothing but the first,
    which calls the scenario's tools (``flowctx trace``), up to the workflow's max_turns."""
    if routes is None:
        routes = load_routes(session.load(workflow))
    offered = tuple(sources(routes))
    source = wanted if wanted in offered else (offered[0] if offered else None)
    decisions: list[RouteDecision] = []
    if source is not None:
        trial: dict[str, Any] = {
            "data": scenario.data if isinstance(scenario.data, dict) else {},
            "context_overrides": scenario.context_overrides,
            "context_removed": scenario.context_removed,
            "payload": scenario.payload,
            "step_result": scenario.step_result,
            "flow_context": scenario.flow_context
            if isinstance(scenario.flow_context, dict)
            else {},
            "tools_called": scenario.tools_called,
        }
        if matrix is None:
            decisions = session.decide(
                workflow, source, env_overrides=env_overrides, launch=launch, routes=routes, **trial
            )
        else:
            decisions = decide(
                routes, matrix, source, unread=unread_routing(session.runtime), **trial
            )
    run = None
    if with_trace and source is not None:
        run = scenario_trace(
            session, workflow, routes, source, scenario, env_overrides, launch, matrix
        )
    return RoutesOutcome(offered, source, tuple(decisions), tuple(routes.diagnostics), run)


#: turns a trace in the routes view plays at most (a run that loops stops at max_turns first)
TRACE_TURNS = 60


def scenario_trace(
    session: Session,
    workflow: str,
    routes: Routes,
    source: str,
    scenario: Scenario,
    env_overrides: dict[str, str],
    launch: dict[str, Any],
    matrix: Matrix | None,
) -> Trace:
    """The run from ``source`` under ``scenario``: its context edits to start with, its tools
    called on the first turn, no other change on any turn."""
    from flowctx_core.routing.trace import Turn, trace

    if matrix is None:
        matrix = session.matrix(session.load(workflow), env_overrides, launch)
    files = session.snapshot([workflow], env_overrides).workflow_files.get(workflow)
    max_turns = files.max_turns if files is not None else None
    count = min(max_turns or TRACE_TURNS, TRACE_TURNS)
    turns = [Turn(tools=tuple(scenario.tools_called) if i == 0 else ()) for i in range(count)]
    return trace(
        routes,
        matrix,
        turns,
        start=source,
        max_turns=max_turns,
        context=scenario.context_overrides,
        context_removed=tuple(scenario.context_removed),
    )


def authority_lines(matrix: Matrix | None) -> list[str]:
    """The runtime's verdict when it refuses the workflow, then the authority of each variable
    the transition rules route on (mozaiks 0.2.0's context authority policy)."""
    if matrix is None:
        return []
    out: list[str] = []
    if matrix.refused is not None:
        out.append(matrix.refused.headline("the runtime"))
    policy = policy_of(matrix)
    if policy is None or not policy.routing_keys:
        return out
    refused = {f.key for f in policy.compile_failures}
    for key in sorted(refused):
        held = policy.get(key)
        if held is not None:
            out.append(f"✗ routes on {key}: {held.summary()}")
    fine = sorted(policy.routing_keys - refused)
    if fine:
        out.append(f"⇄ routes on {', '.join(fine)}: each has a deterministic writer")
    return out


def outcome_badge(outcome: str) -> Text:
    return Text.assemble((f" {outcome} ", OUTCOME_STYLES.get(outcome, "")))


def candidate_label(candidate: Candidate, order: int, won: bool) -> Text:
    """``★ 2.  true  data.userApproval === true  → Approved  (priority 20)``.

    ``order`` is the position in evaluation order (1-based), which for a flow is not the
    position in the file; the file:line is under the candidate.
    """
    label = Text.assemble(("★ " if won else "  ", "bold yellow"))
    label.append(f"{order}. ")
    label.append_text(outcome_badge(candidate.outcome))
    label.append(" ")
    condition = esc(" ".join(mask_text(candidate.condition).split())) if candidate.condition else ""
    label.append(condition or "(no condition)", style="" if condition else "dim italic")
    label.append("  → ", style="dim")
    label.append(esc(candidate.target), style="bold")
    if candidate.priority is not None:
        label.append(f"  (priority {candidate.priority})", style="dim")
    if won:
        label.stylize("reverse", 2)
    return label


def decision_label(decision: RouteDecision) -> Text:
    """The decision's heading: the file, the source and the outcome; why it was decided is
    the line under it (``reason_line``), so a heading fits a 120-column terminal."""
    label = Text.assemble((esc(decision.file), "bold underline"))
    label.append(f"  from {esc(decision.source)}: ")
    if decision.winner is not None and not decision.failed:
        label.append(f"→ {esc(decision.winner.target)}", style="bold green")
    elif decision.failed:
        label.append("the run fails", style="bold red")
    else:
        label.append("ends", style="bold yellow")
    if decision.unread:
        # the line under the heading says why when the reason is the same (it is, for an
        # unread file): the heading stays short enough for 80 columns
        said = decision.unread in decision.reason
        shown = "  NOT READ" if said else f"  NOT READ: {esc(decision.unread)}"
        label.append(shown, style="bold yellow")
    return label


def reason_line(decision: RouteDecision) -> Text:
    """Why the decision came out as it did, on a line of its own under the heading."""
    return Text.assemble((esc(mask_text(decision.reason)), "dim italic"))


def _compute(
    work: Callable[[], RoutesOutcome], reveal: bool, cancel: threading.Event
) -> RoutesOutcome | Exception:
    """Runs in the worker thread. Routing calls the evaluator many times, each call bounded by
    its own budget, so ``cancel`` (a newer change, the deadline) only drops the result."""
    try:
        return work().prepare(reveal=reveal)
    except Exception as exc:  # a routing bug must show, not take the app down
        return exc


class RoutesView(Widget):
    """Every candidate route from one source under the shared scenario, winner highlighted."""

    DEFAULT_CSS = """
    RoutesView {
        layout: vertical;
        height: 1fr;
    }
    RoutesView #rv-head {
        height: 1;
    }
    RoutesView #rv-from {
        width: auto;
        padding-right: 1;
    }
    RoutesView #rv-source {
        width: 32;
    }
    RoutesView #rv-scenario {
        width: 1fr;
        padding-left: 1;
        color: $text-muted;
    }
    RoutesView #rv-problems {
        height: auto;
        max-height: 4;
        color: $text-error;
    }
    RoutesView #rv-changes {
        height: auto;
        max-height: 5;
        display: none;
    }
    RoutesView #rv-tree {
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+l", "focus_source", "Go to the source list", show=False, id="routes.source"),
        Binding("ctrl+o", "save_as_test", "Save as test", id="routes.save_test"),
        Binding("ctrl+y", "toggle_trace", "Trace run", id="routes.trace"),
    ]

    reveal: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None
        self.workflow: str | None = None
        #: the app's resolution for these overrides: routing reuses it instead of resolving again
        self.matrix: Matrix | None = None
        #: the routing files as the app's last load read them
        self.routes: Routes | None = None
        self.env_overrides: dict[str, str] = {}
        self.launch: dict[str, Any] = {}
        self.scenario = Scenario()
        self.source: str | None = None
        self.outcome: RoutesOutcome | None = None
        # routing runs off the UI thread; the latest change wins, "routing…" shows after a
        # moment, and past the deadline the last routes computed stay on screen
        self._run: LatestRun[RoutesOutcome | Exception] = LatestRun(
            self,
            group="routes",
            start=self._start,
            show=self._finish,
            busy=self._show_busy,
            give_up=self._give_up,
        )
        self._offered: tuple[str, ...] = ()
        #: (file kind, rule index) of the rules no test case takes (``set_coverage``)
        self.untested: frozenset[tuple[str, int]] = frozenset()
        self._coverage: Coverage | None = None
        #: review mode (``set_route_changes``)
        self.route_changes: tuple[RouteChange, ...] = ()
        self.base = ""
        self._status = ""  # routing…, gave up, an internal error; shown above the problems
        #: show the whole run from the source under the scenario (ctrl+y)
        self.show_trace = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="rv-head"):
            yield Static("from", id="rv-from")
            yield Select([], prompt="step or agent…", compact=True, id="rv-source")
            yield Static("", id="rv-scenario")
        yield Static("", id="rv-problems")
        yield Static("", id="rv-changes")  # review mode: winners changed since the base
        tree: Tree[Any] = FitTree("routes", id="rv-tree")
        tree.show_root = False
        tree.guide_depth = 2
        yield tree

    def on_mount(self) -> None:
        self._show_scenario()
        if self.session is not None:
            self._schedule()

    # --- hooks ---------------------------------------------------------------------------

    def update_workspace(
        self,
        session: Session,
        workflow: str,
        matrix: Matrix,
        *,
        env_overrides: dict[str, str],
        launch: dict[str, Any],
        routes: Routes | None = None,
    ) -> None:
        if workflow != self.workflow:
            self.source = None  # another workflow has other steps and agents
        changed = workflow != self.workflow
        self.session, self.workflow, self.matrix = session, workflow, matrix
        if changed:
            self._mark_untested()
        self.routes = routes
        self.env_overrides, self.launch = dict(env_overrides), dict(launch)
        if self.is_mounted:
            self._schedule()

    def set_scenario(self, scenario: Scenario) -> None:
        """Route under ``scenario`` (the scratchpad's); see the module docstring."""
        self.scenario = scenario
        if self.is_mounted:
            self._show_scenario()
            self._schedule()

    def set_coverage(self, coverage: Coverage | None) -> None:
        """Mark the rules no test case takes (what the Tests tab measured)."""
        self._coverage = coverage
        self._mark_untested()

    def _mark_untested(self) -> None:
        coverage = self._coverage
        self.untested = frozenset(
            (r.kind, r.index)
            for r in (coverage.uncovered() if coverage is not None else ())
            if r.workflow == self.workflow
        )
        if self.is_mounted and self.outcome is not None:
            self._show_outcome(self.outcome)

    def set_route_changes(self, changes: Sequence[RouteChange], base: str = "") -> None:
        """Review mode: mark the decisions whose winner changed since ``base`` (under the
        default or a saved scenario); ``()`` clears the marks."""
        self.route_changes, self.base = tuple(changes), base
        if self.is_mounted:
            self._show_changes()
            if self.outcome is not None:
                self._show_outcome(self.outcome)

    def _changed_here(self, decision: RouteDecision) -> list[RouteChange]:
        return [
            c for c in self.route_changes if c.source == decision.source and c.file == decision.file
        ]

    def _show_changes(self) -> None:
        widget = self.query_one("#rv-changes", Static)
        widget.display = bool(self.route_changes)
        if not self.route_changes:
            return
        from flowctx_tui.widgets.changes import MARK_STYLE, route_text

        here = [c for c in self.route_changes if c.source == self.source]
        others = sorted({c.source for c in self.route_changes if c.source != self.source})
        text = Text.assemble(("~ winner changed since ", MARK_STYLE), (self.base, "bold"))
        for c in here:
            text.append(f"\n  [{c.scenario}] {c.file.rsplit('/', 1)[-1]}: {route_text(c)}")
        if others:
            text.append(f"\n  also from: {', '.join(others)}", style="dim")
        widget.update(text)

    def watch_reveal(self, reveal: bool) -> None:
        # the trees for the other reveal state are built off the UI thread too
        if self.is_mounted and self.session is not None:
            self._schedule()

    def action_save_as_test(self) -> None:
        """The route on screen, under the current scenario, as a new test case."""
        outcome = self.outcome
        if self.session is None or self.workflow is None or outcome is None or not outcome.source:
            self.app.notify("Nothing routed yet: choose a step or agent first", severity="warning")
            return
        from flowctx_core.model.scenarios import secret_guard
        from flowctx_core.testing.save import route_case
        from flowctx_tui.screens.save_test import SaveTestScreen

        case = route_case(
            self.scenario,
            outcome.decisions,
            outcome.source,
            env=self.env_overrides,
            launch=self.launch,
        )
        from flowctx_tui.screens.copy_demo import writable_root
        from flowctx_tui.screens.save_test import saved_as_test

        guard = secret_guard(self.matrix, self.session.effective_env(self.env_overrides))
        workflow = self.workflow

        def save_in(root: Path) -> None:
            screen = SaveTestScreen(root, workflow, case, guard, workflow)
            self.app.push_screen(screen, partial(saved_as_test, self.app))

        writable_root(self.app, self.session.root, "saves the test", save_in)

    def action_toggle_trace(self) -> None:
        """Show (or hide) the whole run from the source under the current scenario."""
        self.show_trace = not self.show_trace
        self._schedule()

    def action_focus_source(self) -> None:
        self.query_one("#rv-source", Select).focus()

    @on(Select.Changed, "#rv-source")
    def _source_changed(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, str) and event.value != self.source:
            self.source = event.value
            self._schedule()

    def select_source(self, source: str) -> None:
        """Route from ``source`` (as if picked in the list)."""
        self.source = source
        self._schedule()

    # --- computing -----------------------------------------------------------------------

    def _schedule(self) -> None:
        self._run.changed()

    def _start(self) -> None:
        if self.session is None or self.workflow is None:
            return
        work = partial(
            compute_routes,
            self.session,
            self.workflow,
            self.source,
            self.scenario,
            dict(self.env_overrides),
            dict(self.launch),
            self.matrix,
            self.routes,
            self.show_trace,
        )
        self._run.run(partial(_compute, work, self.reveal))

    def _finish(self, outcome: RoutesOutcome | Exception) -> None:
        if isinstance(outcome, Exception):
            self._status = mask_text(
                f"internal error while routing: {type(outcome).__name__}: {outcome}"
            )
            self._show_problems()
            return
        self._status = ""
        self.outcome = outcome
        self.source = outcome.source
        self._show_outcome(outcome)

    def _show_busy(self) -> None:
        self._status = "routing…"
        self._show_problems()

    def _give_up(self, seconds: float) -> None:
        earlier = "; the routes shown are from before the change" if self.outcome else ""
        self._status = (
            f"gave up after {seconds:g} s: routing under this scenario did not finish{earlier}"
        )
        self._show_problems()

    @property
    def pending(self) -> bool:
        """True until the latest change has been routed and shown."""
        return self._run.pending

    # --- rendering -----------------------------------------------------------------------

    def _show_scenario(self) -> None:
        s = self.scenario
        parts = []
        for name, value in (
            ("data", s.data),
            ("payload", s.payload),
            ("stepResult", s.step_result),
            ("flowContext", s.flow_context),
        ):
            if value:
                n = len(value) if isinstance(value, dict | list) else 1
                parts.append(f"{name} {n}")
        edits = len(s.context_overrides)
        if edits:
            parts.append(f"context edits {edits}")
        if s.context_removed:
            parts.append(f"context removed {len(s.context_removed)}")
        if s.tools_called:
            parts.append("tools " + ", ".join(s.tools_called))
        text = "scenario: " + (", ".join(parts) if parts else "empty")
        self.query_one("#rv-scenario", Static).update(Text(text + " · edit it in Scratchpad"))

    def _show_problems(self) -> None:
        """The status line (routing…, gave up), then the routing files' problems."""
        lines = [self._status] if self._status else []
        lines.extend(authority_lines(self.matrix))
        problems = self.outcome.problems if self.outcome is not None else ()
        lines.extend(mask_text(d.format()) for d in problems[:3])
        if len(problems) > 3:
            lines.append(f"… and {len(problems) - 3} more (flowctx check)")
        self.query_one("#rv-problems", Static).update(Text("\n".join(lines)))

    def _show_outcome(self, outcome: RoutesOutcome) -> None:
        select = self.query_one("#rv-source", Select)
        options = [(s, s) for s in outcome.sources]
        with self.prevent(Select.Changed):
            if self._offered != outcome.sources:
                select.set_options(options)
                self._offered = outcome.sources
            if outcome.source is not None and select.value != outcome.source:
                select.value = outcome.source
        self._show_problems()
        tree = self.query_one("#rv-tree", Tree)
        tree.clear()
        if not outcome.sources:
            tree.root.add_leaf(Text.assemble((NO_FILES, "dim")))
            return
        self._show_changes()
        if outcome.trace is not None:
            self._add_trace(tree, outcome.trace)
        for decision in outcome.decisions:
            label = decision_label(decision)
            changed = self._changed_here(decision)
            if changed:
                scenarios = ", ".join(c.scenario for c in changed)
                label.append(f"  ~ winner changed since base [{scenarios}]", style="bold magenta")
            branch = tree.root.add(label, data=decision, expand=True)
            branch.add_leaf(reason_line(decision), data=decision)
            for order, candidate in enumerate(decision.candidates, 1):
                self._add_candidate(branch, decision, candidate, order)

    def _add_trace(self, tree: Tree[Any], run: Trace) -> None:
        """The whole run as one branch: the path, then each turn and the rule that chose."""
        closed = f" ({run.closed})" if run.closed else ""
        label = Text.assemble(
            ("trace ", "bold"),
            (esc(" → ".join(run.path)), "bold cyan"),
            (f"  {run.outcome}{closed}", "bold red" if run.run_failed else "dim"),
        )
        branch = tree.root.add(label, data=run, expand=True)
        for note in run.notes:
            branch.add_leaf(Text(esc(note), style="italic"))
        for step in run.steps:
            target = step.winner or ("terminate" if step.ended else "—")
            rule = f"rule {step.rule}" if step.rule is not None else "no rule"
            where = f"  {step.location}" if step.location else ""
            branch.add_leaf(
                Text.assemble(
                    (f"{step.turn}. {esc(step.source)} → {esc(target)}  ", ""),
                    (f"{rule}{esc(where)}", "dim"),
                )
            )
        branch.add_leaf(Text(esc(mask_text(run.reason)), style="italic"))

    def _add_candidate(
        self, branch: TreeNode[Any], decision: RouteDecision, candidate: Candidate, order: int
    ) -> None:
        won = decision.winner is not None and candidate.index == decision.winner.index
        label = candidate_label(candidate, order, won)
        if (decision.kind, candidate.index) in self.untested:
            label.append("  · no test", style="dim italic")
        # masked by the core unless revealed (the unmasked tree is built only on reveal)
        explain = candidate.explain_tree(reveal=self.reveal)
        details: list[Text] = []
        if candidate.error_message and explain is None:
            details.append(Text.assemble((f"error: {esc(candidate.error_message)}", "bold red")))
        if candidate.note:
            details.append(Text.assemble((esc(mask_text(candidate.note)), "italic")))
        if candidate.description:
            details.append(Text.assemble((esc(candidate.description), "dim")))
        details.append(Text.assemble((esc(str(candidate.loc)), "dim")))
        node = branch.add(
            label, data=candidate, expand=won or candidate.outcome == "error", allow_expand=True
        )
        if explain is not None:
            add_explain(node, explain)
        for line in details:
            node.add_leaf(line)

    def lines(self) -> list[str]:
        """Every label in the tree, depth-first, expanded or not (for tests and copying)."""
        out: list[str] = []

        def walk(node: TreeNode[Any], depth: int) -> None:
            for child in node.children:
                label = child.label
                out.append("  " * depth + (label.plain if isinstance(label, Text) else str(label)))
                walk(child, depth + 1)

        walk(self.query_one("#rv-tree", Tree).root, 0)
        return out
