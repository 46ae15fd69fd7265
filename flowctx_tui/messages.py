"""Messages between background work, widgets and the app.

Background work (the watcher, resolution) posts these to the app; widgets post user intent
upwards; the app decides and pushes results down. Widgets never reach into each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from pathlib import Path

    from flowctx_core.model.matrix import Row
    from flowctx_core.model.scenarios import Scenario
    from flowctx_tui.loader import LoadResult


class FilesChanged(Message):
    """The watcher saw relevant files change (the paths wait in the app's pending set).

    A burst of these collapses into one: only the newest pending one is handled.
    """

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, FilesChanged)


class WorkspaceLoaded(Message):
    """A reload finished in the worker thread. One runs at a time (requests made meanwhile
    collapse into one more run), so each of these is handled: it also frees the next run."""

    def __init__(self, generation: int, result: LoadResult, changed: frozenset[Path]) -> None:
        super().__init__()
        self.generation = generation
        self.result = result
        #: the changed files this reload took into account
        self.changed = changed


class ScenarioChanged(Message):
    """The scratchpad's scenario changed (any input). The app keeps it and routes under it:
    the routes view is given it by the app, never by the scratchpad."""

    def __init__(self, scenario: Scenario) -> None:
        super().__init__()
        self.scenario = scenario


class ScenarioLoaded(Message):
    """A saved scenario was loaded; its env/launch overrides are for the app to apply."""

    def __init__(self, name: str, scenario: Scenario) -> None:
        super().__init__()
        self.name = name
        self.scenario = scenario


class EnvOverrideRequested(Message):
    """The user asked to override an environment variable (from a row, or none)."""

    def __init__(self, env_var: str | None, row: Row | None) -> None:
        super().__init__()
        self.env_var = env_var
        self.row = row


class OpenWorkspace(Message):
    """Show the workspace at ``root`` instead (a copy of the demo the user just made)."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
