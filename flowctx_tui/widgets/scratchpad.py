"""The condition scratchpad: type a condition, see it evaluated live against a scenario.

Layout (sensible at 80x24): the dialect and the expression on one line, completions under it,
the result (true / false / error with a caret under the offending span), then the explain tree
beside tabbed JSON editors for ``data``, ``context``, ``payload``, ``stepResult``,
``flowContext`` and the tools called, and a scenario bar (save / load) at the bottom.

Everything shown comes from core calls: ``flowctx_core.expressions.evaluate`` (result and explain),
``flowctx_core.expressions.completion`` (names and paths) and ``flowctx_core.model.scenarios`` (the
masked context overlay and
the scenario files). The explain is masked by the evaluator itself (``secret_roots``) unless
``reveal``.

``context`` starts as the workflow's resolved variables, secrets masked unless ``reveal``; the
user edits on top and ``ctrl+r`` restores it. A value left as shown (``***`` included) keeps its
real value for evaluation (``flowctx_core.model.scenarios.restore_masked``), so a masked
placeholder never
replaces a secret.

Hooks for the app (the only ones):

* ``update_workspace(session, workflow, matrix, *, env_overrides, launch)`` after every
  (re)load and workflow switch; ``reveal`` (reactive) when the user toggles reveal.
* After every change of the scenario the scratchpad posts ``messages.ScenarioChanged``
  (bubbles); the app keeps the scenario and hands it to the routes view, so neither widget
  knows the other. ``messages.ScenarioLoaded`` says a saved scenario with env / launch
  overrides was loaded, so the app may apply those (they change resolution, which the app
  owns).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.suggester import Suggester
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static, TabbedContent, TabPane

from flowctx_core.base.clock import Clock, ClockError, parse_now
from flowctx_core.base.secrets import mask_text
from flowctx_core.expressions import EvalResult, evaluate
from flowctx_core.expressions.completion import apply_completion, completions
from flowctx_core.expressions.pathcontext import build_path_context
from flowctx_core.model.scenarios import (
    DIALECTS,
    Scenario,
    ScenarioError,
    apply_overrides,
    check_name,
    context_display,
    diff_context,
    list_scenarios,
    load_scenario,
    remember,
    restore_context,
    save_scenario,
    secret_guard,
    secret_names,
    secret_reasons,
)
from flowctx_tui.latest_run import LatestRun
from flowctx_tui.messages import ScenarioChanged, ScenarioLoaded
from flowctx_tui.widgets.explain_tree import ExplainTree
from flowctx_tui.widgets.json_editor import JsonEditor
from flowctx_tui.widgets.keys import OrderedInput

if TYPE_CHECKING:
    from flowctx_core.model.matrix import Matrix
    from flowctx_core.routing import Routes
    from flowctx_core.session import Session

#: Seconds a condition's result stays on screen, untouched, before it counts as tried (goes
#: into the history, as Enter puts it at once): long enough that the prefixes passed on the
#: way to it while typing are not recorded.
HISTORY_AFTER = 1.0

#: the dialects whose conditions read MemberJunction's path context (python: the same names)
PATH_DIALECTS = ("mj", "python")
#: the scratchpad's input tabs for those, and for the dialects that read context variables
PATH_TABS = ("data", "context", "payload", "stepResult", "flowContext", "tools")
CONTEXT_TABS = ("context", "tools")

DIALECT_LABELS = {
    "mj": "mj",
    "ag2": "ag2 ${} (handoffs)",
    "mozaiks": "mozaiks ${} (transition graph)",
    "python": "python",
}


def _tools_check(value: Any) -> str | None:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        return 'tools called must be a list of tool names, e.g. ["submit_plan"]'
    return None


def _object_check(what: str):  # type: ignore[no-untyped-def]
    def check(value: Any) -> str | None:
        return None if isinstance(value, dict) else f"{what} must be a JSON object"

    return check


def caret_lines(text: str, start: int | None, end: int | None, width: int) -> tuple[str, str]:
    """The expression (windowed to ``width``) and a line with ``^~~`` under ``start:end``."""
    text = text.replace("\n", " ").replace("\t", " ")
    start = max(0, min(start if start is not None else len(text), len(text)))
    end = max(start + 1, min(end if end is not None else start + 1, len(text) + 1))
    width = max(width, 20)
    offset = 0
    if len(text) > width:
        # keep the caret visible: centre the window on the error
        offset = max(0, min(start - width // 2, len(text) - width))
    shown = text[offset : offset + width]
    caret_end = min(end - offset, width)
    marker = " " * (start - offset) + "^" + "~" * max(caret_end - (start - offset) - 1, 0)
    return shown, marker


class ScopeSuggester(Suggester):
    """Inline completion for the expression input, from the scratchpad's current scope."""

    def __init__(self, pad: Scratchpad) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.pad = pad

    async def get_suggestion(self, value: str) -> str | None:
        pad = self.pad
        found = completions(
            value, len(value), pad.completion_scope(), pad.dialect, pad.completion_secrets()
        )
        for candidate in found.candidates:
            suggestion = value[: found.start] + candidate
            # the input can only show a suggestion that extends what is typed
            if suggestion.startswith(value) and len(suggestion) > len(value):
                return suggestion
        return None


class ExpressionInput(OrderedInput):
    """The condition input: tab accepts a completion (and stays when there is none), esc
    leaves, up/down recall tried expressions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "tab", "complete", "Condition: complete the name", show=False, id="scratchpad.complete"
        ),
        Binding(
            "escape",
            "leave",
            "Condition: leave it (to the explain and the JSON tabs)",
            show=False,
            id="scratchpad.leave",
        ),
        Binding(
            "up",
            "history(-1)",
            "Condition: previous one tried (history)",
            show=False,
            id="scratchpad.history_prev",
        ),
        Binding(
            "down",
            "history(1)",
            "Condition: next one tried (history)",
            show=False,
            id="scratchpad.history_next",
        ),
    ]

    @dataclass
    class CompleteRequested(Message):
        input: ExpressionInput

    @dataclass
    class HistoryRequested(Message):
        input: ExpressionInput
        step: int

    # completion and history change the text now, in the input's own turn: a message to the
    # scratchpad would be handled after the keys typed next (tab, then ".x", must complete
    # first and append after)
    def action_complete(self) -> None:
        pad = self._pad()
        if pad is None:
            self.post_message(self.CompleteRequested(self))
        else:
            pad.complete_in(self)

    def action_leave(self) -> None:
        self.screen.focus_next()

    def action_history(self, step: int) -> None:
        pad = self._pad()
        if pad is None:
            self.post_message(self.HistoryRequested(self, step))
        else:
            pad.history_step(step)

    def _pad(self) -> Scratchpad | None:
        for node in self.ancestors:
            if isinstance(node, Scratchpad):
                return node
        return None


class Scratchpad(Widget):
    """Condition scratchpad for one workflow (see the module docstring for the app hooks)."""

    DEFAULT_CSS = """
    Scratchpad {
        layout: vertical;
        height: 1fr;
    }
    Scratchpad #sp-expr-row {
        height: 1;
    }
    Scratchpad #sp-dialect {
        width: 13;
    }
    Scratchpad #sp-expr {
        width: 1fr;
    }
    /* the open list is as wide as its longest label, not the closed box's 13 columns (where
       "mozaiks ${} (transition graph)" wrapped onto three lines) */
    Scratchpad #sp-dialect > SelectOverlay {
        width: 34;
    }
    Scratchpad #sp-clock {
        width: 26;
    }
    Scratchpad #sp-clock.-invalid {
        color: $error;
    }
    Scratchpad #sp-completions {
        height: 1;
        color: $text-muted;
    }
    Scratchpad #sp-result {
        height: auto;
        min-height: 1;
        max-height: 4;
    }
    Scratchpad #sp-body {
        height: 1fr;
    }
    Scratchpad #sp-explain {
        width: 2fr;
        min-width: 24;
        /* a solid line: vkey (▕ in every cell) showed as tick marks beside the editors */
        border-right: solid $foreground 15%;
    }
    Scratchpad #sp-inputs {
        width: 3fr;
    }

    Scratchpad #sp-inputs TabPane {
        padding: 0;
    }
    Scratchpad .sp-context-bar {
        height: 1;
    }
    Scratchpad .sp-context-bar Static {
        width: 1fr;
        color: $text-muted;
        padding-left: 1;
    }
    Scratchpad #sp-scenario-row {
        height: 1;
    }
    Scratchpad #sp-scenario-name {
        width: 24;
    }
    Scratchpad #sp-load {
        width: 26;
    }
    Scratchpad #sp-scenario-status {
        width: 1fr;
        padding-left: 1;
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save_scenario", "Save scenario", id="scratchpad.save"),
        Binding("ctrl+o", "save_as_test", "Save as test", id="scratchpad.save_test"),
        Binding("ctrl+r", "reset_context", "Reset context", id="scratchpad.reset_context"),
        Binding(
            "ctrl+l", "focus_expression", "Back to the condition", show=False, id="scratchpad.focus"
        ),
    ]

    reveal: reactive[bool] = reactive(False, init=False)
    dialect: reactive[str] = reactive("mj", init=False)

    ScenarioChanged = ScenarioChanged
    ScenarioLoaded = ScenarioLoaded

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None
        self.workflow: str | None = None
        self.matrix: Matrix | None = None
        self.env_overrides: dict[str, str] = {}
        self.launch: dict[str, Any] = {}
        self.scenario = Scenario()
        self.result: EvalResult | None = None
        self.history_index: int | None = None
        self._resolved: dict[str, Any] = {}
        self._secret: frozenset[str] = frozenset()
        # the context editor's text was generated from these; edits are read against them
        self._ctx_shown: dict[str, Any] = {}
        self._ctx_real: dict[str, Any] = {}
        self._ctx_effective: dict[str, Any] = {}
        self._shared: tuple[Any, ...] | None = None
        # what was typed is evaluated off the UI thread; the latest input wins, "evaluating…"
        # shows after a moment, and past the deadline the evaluation is stopped
        self._run: LatestRun[tuple[str, EvalResult | None]] = LatestRun(
            self,
            group="evaluate",
            start=self._start_evaluation,
            show=self._finish,
            busy=self._show_busy,
            give_up=self._give_up,
        )
        self._result_text = ""  # the expression ``result`` is for
        self._history_timer: Timer | None = None

    # --- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="sp-expr-row"):
            yield Select(
                [(DIALECT_LABELS[d], d) for d in DIALECTS],
                value="mj",
                allow_blank=False,
                compact=True,
                id="sp-dialect",
            )
            yield ExpressionInput(
                placeholder="condition, e.g. data.userApproval === true",
                suggester=ScopeSuggester(self),
                compact=True,
                select_on_focus=False,
                id="sp-expr",
            )
        yield Static("", id="sp-completions")
        yield Static(Text.assemble(("type a condition", "dim")), id="sp-result")
        with Horizontal(id="sp-body"):
            yield ExplainTree(id="sp-explain")
            with TabbedContent(id="sp-inputs"):
                with TabPane("data", id="sp-tab-data"):
                    yield JsonEditor("data", {}, check=_object_check("data"), id="sp-data")
                with TabPane("context", id="sp-tab-context"):
                    yield JsonEditor("context", {}, check=_object_check("context"), id="sp-context")
                    with Horizontal(classes="sp-context-bar"):
                        yield Button("reset", compact=True, id="sp-reset-context")
                        yield Static("", id="sp-context-note")
                with TabPane("payload", id="sp-tab-payload"):
                    yield JsonEditor("payload", {}, id="sp-payload")
                with TabPane("stepResult", id="sp-tab-stepResult"):
                    yield JsonEditor("stepResult", {}, id="sp-stepResult")
                with TabPane("flowContext", id="sp-tab-flowContext"):
                    yield JsonEditor(
                        "flowContext", {}, check=_object_check("flowContext"), id="sp-flowContext"
                    )
                with TabPane("tools", id="sp-tab-tools"):
                    yield JsonEditor(
                        "tools called", [], empty=[], check=_tools_check, id="sp-tools"
                    )
        with Horizontal(id="sp-scenario-row"):
            # the instant new Date()/Date.now() read (saved with the scenario); empty: the
            # current time, which the result then states
            yield OrderedInput(
                placeholder="now: current time",
                compact=True,
                id="sp-clock",
                tooltip="the instant new Date(), Date.now() and Date() read, as ISO 8601 "
                "(2026-12-01T09:00:00Z); empty: the current time",
            )
            yield OrderedInput(placeholder="scenario name", compact=True, id="sp-scenario-name")
            yield Button("save", compact=True, id="sp-save")
            yield Select([], prompt="load scenario…", compact=True, id="sp-load")
            yield Static("", id="sp-scenario-status")

    def on_mount(self) -> None:
        self._show_scope_tabs()
        self._refresh_context_note()
        if self.session is not None:
            self._apply_workspace(first=True)

    # --- app hooks -----------------------------------------------------------------------

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
        """The app (re)loaded: new resolved context, same edits on top, then re-evaluate."""
        switched = workflow != self.workflow
        self.session, self.workflow, self.matrix = session, workflow, matrix
        self.env_overrides, self.launch = dict(env_overrides), dict(launch)
        if switched:
            # another workflow has other variables: edits to this one's context do not carry
            self.scenario = replace(self.scenario, context_overrides={}, context_removed=())
        if self.is_mounted:
            self._apply_workspace(first=switched)

    def _apply_workspace(self, *, first: bool) -> None:
        assert self.matrix is not None
        self._resolved = dict(self.matrix.values)
        self._secret = secret_names(self.matrix)
        effective = apply_overrides(
            self._resolved, self.scenario.context_overrides, self.scenario.context_removed
        )
        self._show_context(effective, force=first)
        self._refresh_scenario_list()
        self._refresh_context_note()
        self._changed()

    def watch_reveal(self, reveal: bool) -> None:
        if not self.is_mounted:
            return
        self._show_context(self._ctx_effective, force=False)
        self._changed()  # the explain is masked by the evaluator: evaluate again

    # --- the context overlay -------------------------------------------------------------

    @property
    def context_editor(self) -> JsonEditor:
        return self.query_one("#sp-context", JsonEditor)

    def _show_context(self, effective: dict[str, Any], *, force: bool) -> None:
        """Show ``effective`` in the context editor (masked unless reveal) and use it."""
        shown = context_display(effective, self._secret, reveal=self.reveal)
        editor = self.context_editor
        if (editor.problem is not None or editor.pending) and not force:
            # the user is mid-edit: keep their text, and read it against the new real values
            self._ctx_real = dict(effective)
            self._ctx_effective = effective
            return
        self._ctx_shown, self._ctx_real, self._ctx_effective = shown, dict(effective), effective
        editor.set_value(shown)

    def _context_edited(self, edited: dict[str, Any]) -> None:
        effective = restore_context(edited, self._ctx_shown, self._ctx_real)
        self._ctx_effective = effective
        overrides, removed = diff_context(effective, self._resolved)
        self.scenario = replace(self.scenario, context_overrides=overrides, context_removed=removed)
        self._refresh_context_note()

    def action_reset_context(self) -> None:
        """Back to the workflow's resolved variables (the user's context edits dropped)."""
        self.scenario = replace(self.scenario, context_overrides={}, context_removed=())
        self._show_context(dict(self._resolved), force=True)
        self._refresh_context_note()
        self._changed()

    def _refresh_context_note(self) -> None:
        n = len(self.scenario.context_overrides) + len(self.scenario.context_removed)
        if n:
            note = f"{n} edit{'s' if n != 1 else ''} on top of the resolved variables"
        else:
            note = "the resolved variables; edit on top, *** keeps the real value"
        self.query_one("#sp-context-note", Static).update(note)

    # --- inputs changed ------------------------------------------------------------------

    @on(JsonEditor.Parsed)
    def _editor_parsed(self, event: JsonEditor.Parsed) -> None:
        event.stop()
        editor_id = event.editor.id
        value = event.value
        if editor_id == "sp-context":
            if event.problem is None:
                self._context_edited(value)
        elif editor_id == "sp-data":
            self.scenario = replace(self.scenario, data=value)
        elif editor_id == "sp-payload":
            self.scenario = replace(self.scenario, payload=value)
        elif editor_id == "sp-stepResult":
            self.scenario = replace(self.scenario, step_result=value)
        elif editor_id == "sp-flowContext":
            self.scenario = replace(self.scenario, flow_context=value)
        elif editor_id == "sp-tools":
            self.scenario = replace(self.scenario, tools_called=tuple(value))
        self._changed()

    @on(Select.Changed, "#sp-dialect")
    def _dialect_changed(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, str) and event.value != self.dialect:
            self.dialect = event.value
            self.scenario = replace(self.scenario, dialect=event.value)
            self._show_completions()
            self._changed()

    def watch_dialect(self, dialect: str) -> None:
        if self.is_mounted:
            self._show_scope_tabs()

    def _show_scope_tabs(self) -> None:
        """Only the inputs the dialect's conditions can read: MemberJunction's path context
        (data, payload, stepResult, flowContext, context; the python dialect reads the same
        names) or, for ag2 and mozaiks, the context variables alone. The tools called stay:
        the routes view routes on them whatever the dialect."""
        tabs = self.query_one("#sp-inputs", TabbedContent)
        shown = PATH_TABS if self.dialect in PATH_DIALECTS else CONTEXT_TABS
        for tab in PATH_TABS:
            if tab in shown:
                tabs.show_tab(f"sp-tab-{tab}")
            else:
                tabs.hide_tab(f"sp-tab-{tab}")
        if (tabs.active or "").removeprefix("sp-tab-") not in shown:
            tabs.active = "sp-tab-context"

    @on(Input.Changed, "#sp-expr")
    def _expression_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.scenario = replace(self.scenario, expression=event.value)
        self._show_completions()
        self._changed()

    @on(Input.Changed, "#sp-clock")
    def _clock_changed(self, event: Input.Changed) -> None:
        event.stop()
        field = self.query_one("#sp-clock", Input)
        text = event.value.strip()
        problem = self._clock_problem(text)
        field.set_class(problem is not None, "-invalid")
        field.tooltip = problem or (
            "the instant new Date(), Date.now() and Date() read, as ISO 8601 "
            "(2026-12-01T09:00:00Z); empty: the current time"
        )
        if problem is None and text != self.scenario.now:
            self.scenario = replace(self.scenario, now=text)
            self._changed()

    @staticmethod
    def _clock_problem(text: str) -> str | None:
        if not text:
            return None
        try:
            parse_now(text)
        except ClockError as exc:
            return str(exc)
        return None

    def _pinned_clock(self) -> Clock | None:
        return parse_now(self.scenario.now) if self.scenario.now else None

    @on(Input.Submitted, "#sp-expr")
    def _expression_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._remember()

    @on(Input.Blurred, "#sp-expr")
    def _expression_blurred(self, event: Input.Blurred) -> None:
        # leaving the input counts as having tried the expression, if it evaluated
        if self.result is not None and self.result.success:
            self._remember()

    def _remember(self) -> None:
        self.scenario = replace(
            self.scenario, history=remember(self.scenario.history, self.scenario.expression)
        )
        self.history_index = None

    @on(ExpressionInput.HistoryRequested)
    def _history(self, event: ExpressionInput.HistoryRequested) -> None:
        event.stop()
        self.history_step(event.step)

    def history_step(self, step: int) -> None:
        """Recall the previous (``-1``) or next (``1``) tried expression."""
        history = self.scenario.history
        if not history:
            return
        if self.history_index is None:
            if step > 0:
                return
            # what was typed is not lost by looking back (read from the input: its Changed
            # message may not have reached the scratchpad yet)
            self.scenario = replace(self.scenario, expression=self.expression_input.value)
            self._remember()
            history = self.scenario.history
            index = len(history) - 1
            if history[index] == self.expression_input.value and index > 0:
                index -= 1
        else:
            index = self.history_index + step
        if index >= len(history):
            self.history_index = None
            return
        index = max(index, 0)
        self.history_index = index
        self._set_expression(history[index])

    @on(ExpressionInput.CompleteRequested)
    def _complete(self, event: ExpressionInput.CompleteRequested) -> None:
        event.stop()
        self.complete_in(event.input)

    def complete_in(self, field: Input) -> None:
        """Accept the first completion at the cursor. With none, the focus stays in the
        condition and nothing is typed: a tab that moved on made the next letters shortcuts
        (an ``l`` opened the Launch dialog), and a tab character means nothing in a one-line
        condition; esc leaves it."""
        found = completions(
            field.value,
            field.cursor_position,
            self.completion_scope(),
            self.dialect,
            self.completion_secrets(),
        )
        text, cursor = field.value, field.cursor_position
        if found.candidates:
            text, cursor = apply_completion(field.value, found, found.candidates[0])
        if (text, cursor) == (field.value, field.cursor_position):
            self.query_one("#sp-completions", Static).update(
                Text.assemble(
                    ("tab ", "bold"),
                    ("nothing to complete here · esc leaves the condition", "dim"),
                )
            )
            return
        field.value = text
        field.cursor_position = cursor

    def action_focus_expression(self) -> None:
        self.expression_input.focus()

    @property
    def expression_input(self) -> ExpressionInput:
        return self.query_one("#sp-expr", ExpressionInput)

    def _set_expression(self, text: str) -> None:
        field = self.expression_input
        field.value = text
        field.cursor_position = len(text)

    # --- completion ----------------------------------------------------------------------

    def completion_scope(self) -> dict[str, Any]:
        """The names an expression can read in the current dialect (keys only are offered)."""
        if self.dialect in ("ag2", "mozaiks"):
            return dict(self._ctx_effective)
        return self._path_scope()

    def completion_secrets(self) -> tuple[str, ...]:
        """The secret paths whose keys completion never offers (unless revealed)."""
        return () if self.reveal else tuple(self._secret_roots(self.dialect))

    def _path_scope(self) -> dict[str, Any]:
        s = self.scenario
        return build_path_context(
            payload=s.payload,
            step_result=s.step_result,
            flow_context=s.flow_context,
            data=s.data,
            context=self._ctx_effective,
        )

    def _show_completions(self) -> None:
        field = self.expression_input
        found = completions(
            field.value,
            field.cursor_position,
            self.completion_scope(),
            self.dialect,
            self.completion_secrets(),
        )
        line = Text()
        if found.candidates:
            line.append("tab ", style="bold")
            for n, candidate in enumerate(found.candidates[:8]):
                line.append(("  " if n else "") + candidate, style="" if n else "bold")
            if len(found.candidates) > 8:
                line.append(f"  (+{len(found.candidates) - 8})", style="dim")
        self.query_one("#sp-completions", Static).update(line)

    # --- evaluation ----------------------------------------------------------------------

    def _changed(self) -> None:
        """Any input changed: evaluate soon (the older evaluation is stopped now), and share
        the scenario."""
        self._run.changed()
        self._share()

    def _start_evaluation(self) -> None:
        text, dialect = self.scenario.expression, self.dialect
        if not text.strip():
            self._run.show_now((text, None))
            return
        scope = self.completion_scope()
        roots = self._secret_roots(dialect)
        # The evaluator checks the stop flag as it charges its work budget, so a stopped
        # evaluation ends instead of running on unseen.
        work = partial(
            evaluate,
            text,
            scope,
            dialect,
            explain=True,
            secret_roots=roots,
            reveal_secrets=self.reveal,
            now=self._pinned_clock(),
        )
        self._run.run(lambda cancel: (text, work(cancel=cancel)))

    def _finish(self, done: tuple[str, EvalResult | None]) -> None:
        text, result = done
        self.result, self._result_text = result, text
        self._render_result()
        if self._history_timer is not None:
            self._history_timer.stop()
        # a condition with a verdict counts as tried once it has been on screen a moment
        # (Enter is not needed for "previous one tried"; Enter records any, errors too)
        if result is not None and result.success:
            self._history_timer = self.set_timer(HISTORY_AFTER, partial(self._tried, text))

    def _tried(self, text: str) -> None:
        self._history_timer = None
        if text != self.scenario.expression or text.strip() in self.scenario.history:
            return  # typed on since, or already there (a recalled one keeps its place)
        self._remember()

    def _show_busy(self) -> None:
        self._render_result(Text.assemble(("evaluating…", "dim italic")))

    def _give_up(self, seconds: float) -> None:
        """The deadline passed: the evaluation was stopped; keep the typed text and the last
        result."""
        earlier = " (the result shown is for the last condition that finished)"
        self._render_result(
            Text.assemble(
                (f"gave up after {seconds:g} s: ", "bold yellow"),
                (
                    "the condition did not finish in time and was stopped"
                    + (earlier if self.result is not None else ""),
                    "yellow",
                ),
            )
        )

    @property
    def pending(self) -> bool:
        """True until the current inputs have been evaluated and shown (and JSON parsed)."""
        editors = self.query(JsonEditor)
        return self._run.pending or any(e.pending for e in editors)

    def _secret_roots(self, dialect: str) -> dict[str, str]:
        """Where the explain masks values (unless reveal), each path with its reason.

        Per value, never the whole context for one secret in it: the secret variables (by
        name or by a secret-sourced env var), read by name in ag2 and under ``context`` in
        mj and python; an expression that reads all of ``context`` (``JSON.stringify``) holds
        them, so it is masked too. Secret-looking keys are masked wherever they are.
        """
        return (
            secret_reasons(
                self.matrix, None if dialect == "ag2" or dialect == "mozaiks" else "context"
            )
            if (self.matrix is not None)
            else {}
        )

    def _render_result(self, note: Text | None = None) -> None:
        """The last result that finished, and ``note`` under it (evaluating, gave up)."""
        box = self.query_one("#sp-result", Static)
        tree = self.query_one("#sp-explain", ExplainTree)
        result = self.result
        text = self._result_text
        if result is None or not text.strip():
            box.tooltip = None
            if note is not None:
                box.update(note)
                return
            box.update(Text.assemble(("type a condition", "dim")))
            tree.show(None, empty="the explain shows here")
            return
        # the time goes in the tooltip: it changes on every run, the verdict does not
        box.tooltip = f"evaluated in {result.elapsed_ms:.2f} ms ({self.dialect})"
        if result.success:
            if result.value:
                line = Text.assemble(("✔ true", "bold green"))
            else:
                line = Text.assemble(("✘ false", "bold red"))
        else:
            error = result.error
            message = mask_text(error.message) if error is not None else "error"
            line = Text.assemble(("error: ", "bold red"), (message, "red"))
            if error is not None and error.start is not None:
                width = max(self.size.width - 2, 20)
                shown, marker = caret_lines(text, error.start, error.end, width)
                line.append("\n" + shown)
                line.append("\n" + marker, style="bold red")
        if result.clock:
            pinned = " (current time)" if not self.scenario.now else ""
            line.append(f"\ndepends on the time: evaluated at {result.clock}{pinned}", "dim")
        if note is not None:
            # the last verdict stays, and its tree is left as it is (rebuilding it would lose
            # the user's place in it for nothing new)
            box.update(Text.assemble(line, "\n", note))
            return
        box.update(line)
        tree.show(result.explain, empty="no explain (the expression did not parse)")

    # --- sharing with the routes view ----------------------------------------------------

    def _share(self) -> None:
        s = self.scenario
        key = (s.data, s.context_overrides, s.payload, s.step_result, s.flow_context)
        shared = (*key, s.tools_called, s.context_removed)
        # identity, not equality: editors make new values only when their text parses, and a
        # deep comparison of a multi-megabyte document on every keystroke would be felt
        if self._shared is not None and all(
            a is b for a, b in zip(shared, self._shared, strict=True)
        ):
            return
        self._shared = shared
        self.post_message(ScenarioChanged(s))

    # --- scenarios -----------------------------------------------------------------------

    def _refresh_scenario_list(self) -> None:
        select = self.query_one("#sp-load", Select)
        session, workflow = self.session, self.workflow
        names: list[str] = []
        if session is not None and workflow is not None:  # _can_save
            names = list_scenarios(session.root, workflow)
        select.set_options([(n, n) for n in names])

    @property
    def session_root(self) -> Path | None:
        return self.session.root if self.session is not None else None

    def _can_save(self) -> bool:
        return self.session is not None and self.workflow is not None

    def _status(self, message: str, error: bool = False) -> None:
        status = self.query_one("#sp-scenario-status", Static)
        status.update(Text.assemble((message, "bold red" if error else "")))
        if status.size.width - 1 < len(message):
            # no room beside the scenario fields (80 columns leave none): a toast, which wraps,
            # rather than a message nobody sees or one cut mid-word
            self.app.notify(message, severity="error" if error else "information", markup=False)

    def action_save_scenario(self) -> None:
        if not self._can_save():
            self._status("no workspace loaded", error=True)
            return
        assert self.session is not None and self.workflow is not None
        name = self.query_one("#sp-scenario-name", Input).value.strip()
        problem = check_name(name)
        if problem:
            self._status(problem, error=True)
            self.query_one("#sp-scenario-name", Input).focus()
            return
        self._remember()
        scenario = replace(
            self.scenario,
            dialect=self.dialect,
            env_overrides=dict(self.env_overrides),
            launch=dict(self.launch),
        )
        guard = secret_guard(self.matrix, self.session.effective_env(self.env_overrides))
        workflow = self.workflow

        def save_in(root: Path) -> None:
            try:
                path = save_scenario(root, workflow, name, scenario, guard)
            except (ScenarioError, OSError) as exc:
                self._status(f"not saved: {mask_text(str(exc))}", error=True)
                return
            # saved in the demo's copy: where, in full
            shown = path.relative_to(root).as_posix() if root == self.session_root else path
            self._status(f"saved {shown} (secrets masked)")
            self._refresh_scenario_list()

        from flowctx_tui.screens.copy_demo import writable_root

        writable_root(self.app, self.session.root, "saves the scenario", save_in)

    def action_save_as_test(self) -> None:
        """The condition on screen and its verdict, under the current inputs, as a test case."""
        result = self.result
        expression = self.expression_input.value.strip()
        if not self._can_save() or result is None or not expression:
            self._status("nothing evaluated yet: type a condition first", error=True)
            return
        assert self.session is not None and self.workflow is not None
        from flowctx_core.testing.save import condition_case
        from flowctx_tui.screens.save_test import SaveTestScreen

        case = condition_case(
            self.scenario,
            expression,
            self.dialect,
            result.value if result.success else None,
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

    @on(Button.Pressed, "#sp-save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_save_scenario()

    @on(Input.Submitted, "#sp-scenario-name")
    def _name_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save_scenario()

    @on(Button.Pressed, "#sp-reset-context")
    def _reset_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_reset_context()

    @on(Select.Changed, "#sp-load")
    def _load_selected(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, str):
            self.load_scenario(event.value)

    def load_scenario(self, name: str) -> bool:
        """Load a saved scenario into every input; problems are shown with file:line:col."""
        if not self._can_save():
            return False
        assert self.session is not None and self.workflow is not None
        loaded, problems = load_scenario(self.session.root, self.workflow, name)
        if problems:
            self._status("; ".join(p.format() for p in problems), error=loaded is None)
        if loaded is None:
            return False
        self.scenario = loaded
        self.history_index = None
        self.query_one("#sp-scenario-name", Input).value = name
        editors = {
            "#sp-data": loaded.data,
            "#sp-payload": loaded.payload,
            "#sp-stepResult": loaded.step_result,
            "#sp-flowContext": loaded.flow_context,
            "#sp-tools": list(loaded.tools_called),
        }
        for selector, value in editors.items():
            self.query_one(selector, JsonEditor).set_value(value)
        effective = apply_overrides(
            self._resolved, loaded.context_overrides, loaded.context_removed
        )
        # the file holds *** for secrets; in memory the overrides are the real values
        overrides, removed = diff_context(effective, self._resolved)
        self.scenario = replace(loaded, context_overrides=overrides, context_removed=removed)
        self._show_context(effective, force=True)
        self._refresh_context_note()
        if loaded.dialect != self.dialect:
            self.query_one("#sp-dialect", Select).value = loaded.dialect
            self.dialect = loaded.dialect
        self.query_one("#sp-clock", Input).value = loaded.now
        self._set_expression(loaded.expression)
        if not problems:
            self._status(f"loaded {name!r}")
        if loaded.env_overrides or loaded.launch:
            self.post_message(ScenarioLoaded(name, self.scenario))
        self._changed()
        return True
