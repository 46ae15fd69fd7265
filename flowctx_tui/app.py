"""The flowctx Textual app: the matrix, scratchpad, routes and routing graph of one workflow,
live.

The app owns the state the user creates (workflow, environment overrides, launch values,
reveal) and the background work: a watcher worker (watchfiles) that reports changed files,
and a thread worker that reloads and resolves, then posts the result. Widgets get results
pushed down to them and send intent up as messages; they never reach into each other.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.events import DescendantFocus
from textual.filter import LineFilter
from textual.keys import key_to_character
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState, get_current_worker

from flowctx_core.base.secrets import mask_text
from flowctx_core.check import count_problems
from flowctx_core.model.matrix import Matrix
from flowctx_core.session import Session
from flowctx_tui import loader
from flowctx_tui.cli.terminal import escape_controls
from flowctx_tui.escapes import ESCAPE_CONTROLS
from flowctx_tui.loader import LoadResult
from flowctx_tui.messages import (
    EnvOverrideRequested,
    FilesChanged,
    OpenWorkspace,
    ScenarioChanged,
    ScenarioLoaded,
    WorkspaceLoaded,
)
from flowctx_tui.watcher import WorkspaceFilter
from flowctx_tui.widgets.footer import AppFooter
from flowctx_tui.widgets.keys import KeyBuffer, KeysInOrderApp
from flowctx_tui.widgets.matrix import MatrixView
from flowctx_tui.widgets.status import Status, StatusLine

if TYPE_CHECKING:
    from textual.command import Provider

    from flowctx_core.model.scenarios import Scenario
    from flowctx_core.review.diff import Side, WorkflowDiff
    from flowctx_core.testing.coverage import Coverage
    from flowctx_tui.commands import PaletteCommand
    from flowctx_tui.screens.env_override import EnvEdit
    from flowctx_tui.screens.help import HelpEntry
    from flowctx_tui.widgets.changes import ChangesView
    from flowctx_tui.widgets.graph import GraphView
    from flowctx_tui.widgets.routes import RoutesView
    from flowctx_tui.widgets.scratchpad import Scratchpad
    from flowctx_tui.widgets.tests import TestsRan, TestsView

    View = Scratchpad | RoutesView | GraphView | TestsView

#: Terminal width from which the detail pane sits beside the table.
WIDE = 140
TABS = ("matrix", "scratchpad", "routes", "graph", "tests")
#: palette titles where the footer's short description is not what a user searches for
PALETTE_TITLES = {
    "app.help": "Keys and help: every key binding",
    "app.theme": "Theme: choose a colour theme",
}
#: binding id prefix of each dialog -> how help names it
DIALOGS = {
    "launch": "Launch values",
    "env": "Env override",
    "workflows": "Workflow list",
    "help": "Help",
    "compare": "Compare with",
    "save_test": "Save as test",
    "copy_demo": "Copy the demo",
}
#: binding id prefix of each view's own keys -> how help names the view they work in (the
#: same key does different things in different views: ctrl+r, ctrl+l)
VIEW_PLACES = {
    "matrix": "Matrix",
    "scratchpad": "Scratchpad",
    "json": "Scratchpad JSON",
    "routes": "Routes",
    "graph": "Graph",
    "tests": "Tests",
    "changes": "Changes",
}


class MainScreen(Screen[Any]):
    """The app's screen: its breakpoint class (-narrow / -wide) follows a resize before the
    layout, not after it.

    Textual lays a resized screen out first and sets the class after, so crossing WIDE
    painted a frame of the old layout squeezed into the new width (fragments of the detail
    pane where the table is) and laid everything out twice. Styles apply at once when a class
    changes, so setting it first gives one layout, at the new size, in the right shape."""

    async def _on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < WIDE
        # one frame for all of it: the layout in the new shape and the columns cut for it
        # (not after the table's own resize message has waited behind several frames)
        with self.app.batch_update():
            self.update_classes({"-narrow": narrow, "-wide": not narrow}, animate=False)
            await super()._on_resize(event)
            for view in self.query(MatrixView):
                view.refit()


def _scratchpad_class() -> type[Scratchpad]:
    # imported when its tab is first shown, so the matrix fills sooner
    from flowctx_tui.widgets.scratchpad import Scratchpad

    return Scratchpad


def _routes_class() -> type[RoutesView]:
    from flowctx_tui.widgets.routes import RoutesView

    return RoutesView


def _graph_class() -> type[GraphView]:
    from flowctx_tui.widgets.graph import GraphView

    return GraphView


def _tests_class() -> type[TestsView]:
    from flowctx_tui.widgets.tests import TestsView

    return TestsView


#: the tabs mounted on first show: the id of their widget, and the class that provides it
VIEWS: dict[str, tuple[str, Callable[[], type[View]]]] = {
    "scratchpad": ("scratchpad-view", _scratchpad_class),
    "routes": ("routes-view", _routes_class),
    "graph": ("graph-view", _graph_class),
    "tests": ("tests-view", _tests_class),
}


def _palette_provider() -> type[Provider]:
    # textual.command is imported when the palette first opens, not at start-up
    from flowctx_tui.commands import FlowctxCommands

    return FlowctxCommands


class FlowctxApp(KeysInOrderApp, App[int]):
    """``FlowctxApp(session, workflow)``; ``watch=False`` for tests that drive reloads."""

    CSS_PATH = "app.tcss"
    AUTO_FOCUS = "#matrix-table"
    TITLE = "flowctx"
    COMMANDS: ClassVar[set[Any]] = {_palette_provider}
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
        # the tab titles show the first key, so the footer need not; the function keys also
        # work while typing in a text field (where digits are text)
        Binding("1,f2", "show_tab('matrix')", "Matrix", show=False, id="app.tab.matrix"),
        Binding(
            "2,f3", "show_tab('scratchpad')", "Scratchpad", show=False, id="app.tab.scratchpad"
        ),
        Binding("3,f4", "show_tab('routes')", "Routes", show=False, id="app.tab.routes"),
        Binding("4,f6", "show_tab('graph')", "Graph", show=False, id="app.tab.graph"),
        Binding("5,f9", "show_tab('tests')", "Tests", show=False, id="app.tab.tests"),
        # review mode only: the tab exists while comparing with a base (flowctx --base REV);
        # last, so the tab bar reads 1 to 5 (6) without a gap whether it is there or not
        Binding("6,f7", "show_tab('changes')", "Changes", show=False, id="app.tab.changes"),
        Binding("w", "pick_workflow", "Workflow", id="app.workflow"),
        Binding("r", "toggle_reveal", "Reveal", id="app.reveal"),
        Binding("l", "edit_launch", "Launch", id="app.launch"),
        Binding("f5", "reload", "Reload", show=False, id="app.reload"),
        Binding("ctrl+t", "pick_theme", "Theme", show=False, id="app.theme"),
        Binding("f8", "screenshot_svg", "Screenshot", show=False, id="app.screenshot"),
        Binding("f1,question_mark", "help", "Help", id="app.help"),
    ]

    #: secrets shown unmasked on the current view (reset when the view or workflow changes)
    reveal: reactive[bool] = reactive(False, init=False)

    def get_line_filters(self) -> Sequence[LineFilter]:
        # every line drawn, by any widget, passes the control-character escape last
        return [*super().get_line_filters(), ESCAPE_CONTROLS]

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        # notifications quote names from the workspace: escaped as the CLI escapes them
        super().notify(
            escape_controls(message),
            title=escape_controls(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def __init__(
        self,
        session: Session,
        workflow: str,
        *,
        keymap: Mapping[str, str] | None = None,
        watch: bool = True,
        clock: Callable[[], datetime] | None = None,
        screenshot_dir: Path | None = None,
        cursor_blink: bool = True,
        initial: LoadResult | None = None,
        base: Side | None = None,
        env_overrides: Mapping[str, str] | None = None,
        launch: Mapping[str, Any] | None = None,
        theme: str | None = None,
        remember_theme: Callable[[str], object] | None = None,
    ) -> None:
        """``initial``: a load of ``workflow`` already made (by ``flowctx`` before the app
        starts), so the first frame shows the matrix; without it the app loads on mount.
        ``base``: review mode from the start (``flowctx --base REV``): every load is compared
        with it. ``theme``: the theme to start in (the user's settings); ``remember_theme``:
        called with a theme the user picks, to keep it for the next run."""
        super().__init__()
        # set here, not as a class attribute: App declares it as an optional list, which a
        # ClassVar may not override; screens read it on their first resize, after this
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide")]
        self.session = session
        self._initial = initial if initial is not None and initial.workflow == workflow else None
        self.workflow = workflow
        self.workflows: tuple[str, ...] = tuple(session.workflows())
        self.watching = watch
        self.clock = clock or datetime.now
        self.screenshot_dir = screenshot_dir
        self.cursor_blink = cursor_blink
        #: the environment overrides and launch values (runtime context under
        #: ``$runtime_context``) every resolution uses: from the command line at first
        self.env_overrides: dict[str, str] = dict(env_overrides or {})
        self.launch: dict[str, Any] = dict(launch or {})
        #: "loading" | "live" | "stale" | "error"
        self.state = "loading"
        self.last_reload: datetime | None = None
        self.result: LoadResult | None = None  # the newest reload, good or broken
        self.good: LoadResult | None = None  # the last good one, what the views show
        self._generation = 0
        self._applied = 0
        self._resolving = False
        self._reload_pending = False
        self._changed: set[Path] = set()
        self._filter = WorkspaceFilter(session.root)
        self._watch_stop: asyncio.Event | None = None
        self._watched_paths: tuple[Path, ...] = ()
        #: launch notes already notified (each is said once, not on every reload)
        self._launch_notified: frozenset[str] = frozenset()
        #: the scratchpad and routes views, once mounted (by tab)
        self.views: dict[str, View] = {}
        #: what the Tests tab measured last (None until it has run)
        self.coverage: Coverage | None = None
        self._tests_started = False
        #: the scratchpad's scenario, which the routes view routes under
        self.scenario: Scenario | None = None
        #: review mode: the fixed side every load is compared with, and the newest comparison
        self.base: Side | None = base
        self.comparison: WorkflowDiff | None = None
        self._compare_generation = 0
        if keymap:
            self.set_keymap(dict(keymap))
        self._start_theme = theme
        self._remember_theme = remember_theme

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # the screen gets its breakpoint class on its first Resize, after the first layout:
        # set before its widgets are mounted (and styled), the first frame is laid out once
        # in its real shape, instead of every visible row of the table being rendered for
        # the wide one and then again
        wide = self.size.width >= WIDE
        self.screen.set_class(wide, "-wide").set_class(not wide, "-narrow")
        with TabbedContent(id="tabs", initial="matrix"):
            with TabPane(self._tab_title("matrix", "Matrix"), id="matrix"):
                yield MatrixView(id="matrix-view")
            for tab, title in (
                ("scratchpad", "Scratchpad"),
                ("routes", "Routes"),
                ("graph", "Graph"),
                ("tests", "Tests"),
            ):
                # mounted the first time its tab is shown, so the matrix fills sooner
                with TabPane(self._tab_title(tab, title), id=tab):
                    # keeps what is typed while the view mounts (see mount_view)
                    yield KeyBuffer(f"The {title.lower()} view is loading…", classes="view-loading")
        yield StatusLine(id="status")
        yield AppFooter(self.typing_tab_keys)

    def typing_tab_keys(self) -> tuple[str, str] | None:
        """The keys that switch tabs while typing in a text field (where digits are text):
        each shown tab's keys that are not a printable character, as the footer shows them
        (``("f2", "f2/f3/f4/f6/f9")``), or None when a key map left none."""
        panes = {pane.id for pane in self.query_one("#tabs", TabbedContent).query(TabPane)}
        keys: list[str] = []
        for binding in _bindings_of(type(self)):
            tab = (binding.id or "").removeprefix("app.tab.")
            if not binding.id or tab == binding.id or tab not in panes:
                continue
            typed = self._keymap.get(binding.id, binding.key).split(",")
            keys += [k.strip() for k in typed if key_to_character(k.strip()) is None]
        if not keys:
            return None
        shown = "/".join(self.get_key_display(Binding(k, "")) for k in keys)
        return keys[0], shown

    def _tab_title(self, tab: str, title: str) -> str:
        binding = next(b for b in _bindings_of(type(self)) if b.id == f"app.tab.{tab}")
        return f"{self._keys_for(binding).split(',')[0]} {title}"

    def on_mount(self) -> None:
        from textual.scrollbar import ScrollBar

        from flowctx_tui.widgets.scrollbars import ThinScrollBarRender

        # a line, not a block, under the table (see the module); put back on unmount
        self._scrollbar_renderer = ScrollBar.renderer
        ScrollBar.renderer = ThinScrollBarRender
        if self._start_theme and self._start_theme in self.available_themes:
            self.theme = self._start_theme
        elif self._start_theme:
            self.notify(f"theme '{self._start_theme}' (your settings) is not one of the app's")
        if self._remember_theme is not None:
            # subscribed after the starting theme is set: only the user's own choice is kept
            self.theme_changed_signal.subscribe(self, self._keep_theme)
        self._update_status()
        self.query_one("#matrix-table").focus()
        # the watcher starts once the first result is on screen (see _track): watchfiles'
        # import and thread are not on the way to the first matrix
        if self.base is not None:
            self.call_later(self._open_changes_tab)
        if self._initial is not None:
            initial, self._initial = self._initial, None
            self._apply(initial)
        else:
            self.reload()

    def _freeze_start_up_heap(self) -> None:
        """Leave what start-up built (modules, Textual's styles and widgets, the first
        matrix) out of the collector's full passes: with a few thousand rows each pass walked
        every one of those objects, 100 ms or more, every few filter keystrokes. They are
        still freed by reference counting; unfrozen when the app ends."""
        gc.freeze()

    def on_unmount(self) -> None:
        from textual.scrollbar import ScrollBar

        gc.unfreeze()

        ScrollBar.renderer = getattr(self, "_scrollbar_renderer", ScrollBar.renderer)
        if self._watch_stop is not None:
            self._watch_stop.set()

    def get_default_screen(self) -> Screen[Any]:
        return MainScreen(id="_default")

    @on(DescendantFocus)
    def _no_blink(self, event: DescendantFocus) -> None:
        # snapshots need a still cursor: every text widget gets the app's blink setting
        widget = event.widget
        if not self.cursor_blink and hasattr(widget, "cursor_blink"):
            widget.cursor_blink = False  # type: ignore[attr-defined]

    # -- state ---------------------------------------------------------------------------------

    @property
    def matrix_view(self) -> MatrixView:
        return self.query_one("#matrix-view", MatrixView)

    def _views(self) -> list[View]:
        return list(self.views.values())

    def _update_status(self) -> None:
        count = count_problems(self.result.problems if self.result else ())
        label = workspace_label(self.session.root)
        # the SVG screenshots' title, and the page's under flowctx serve
        self.sub_title = escape_controls(f"{self.workflow} · {label}")
        self.query_one(StatusLine).show(
            Status(
                workspace=label,
                workflow=self.workflow,
                state=self.state,
                reloaded=self.last_reload,
                errors=count.errors,
                warnings=count.warnings,
                ignored=len(self.result.ignored) if self.result else 0,
                watching=self.watching,
                revealed=self.reveal,
                overrides=len(self.env_overrides) + len(self.launch),
                runtime=self.session.runtime.name,
                refused=self._refused_stage(),
                review=self.base.label if self.base is not None else "",
                changes=self._change_count(),
            )
        )

    def _refused_stage(self) -> str:
        """The stage of the runtime's start-up that refuses the workflow, "" when none does."""
        refusal = self.result.matrix.refused if self.result else None
        return refusal.stage_name if refusal is not None else ""

    def _change_count(self) -> int | None:
        """What review mode found: changed variables, routes and problems (the Changes tab's
        count), or None before the first comparison lands."""
        diff = self.comparison
        if diff is None:
            return None
        count = len(diff.variables) + len(diff.routes)
        return count + len(diff.problems_added) + len(diff.problems_removed)

    # -- reloading -----------------------------------------------------------------------------

    def reload(self, changed: Iterable[Path] = ()) -> None:
        """Reload the workspace and resolve the workflow off the UI thread.

        One resolution runs at a time; requests made meanwhile collapse into one more run when
        it finishes. So a storm of saves still shows a result every resolution, instead of
        each save cancelling the one before and nothing ever reaching the screen.
        """
        self._changed.update(changed)
        self._generation += 1
        if self._resolving:
            self._reload_pending = True
        else:
            self._start_resolve()

    def _start_resolve(self) -> None:
        self._resolving, self._reload_pending = True, False
        self._resolve(
            self.session,
            self._generation,
            self.workflow,
            dict(self.env_overrides),
            dict(self.launch),
            frozenset(self._changed),
        )

    def _resolve_done(self) -> None:
        self._resolving = False
        if self._reload_pending:
            self._start_resolve()

    @work(thread=True, group="resolve", exit_on_error=False)
    def _resolve(
        self,
        session: Session,
        generation: int,
        workflow: str,
        env_overrides: dict[str, str],
        launch: dict[str, Any],
        changed: frozenset[Path],
    ) -> None:
        worker = get_current_worker()
        try:
            result = loader.load(session, workflow, env_overrides, launch, changed)
        except Exception as exc:  # a bug must not take the app down: show it as a problem
            result = loader.failed(workflow, self.workflows, session.root, exc)
        if not worker.is_cancelled:
            self.post_message(WorkspaceLoaded(generation, result, changed))

    @on(WorkspaceLoaded)
    def _loaded(self, message: WorkspaceLoaded) -> None:
        self._changed -= message.changed
        try:
            if message.generation < self._applied or message.result.workflow != self.workflow:
                return  # made for a workflow no longer shown: the pending run follows
            self._applied = message.generation
            self._apply(message.result)
        finally:
            self._resolve_done()

    def _apply(self, result: LoadResult) -> None:
        if result.session is not None:
            # the worker never changes a session: a reload that read flowctx.yaml or the
            # seeds again made a new one, swapped in here on the UI thread
            self.session = result.session
        self.result = result
        self.workflows = result.workflows
        self._track(result)
        previous = self.good
        if not result.broken:
            self.good, self.state = result, "live"
        elif previous is not None and previous.workflow == result.workflow:
            self.state = "stale"  # keep showing the last good result, marked
        else:
            self.good, self.state = None, "error"
        shown = self.good or result
        self.last_reload = self.clock()
        # nothing good yet: an empty table under the banner, not rows resolved from a
        # broken profile (values the author never meant)
        matrix = (
            shown.matrix
            if self.state != "error"
            else Matrix(shown.matrix.workspace, shown.matrix.workflow, ())
        )
        self.matrix_view.show_matrix(
            matrix,
            stale=self.state == "stale",
            broken=result.broken,
            problems=result.problems,
            contract_lines=shown.contract_lines,
            contract_file=shown.contract_file,
        )
        if shown is not previous:
            self._push_workspace(shown)
        if self.good is not None and not self._tests_started:
            self._tests_started = True
            self.call_after_refresh(self._start_tests)
            self.call_after_refresh(self._freeze_start_up_heap)
        self._notify_launch(result)
        self._update_status()
        self._review(result)

    def _notify_launch(self, result: LoadResult) -> None:
        """Say once what the runtime does with the launch values given (drops, limits), as
        ``flowctx matrix`` prints it; the status line counts them as warnings."""
        dropped = tuple(d.message for d in result.matrix.launch_dropped)
        new = [m for m in dropped if m not in self._launch_notified]
        self._launch_notified = frozenset(dropped)
        if new:
            self.notify(
                mask_text("\n".join(new)), title="Launch values", severity="warning", timeout=8
            )

    def _push_workspace(self, shown: LoadResult, views: list[View] | None = None) -> None:
        for view in self._views() if views is None else views:
            try:
                view.update_workspace(
                    self.session,
                    self.workflow,
                    shown.matrix,
                    env_overrides=dict(self.env_overrides),
                    launch=dict(self.launch),
                    routes=shown.routes,
                )
            except Exception as exc:  # one view's bug must not blank the others
                message = mask_text(f"{view.id}: {type(exc).__name__}: {exc}")
                self.notify(message, severity="error")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state != WorkerState.ERROR:
            return
        if worker.group == "watch":
            self.watching = False
            self._update_status()
            self.notify(mask_text(f"Stopped watching files: {worker.error}"), severity="warning")
        elif worker.group == "resolve":
            self.notify(mask_text(f"Reload failed: {worker.error}"), severity="error")
            self._resolve_done()

    # -- watching ------------------------------------------------------------------------------

    def _track(self, result: LoadResult) -> None:
        """Watch the files the new result depends on (restarting if folders change)."""
        self._filter.extra = result.watched
        if not self.watching:
            return
        if self._watch_stop is None:
            self._watch_stop = asyncio.Event()  # claimed: start once, after the first paint
            self.call_after_refresh(self._start_watching)
        elif self._filter.watch_paths() != self._watched_paths:
            self._start_watching()

    def _start_watching(self) -> None:
        if self._watch_stop is not None:
            self._watch_stop.set()
        self._watch_stop = asyncio.Event()
        self._watched_paths = self._filter.watch_paths()
        self._watch(self._watch_stop)

    @work(exclusive=True, exit_on_error=False, group="watch")
    async def _watch(self, stop: asyncio.Event) -> None:
        from flowctx_tui.watcher import watch

        try:
            async for paths in watch(self._filter, stop):
                self._changed.update(paths)
                self.post_message(FilesChanged())
        finally:
            stop.set()

    @on(FilesChanged)
    def _files_changed(self, message: FilesChanged) -> None:
        self.reload()

    # -- actions -------------------------------------------------------------------------------

    def action_reload(self) -> None:
        self.reload()
        self.notify("Reloading", timeout=1)

    def action_show_tab(self, tab: str) -> None:
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.active == tab:
            return
        if tab == "changes" and not tabs.query(f"TabPane#{tab}"):
            self.notify("Not comparing: open the palette and choose 'Compare with a revision'")
            return
        # blur first: a focused widget in the pane being hidden would pull the tab back
        self.screen.set_focus(None)
        tabs.active = tab
        waiting = tabs.get_pane(tab).query(KeyBuffer)
        if waiting:
            # the view mounts on first show (up to a second on a loaded machine): what the
            # user types meanwhile waits in the placeholder, not lost on an unfocused screen
            self.screen.set_focus(waiting.first(), scroll_visible=False)
        self.call_after_refresh(self._focus_in, tab)

    def _focus_in(self, tab: str, now: bool = False) -> None:
        if tab == "matrix":
            self.query_one("#matrix-table").focus()
            return
        pane = self.query_one("#tabs", TabbedContent).get_pane(tab)
        focused = self.screen.focused
        if (
            focused is not None
            and not isinstance(focused, KeyBuffer)
            and pane in focused.ancestors_with_self
        ):
            # the focus already landed in the view (mount_view and the tab switch both ask):
            # the first landing stands, so where it lands does not depend on which ran first
            return
        focusable = [w for w in pane.query("*") if w.focusable]
        # typing is what the scratchpad is for: its first text input, else the first widget
        inputs = [w for w in focusable if isinstance(w, Input)]
        others = [w for w in focusable if not isinstance(w, KeyBuffer)]
        target = (inputs or others or focusable or [None])[0]
        if target is None or target is self.screen.focused:
            return
        if now:
            self.screen.set_focus(target)
        else:
            target.focus()

    @on(TabbedContent.TabActivated, "#tabs")
    async def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        self.reveal = False  # reveal is for the view it was asked on
        tab = event.pane.id or ""
        if tab in VIEWS:
            await self.mount_view(tab)

    async def mount_view(self, tab: str) -> View | None:
        """Mount the scratchpad or routes view into its tab (once) and give it the workspace.

        A view that fails to import or mount says so in its tab (and in a notification)
        instead of leaving "loading" there for good.
        """
        if tab in self.views:
            return self.views[tab]
        widget_id, view_class = VIEWS[tab]
        pane = self.query_one("#tabs", TabbedContent).get_pane(tab)
        try:
            view = view_class()(id=widget_id)
            await pane.mount(view)
        except Exception as exc:  # our own bug: show it where the view should be
            why = mask_text(f"The {tab} view failed to load: {type(exc).__name__}: {exc}")
            await pane.query(KeyBuffer).remove()
            await pane.mount(Static(why, classes="view-failed"))
            self.notify(why, severity="error")
            return None
        self.views[tab] = view
        buffers = list(pane.query(KeyBuffer))
        if self.good is not None:
            self._push_workspace(self.good, [view])
        # the routes and graph views route under the scratchpad's scenario; it may have
        # started first
        if tab in ("routes", "graph") and self.scenario is not None:
            self._share_scenario(self.scenario)
        if tab in ("routes", "graph") and self.coverage is not None:
            self._share_coverage()
        if isinstance(view, _routes_class()) and self.comparison and self.base is not None:
            view.set_route_changes(self.comparison.routes, self.base.label)
        view.reveal = self.reveal
        if self.query_one("#tabs", TabbedContent).active == tab:
            self._focus_in(tab, now=True)
            focused = self.screen.focused
            # the view's input (now focused) gets the kept keys before any typed later
            if focused is not None and view in focused.ancestors_with_self:
                for buffer in buffers:
                    buffer.hand_over(focused)
        if buffers:
            await pane.query(KeyBuffer).remove()
        return view

    def _start_tests(self) -> None:
        """Once the first matrix is on screen, run the workspace's tests in the background
        when it has test files: the routes and graph views mark untested rules from the
        start, not only after the Tests tab was opened."""
        from flowctx_core.testing.model import test_files

        if "tests" not in self.views and test_files(self.session.root):
            self.run_worker(self.mount_view("tests"), group="tests-mount", exit_on_error=False)

    def on_tests_ran(self, message: TestsRan) -> None:
        """The Tests tab ran the workspace's tests: the routes and graph views mark the rules
        no case takes."""
        self.coverage = message.outcome.coverage
        self._share_coverage()

    def _share_coverage(self) -> None:
        for tab in ("routes", "graph"):
            view = self.views.get(tab)
            if view is not None and hasattr(view, "set_coverage"):
                view.set_coverage(self.coverage)

    @on(ScenarioChanged)
    def _scenario_changed(self, message: ScenarioChanged) -> None:
        self.scenario = message.scenario
        self._share_scenario(message.scenario)

    def _share_scenario(self, scenario: Scenario) -> None:
        routes = self.views.get("routes")
        if routes is not None and isinstance(routes, _routes_class()):
            routes.set_scenario(scenario)
        graph = self.views.get("graph")
        if graph is not None and isinstance(graph, _graph_class()):
            graph.set_scenario(scenario)

    def watch_reveal(self, reveal: bool) -> None:
        self.matrix_view.set_reveal(reveal)
        for view in self._views():
            view.reveal = reveal
        changes = self._changes_view()
        if changes is not None:
            changes.set_reveal(reveal)
        self._update_status()

    def action_toggle_reveal(self) -> None:
        self.reveal = not self.reveal

    def action_pick_theme(self) -> None:
        # Textual's named themes, searchable; the choice is kept in the user's settings
        self.search_themes()

    def _keep_theme(self, theme: Any) -> None:
        if self._remember_theme is None:
            return
        try:
            self._remember_theme(theme.name)
        except OSError as exc:
            self.notify(f"the theme could not be saved: {exc.strerror or exc}", severity="warning")

    def action_pick_workflow(self) -> None:
        from flowctx_tui.screens.workflows import WorkflowPicker

        self.push_screen(WorkflowPicker(self.workflows, self.workflow), self._switch_to)

    def _switch_to(self, name: str | None) -> None:
        if name:
            self.switch_workflow(name)

    def switch_runtime(self, name: str) -> None:
        """Resolve and check against another runtime profile (kept for this session)."""
        # a new session (sessions never change): the reload below resolves with it
        self.session = self.session.with_runtime(name)
        self.notify(f"runtime: {self.session.runtime.label}")
        self._update_status()
        self.reload()

    @on(OpenWorkspace)
    def _open_workspace(self, message: OpenWorkspace) -> None:
        self.open_workspace(message.root)

    def open_workspace(self, root: Path) -> None:
        """Show the workspace at ``root`` instead (a copy of the demo the user just made), with
        the same process environment, runtime choice, workflow and overrides."""
        from flowctx_core.session import open_session

        old = self.session
        self.session = open_session(root, env=old.env, runtime=old.runtime_choice)
        self.workflows = tuple(self.session.workflows())
        self._filter = WorkspaceFilter(self.session.root)
        if self._watch_stop is not None:
            self._start_watching()
        self.good = None
        self.state = "loading"
        self._update_status()
        self.reload()

    def switch_workflow(self, name: str) -> None:
        if name == self.workflow:
            return
        self.workflow = name
        self.good = None
        self.state = "loading"
        self.reveal = False
        self._update_status()
        self.reload()

    @on(EnvOverrideRequested)
    def _env_requested(self, message: EnvOverrideRequested) -> None:
        from flowctx_tui.screens.env_override import EnvOverrideScreen

        row = message.row
        self.push_screen(
            EnvOverrideScreen(
                message.env_var,
                env=self.session.effective_env(self.env_overrides),
                overrides=self.env_overrides,
                profile=self.session.profile.env,
                process=self.session.env,
                reveal=self.reveal,
                variable=row.name if row else None,
            ),
            self._env_edited,
        )

    def _env_edited(self, edit: EnvEdit | None) -> None:
        if edit is None:
            return
        if edit.value is None:
            if self.env_overrides.pop(edit.name, None) is None:
                return
            self.notify(f"{edit.name}: override removed", markup=False)
        else:
            self.env_overrides[edit.name] = edit.value
            self.notify(f"{edit.name} overridden for this session", markup=False)
        self._update_status()
        self.reload()

    def set_env_override(self, name: str, value: str | None) -> None:
        """Set (or with None remove) an override and re-resolve; what the screen does."""
        if value is None:
            self.env_overrides.pop(name, None)
        else:
            self.env_overrides[name] = value
        self._update_status()
        self.reload()

    @on(ScenarioLoaded)
    def _scenario_loaded(self, message: ScenarioLoaded) -> None:
        """A saved scenario carries the environment overrides and launch values it was made
        with: resolve with them, as the scenario's author did."""
        scenario = message.scenario
        self.env_overrides = dict(scenario.env_overrides)
        self.launch = dict(scenario.launch)
        self.notify(
            f"Scenario {message.name!r}: {len(self.env_overrides)} env override(s) and "
            f"{len(self.launch)} launch value(s) applied"
        )
        self._update_status()
        self.reload()

    def action_edit_launch(self) -> None:
        from flowctx_tui.screens.launch import LaunchScreen

        self.push_screen(
            LaunchScreen(self.launch, self.session.profile.launch, reveal=self.reveal),
            self._launch_edited,
        )

    def _launch_edited(self, launch: dict[str, Any] | None) -> None:
        if launch is None or launch == self.launch:
            return
        self.launch = launch
        self._update_status()
        self.reload()

    def action_screenshot_svg(self) -> None:
        if self.reveal:
            # secrets never reach a file: mask, let the screen repaint, then capture
            self.reveal = False
            self.call_after_refresh(self._write_screenshot, True)
        else:
            self._write_screenshot(False)

    def _write_screenshot(self, restore_reveal: bool) -> None:
        from flowctx_tui.screenshot_dir import screenshot_dir

        # never the current directory: that is often the user's repository
        folder = screenshot_dir(self.session.env, self.screenshot_dir).absolute()
        stamp = self.clock().strftime("%Y%m%d-%H%M%S")
        name = f"flowctx-{self.workflow}-{stamp}.svg"
        n = 1
        while (folder / name).exists():  # two in one second: keep both
            n += 1
            name = f"flowctx-{self.workflow}-{stamp}-{n}.svg"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.save_screenshot(name, str(folder))
        except OSError as exc:
            self.notify(f"Screenshot not saved: {exc}", severity="error", markup=False)
        else:
            masked = " (secrets masked)" if restore_reveal else ""
            self.notify(f"Screenshot saved to {path}{masked}", title="Screenshot", markup=False)
        if restore_reveal:
            self.reveal = True

    def action_help(self) -> None:
        from flowctx_tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.help_entries()))

    # -- review mode ---------------------------------------------------------------------------

    def _review(self, result: LoadResult) -> None:
        """After a load, in review mode: compare it with the base (in a worker)."""
        if self.base is None or result.broken:
            return
        if self.comparison is not None and self.comparison.workflow != result.workflow:
            self.matrix_view.set_changes({})  # another workflow's marks would mislead
        self._start_compare()

    def ask_base(self) -> None:
        """Ask which revision or folder to compare with (the palette's command)."""
        from flowctx_tui.screens.compare import CompareScreen

        self.push_screen(CompareScreen(), self._base_given)

    def _base_given(self, spec: str | None) -> None:
        if spec:
            self.notify(f"Reading {spec}…", timeout=2)
            self._read_base(spec, self.session)

    @work(thread=True, exclusive=True, group="base", exit_on_error=False)
    def _read_base(self, spec: str, session: Session) -> None:
        from flowctx_core.review.diff import SideError, read_side

        try:
            side = read_side(spec, session.root, session.env, runtime=session.runtime_choice)
        except SideError as exc:
            self.call_from_thread(self.notify, mask_text(str(exc)), severity="error")
            return
        self.call_from_thread(self.compare_with, side)

    def compare_with(self, base: Side) -> None:
        """Enter review mode against ``base`` (read already): every load is compared with it."""
        self.base = base
        self.comparison = None
        self.notify(f"Comparing with {base.label}")
        self._update_status()
        self.call_later(self._open_changes_tab)
        self._start_compare()

    def stop_comparing(self) -> None:
        self.base = None
        self.comparison = None
        self._update_status()
        self._compare_generation += 1  # a comparison still running is dropped
        self.matrix_view.set_changes({})
        routes = self.views.get("routes")
        if isinstance(routes, _routes_class()):
            routes.set_route_changes(())
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.query("TabPane#changes"):
            if tabs.active == "changes":
                tabs.active = "matrix"
            tabs.remove_pane("changes")
        self.notify("Review mode off")

    def _changes_view(self) -> ChangesView | None:
        from flowctx_tui.widgets.changes import ChangesView

        found = self.query(ChangesView)
        return found.first() if found else None

    async def _open_changes_tab(self) -> None:
        from flowctx_tui.widgets.changes import ChangesView

        tabs = self.query_one("#tabs", TabbedContent)
        if self.base is None or tabs.query("TabPane#changes"):
            return
        view = ChangesView(id="changes-view")
        # after the Tests tab: the tabs stand in the order of their keys
        await tabs.add_pane(TabPane(self._tab_title("changes", "Changes"), view, id="changes"))
        view.show_diff(self.comparison, self.base.label, reveal=self.reveal)

    def _start_compare(self) -> None:
        if self.base is None:
            return
        self._compare_generation += 1
        self._compare(
            self.base,
            self.session,
            self.workflow,
            dict(self.env_overrides),
            dict(self.launch),
            self._compare_generation,
        )

    @work(thread=True, exclusive=True, group="compare", exit_on_error=False)
    def _compare(
        self,
        base: Side,
        session: Session,
        workflow: str,
        env_overrides: dict[str, str],
        launch: dict[str, Any],
        generation: int,
    ) -> None:
        from flowctx_core.review.diff import compare_workflow, folder_side

        # the head is the workspace as the app reads it now; the base stays as it was read
        head = folder_side(session.root, session.env, session=session, label="working tree",
                           workflows=[workflow])  # fmt: skip
        diff = compare_workflow(
            base, head, workflow, env_overrides=env_overrides, launch=launch,
            origins=loader.APP_ORIGINS,
        )  # fmt: skip
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._compared, generation, base, diff)

    def _compared(self, generation: int, base: Side, diff: WorkflowDiff) -> None:
        if generation != self._compare_generation or base is not self.base:
            return  # a newer comparison (or none) is wanted
        if diff.workflow != self.workflow:
            return
        self.comparison = diff
        changes = {v.name: v for v in diff.variables if v.change != "removed"}
        self.matrix_view.set_changes(changes, base.label)
        routes = self.views.get("routes")
        if isinstance(routes, _routes_class()):
            routes.set_route_changes(diff.routes, base.label)
        view = self._changes_view()
        if view is not None:
            view.show_diff(diff, base.label, reveal=self.reveal)
        self._update_status()
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.query("TabPane#changes"):
            count = self._change_count() or 0
            title = self._tab_title("changes", "Changes")
            tabs.get_tab("changes").label = f"{title} {count}" if count else title

    # -- bindings, help and the palette ------------------------------------------------------

    def _binding_sources(self) -> list[tuple[type, Widget | None]]:
        sources: list[tuple[type, Widget | None]] = [
            (type(self), None),
            (MatrixView, self.matrix_view),
        ]
        for view in self._views():
            sources.append((type(view), view))
        return sources

    def _keys_for(self, binding: Binding) -> str:
        keys = self._keymap.get(binding.id, binding.key) if binding.id else binding.key
        return ", ".join(
            self.get_key_display(Binding(k.strip(), binding.action)) for k in keys.split(",")
        )

    def _applies(self, binding: Binding) -> bool:
        """Whether help and the palette offer ``binding`` now: the Changes tab's only in
        review mode, where the tab exists."""
        return binding.id != "app.tab.changes" or self.base is not None

    def help_entries(self) -> list[HelpEntry]:
        """Every key of the app, as remapped: the views' bindings (mounted or not), those of
        the widgets inside them (completion, history, JSON errors), then the dialogs'."""
        from textual.screen import Screen
        from textual.widgets import Tabs

        from flowctx_tui.screens.help import HelpEntry

        classes = [cls for cls, _node in self._binding_sources()]
        classes += [cls for cls in binding_classes() if cls not in classes]
        # stable: the main screen's keys first, the dialogs' after
        classes.sort(key=lambda cls: issubclass(cls, Screen) and cls is not type(self))
        out: list[HelpEntry] = []
        seen = set()
        #: (keys, what it does) -> its index in out: one entry for a key that does the same
        #: in several views (ctrl+o saves as a test in the routes view and the scratchpad)
        same: dict[tuple[str, str], int] = {}
        for cls in classes:
            for binding in _bindings_of(cls):
                if binding.id in seen or not binding.description or not self._applies(binding):
                    continue
                seen.add(binding.id)
                prefix = (binding.id or "").split(".")[0]
                keys, does = self._keys_for(binding), binding.description
                place = DIALOGS.get(prefix) or VIEW_PLACES.get(prefix)
                if prefix in VIEW_PLACES and (keys, does) in same:
                    at = same[(keys, does)]
                    old = out[at]
                    where, _, what = old.description.partition(": ")
                    # in the tabs' order, whichever view was mounted first
                    order = list(VIEW_PLACES.values())
                    places = sorted([*where.split(", "), place or ""], key=order.index)
                    ids = sorted([*old.binding_id.split(", "), binding.id or ""])
                    out[at] = HelpEntry(keys, f"{', '.join(places)}: {what}", ", ".join(ids))
                    continue
                if prefix in VIEW_PLACES:
                    same[(keys, does)] = len(out)
                if place and ": " in does and prefix in VIEW_PLACES:
                    place = f"{place} {does.split(': ', 1)[0].lower()}"
                    does = does.split(": ", 1)[1]
                text = f"{place}: {does}" if place else does
                out.append(HelpEntry(keys, text, binding.id or ""))
        # Textual's own keys that the app relies on
        tabs = {b.action: b for b in Tabs.BINDINGS if isinstance(b, Binding)}
        switch = ", ".join(
            self._keys_for(tabs[a]) for a in ("previous_tab", "next_tab") if a in tabs
        )
        out += [
            HelpEntry("tab, shift+tab", "Move the focus to the next / previous part", ""),
            HelpEntry(switch, "JSON tabs: previous / next (tab to the tab bar)", ""),
            HelpEntry("enter, esc", "Filter: back to the table", ""),
            HelpEntry("esc", "Any dialog (this one too): close it", ""),
            HelpEntry(
                self.get_key_display(Binding(self.COMMAND_PALETTE_BINDING, "")),
                "Command palette: every action, themes, workflows",
                "",
            ),
        ]
        return out

    def palette_commands(self) -> list[PaletteCommand]:
        from flowctx_tui.commands import PaletteCommand

        commands = []
        seen = set()
        for cls, node in self._binding_sources():
            for binding in _bindings_of(cls):
                if binding.id in seen or not binding.description or binding.id == "app.quit":
                    continue
                if not self._applies(binding):
                    continue
                seen.add(binding.id)
                target = node if node is not None else self
                commands.append(
                    PaletteCommand(
                        PALETTE_TITLES.get(binding.id or "", binding.description),
                        f"{self._keys_for(binding)}  ({binding.id})",
                        partial(self.call_later, self.run_action, binding.action, target),
                    )
                )
        for name in self.workflows:
            if name != self.workflow:
                commands.append(
                    PaletteCommand(
                        f"Workflow: {name}",
                        "show this workflow",
                        partial(self.switch_workflow, name),
                    )
                )
        from flowctx_core.model.profiles import PROFILES

        for profile in PROFILES.values():
            if profile is not self.session.runtime:
                commands.append(
                    PaletteCommand(
                        f"Runtime: {profile.name}",
                        f"judge this workspace against {profile.title}",
                        partial(self.switch_runtime, profile.name),
                    )
                )
        if self.base is None:
            commands.append(
                PaletteCommand(
                    "Compare with a revision (review mode)",
                    "mark what changed since a git revision or a folder",
                    self.ask_base,
                )
            )
        else:
            commands.append(
                PaletteCommand(
                    "Stop comparing",
                    f"leave review mode (comparing with {self.base.label})",
                    self.stop_comparing,
                )
            )
        commands.append(
            PaletteCommand(
                "Env override: any environment variable",
                "set one for this session (e on a config row sets that row's)",
                partial(self.post_message, EnvOverrideRequested(None, None)),
            )
        )
        for cmd in ("Screenshot (SVG)", "Quit"):
            action = "screenshot_svg" if cmd.startswith("Screenshot") else "quit"
            if not any(c.title == cmd for c in commands):
                commands.append(
                    PaletteCommand(cmd, action, partial(self.call_later, self.run_action, action))
                )
        return commands


@lru_cache(maxsize=8)
def workspace_label(root: Path) -> str:
    """How the app names a workspace: "the demo" for the bundled one (a newcomer's first
    look, whose folder is called ``workspace``), else its folder's name."""
    from flowctx_tui.cli.workspace_args import demo_path

    try:
        if root.resolve() == demo_path().resolve():
            return "the demo"
    except OSError:  # a folder gone meanwhile is named as it was
        pass
    return root.name


def _bindings_of(cls: type) -> list[Binding]:
    out: list[Binding] = []
    seen: set[str] = set()
    for klass in cls.__mro__:
        for b in klass.__dict__.get("BINDINGS", ()):
            if isinstance(b, Binding) and b.id and b.id not in seen:
                seen.add(b.id)
                out.append(b)
    return out


def binding_classes() -> list[type]:
    """Every class whose bindings a key map may name (for checking key map files)."""
    from flowctx_tui.screens.copy_demo import CopyDemoScreen
    from flowctx_tui.screens.env_override import EnvOverrideScreen
    from flowctx_tui.screens.help import HelpScreen
    from flowctx_tui.screens.launch import LaunchScreen
    from flowctx_tui.screens.save_test import SaveTestScreen
    from flowctx_tui.screens.workflows import WorkflowPicker

    classes: list[type] = [
        FlowctxApp,
        HelpScreen,
        WorkflowPicker,
        EnvOverrideScreen,
        LaunchScreen,
        SaveTestScreen,
        CopyDemoScreen,
    ]
    for _widget_id, view_class in VIEWS.values():
        view_class()  # imports the module and the widgets it uses

    def ours(cls: type) -> list[type]:
        found = [cls] if cls.__module__.startswith("flowctx_tui.") else []
        subclasses: list[type] = cls.__subclasses__()
        for sub in subclasses:
            found += ours(sub)
        return found

    return classes + ours(Widget)
