"""The flowctx Textual app: the matrix, scratchpad and routes of one workflow, live.

The app owns the state the user creates (workflow, environment overrides, launch values,
reveal) and the background work: a watcher worker (watchfiles) that reports changed files,
and a thread worker that reloads and resolves, then posts the result. Widgets get results
pushed down to them and send intent up as messages; they never reach into each other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.events import DescendantFocus
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane
from textual.worker import Worker, WorkerState, get_current_worker

from core.secrets import mask_text
from core.session import Session
from flowctx_tui import loader
from flowctx_tui.loader import LoadResult
from flowctx_tui.messages import EnvOverrideRequested, FilesChanged, WorkspaceLoaded
from flowctx_tui.watcher import WorkspaceFilter
from flowctx_tui.widgets.matrix import MatrixView
from flowctx_tui.widgets.status import Status, StatusLine

#: Terminal width from which the detail pane sits beside the table.
WIDE = 140
TABS = ("matrix", "scratchpad", "routes")
#: id of the widget each tab shows, and the class that provides it (imported when mounted)
VIEWS = {
    "scratchpad": ("scratchpad-view", "flowctx_tui.widgets.scratchpad", "Scratchpad"),
    "routes": ("routes-view", "flowctx_tui.widgets.routes", "RoutesView"),
}


def _view_class(tab: str) -> type[Widget] | None:
    """The scratchpad / routes widget class, or None when it cannot be imported."""
    import importlib

    _, module_name, class_name = VIEWS[tab]
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    cls = getattr(module, class_name, None)
    return cls if isinstance(cls, type) and issubclass(cls, Widget) else None


def _palette_provider() -> type[Any]:
    # textual.command is imported when the palette first opens, not at start-up
    from flowctx_tui.commands import FlowctxCommands

    return FlowctxCommands


class FlowctxApp(App[int]):
    """``FlowctxApp(session, workflow)``; ``watch=False`` for tests that drive reloads."""

    CSS_PATH = "app.tcss"
    AUTO_FOCUS = "#matrix-table"
    TITLE = "flowctx"
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-narrow"), (WIDE, "-wide")]
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
        Binding("w", "pick_workflow", "Workflow", id="app.workflow"),
        Binding("r", "toggle_reveal", "Reveal", id="app.reveal"),
        Binding("l", "edit_launch", "Launch", id="app.launch"),
        Binding("f5", "reload", "Reload", show=False, id="app.reload"),
        Binding("ctrl+t", "toggle_theme", "Light/dark", show=False, id="app.theme"),
        Binding("f8", "screenshot_svg", "Screenshot", show=False, id="app.screenshot"),
        Binding("f1,question_mark", "help", "Help", id="app.help"),
    ]

    #: secrets shown unmasked on the current view (reset when the view or workflow changes)
    reveal: reactive[bool] = reactive(False, init=False)

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
    ) -> None:
        """``initial``: a load of ``workflow`` already made (by ``flowctx`` before the app
        starts), so the first frame shows the matrix; without it the app loads on mount."""
        super().__init__()
        self.session = session
        self._initial = initial if initial is not None and initial.workflow == workflow else None
        self.workflow = workflow
        self.workflows: tuple[str, ...] = tuple(session.workflows())
        self.watching = watch
        self.clock = clock or datetime.now
        self.screenshot_dir = screenshot_dir
        self.cursor_blink = cursor_blink
        self.env_overrides: dict[str, str] = {}
        self.launch: dict[str, Any] = {}
        #: "loading" | "live" | "stale" | "error"
        self.state = "loading"
        self.last_reload: datetime | None = None
        #: reloads applied so far (tests wait on this rather than sleeping)
        self.reload_count = 0
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
        if keymap:
            self.set_keymap(dict(keymap))

    # -- layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs", initial="matrix"):
            with TabPane(self._tab_title("matrix", "Matrix"), id="matrix"):
                yield MatrixView(id="matrix-view")
            for tab, title in (("scratchpad", "Scratchpad"), ("routes", "Routes")):
                # mounted the first time its tab is shown, so the matrix fills sooner
                with TabPane(self._tab_title(tab, title), id=tab):
                    yield Static(f"The {title.lower()} view is loading…", classes="view-loading")
        yield StatusLine(id="status")
        yield Footer()

    def _tab_title(self, tab: str, title: str) -> str:
        binding = next(b for b in _bindings_of(type(self)) if b.id == f"app.tab.{tab}")
        return f"{self._keys_for(binding).split(',')[0]} {title}"

    def on_mount(self) -> None:
        self._update_status()
        self.query_one("#matrix-table").focus()
        # the watcher starts once the first result is on screen (see _track): watchfiles'
        # import and thread are not on the way to the first matrix
        if self._initial is not None:
            initial, self._initial = self._initial, None
            self._apply(initial)
        else:
            self.reload()

    def on_unmount(self) -> None:
        if self._watch_stop is not None:
            self._watch_stop.set()

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

    def _views(self) -> list[Widget]:
        views = []
        for widget_id, _, _ in VIEWS.values():
            found = self.query(f"#{widget_id}")
            if found:
                views.append(found.first())
        return views

    def _update_status(self) -> None:
        problems = len(self.result.problems) if self.result else 0
        self.query_one(StatusLine).show(
            Status(
                workspace=self.session.root.name,
                workflow=self.workflow,
                state=self.state,
                reloaded=self.last_reload,
                problems=problems,
                watching=self.watching,
                revealed=self.reveal,
                overrides=len(self.env_overrides) + len(self.launch),
                runtime=self.session.runtime.name,
                refused=bool(self.result and self.result.matrix.refused),
            )
        )

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
        generation: int,
        workflow: str,
        env_overrides: dict[str, str],
        launch: dict[str, Any],
        changed: frozenset[Path],
    ) -> None:
        worker = get_current_worker()
        try:
            result = loader.load(self.session, workflow, env_overrides, launch, changed)
        except Exception as exc:  # a bug must not take the app down: show it as a problem
            result = loader.failed(workflow, self.workflows, self.session.root, exc)
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
        self.reload_count += 1
        self.matrix_view.show_matrix(
            shown.matrix,
            stale=self.state == "stale",
            broken=result.broken,
            problems=result.problems,
            contract_lines=shown.contract_lines,
            contract_file=shown.contract_file,
        )
        if shown is not previous:
            self._push_workspace(shown)
        self._update_status()

    def _push_workspace(self, shown: LoadResult, views: list[Widget] | None = None) -> None:
        for view in self._views() if views is None else views:
            update = getattr(view, "update_workspace", None)
            if update is None:
                continue
            try:
                update(
                    self.session,
                    self.workflow,
                    shown.matrix,
                    env_overrides=dict(self.env_overrides),
                    launch=dict(self.launch),
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
        # blur first: a focused widget in the pane being hidden would pull the tab back
        self.screen.set_focus(None)
        tabs.active = tab
        self.call_after_refresh(self._focus_in, tab)

    def _focus_in(self, tab: str) -> None:
        if tab == "matrix":
            self.query_one("#matrix-table").focus()
            return
        pane = self.query_one("#tabs", TabbedContent).get_pane(tab)
        focusable = [w for w in pane.query("*") if w.focusable]
        # typing is what the scratchpad is for: its first text input, else the first widget
        inputs = [w for w in focusable if isinstance(w, Input)]
        if inputs or focusable:
            (inputs or focusable)[0].focus()

    @on(TabbedContent.TabActivated, "#tabs")
    async def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        self.reveal = False  # reveal is for the view it was asked on
        tab = event.pane.id or ""
        if tab in VIEWS:
            await self.mount_view(tab)

    async def mount_view(self, tab: str) -> Widget | None:
        """Mount the scratchpad or routes view into its tab (once) and give it the workspace."""
        widget_id = VIEWS[tab][0]
        found = self.query(f"#{widget_id}")
        if found:
            return found.first()
        cls = _view_class(tab)
        if cls is None:
            return None
        pane = self.query_one("#tabs", TabbedContent).get_pane(tab)
        view = cls(id=widget_id)
        await pane.query(".view-loading").remove()
        await pane.mount(view)
        if self.good is not None:
            self._push_workspace(self.good, [view])
        # the routes view routes under the scratchpad's scenario; it may have started first
        pads = self.query("#scratchpad-view")
        if tab == "routes" and pads and hasattr(view, "set_scenario"):
            view.set_scenario(pads.first().scenario)  # type: ignore[attr-defined]
        if hasattr(view, "reveal"):
            view.reveal = self.reveal  # type: ignore[attr-defined]
        if self.query_one("#tabs", TabbedContent).active == tab:
            self._focus_in(tab)
        return view

    def watch_reveal(self, reveal: bool) -> None:
        self.matrix_view.set_reveal(reveal)
        for view in self._views():
            if hasattr(view, "reveal"):
                view.reveal = reveal  # type: ignore[attr-defined]
        self._update_status()

    def action_toggle_reveal(self) -> None:
        self.reveal = not self.reveal

    def action_toggle_theme(self) -> None:
        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"

    def action_pick_workflow(self) -> None:
        from flowctx_tui.screens.workflows import WorkflowPicker

        self.push_screen(WorkflowPicker(self.workflows, self.workflow), self._switch_to)

    def _switch_to(self, name: str | None) -> None:
        if name:
            self.switch_workflow(name)

    def switch_runtime(self, name: str) -> None:
        """Resolve and check against another runtime profile (kept for this session)."""
        self.session.choose_runtime(name)
        self.notify(f"runtime: {self.session.runtime.label}")
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

    def _env_edited(self, edit: Any) -> None:
        if edit is None:
            return
        if edit.value is None:
            if self.env_overrides.pop(edit.name, None) is None:
                return
            self.notify(f"{edit.name}: override removed")
        else:
            self.env_overrides[edit.name] = edit.value
            self.notify(f"{edit.name} overridden for this session")
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

    def on_scratchpad_scenario_loaded(self, message: Any) -> None:
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
        folder = self.screenshot_dir or Path.cwd()
        stamp = self.clock().strftime("%Y%m%d-%H%M%S")
        name = f"flowctx-{self.workflow}-{stamp}.svg"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.save_screenshot(name, str(folder))
        except OSError as exc:
            self.notify(f"Screenshot not saved: {exc}", severity="error")
        else:
            masked = " (secrets masked)" if restore_reveal else ""
            self.notify(f"Screenshot saved to {path}{masked}", title="Screenshot")
        if restore_reveal:
            self.reveal = True

    def action_help(self) -> None:
        from flowctx_tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.help_entries()))

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

    def help_entries(self) -> list[Any]:
        from flowctx_tui.screens.help import HelpEntry

        out = []
        seen = set()
        for cls, _node in self._binding_sources():
            for binding in _bindings_of(cls):
                if binding.id in seen or not binding.description:
                    continue
                seen.add(binding.id)
                out.append(
                    HelpEntry(self._keys_for(binding), binding.description, binding.id or "")
                )
        out.append(HelpEntry("ctrl+p", "Command palette: every action", ""))
        return out

    def palette_commands(self) -> list[Any]:
        from flowctx_tui.commands import PaletteCommand

        commands = []
        seen = set()
        for cls, node in self._binding_sources():
            for binding in _bindings_of(cls):
                if binding.id in seen or not binding.description or binding.id == "app.quit":
                    continue
                seen.add(binding.id)
                target = node if node is not None else self
                commands.append(
                    PaletteCommand(
                        binding.description,
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
        from core.runtime_profiles import PROFILES

        for profile in PROFILES.values():
            if profile is not self.session.runtime:
                commands.append(
                    PaletteCommand(
                        f"Runtime: {profile.name}",
                        f"judge this workspace against {profile.title}",
                        partial(self.switch_runtime, profile.name),
                    )
                )
        for cmd in ("Screenshot (SVG)", "Quit"):
            action = "screenshot_svg" if cmd.startswith("Screenshot") else "quit"
            if not any(c.title == cmd for c in commands):
                commands.append(
                    PaletteCommand(cmd, action, partial(self.call_later, self.run_action, action))
                )
        return commands


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
    from flowctx_tui.screens.env_override import EnvOverrideScreen
    from flowctx_tui.screens.help import HelpScreen
    from flowctx_tui.screens.launch import LaunchScreen
    from flowctx_tui.screens.workflows import WorkflowPicker

    classes: list[type] = [FlowctxApp, HelpScreen, WorkflowPicker, EnvOverrideScreen, LaunchScreen]
    for tab in VIEWS:
        _view_class(tab)  # imports the module and the widgets it uses

    def ours(cls: type) -> list[type]:
        found = [cls] if cls.__module__.startswith("flowctx_tui.") else []
        for sub in cls.__subclasses__():
            found += ours(sub)
        return found

    return classes + ours(Widget)
