"""The status line: workspace, workflow, live/stale, last reload time and problem counts.

The counts are ``flowctx_core.check.count_problems`` of the app's problems: the figures
``flowctx check -w <workflow>`` prints for the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from textual.content import Content
from textual.widgets import Static

#: state -> (label, style)
STATES = {
    "loading": ("◌ loading", "$text-muted"),
    "live": ("● live", "$text-success"),
    "stale": ("◍ stale", "$text-error bold"),
    "error": ("✗ not loaded", "$text-error bold"),
}


@dataclass(frozen=True)
class Status:
    workspace: str
    workflow: str
    state: str = "loading"
    reloaded: datetime | None = None
    errors: int = 0
    warnings: int = 0
    watching: bool = True
    revealed: bool = False
    overrides: int = 0
    #: the runtime profile the matrix is judged against, and the stage of its start-up that
    #: refuses the workflow ("" when it does not)
    runtime: str = ""
    refused: str = ""
    #: review mode: the base compared with (its label) and how many changes were found
    #: (None while the first comparison runs)
    review: str = ""
    changes: int | None = None


def render_status(s: Status) -> Content:
    label, style = STATES[s.state]
    sep = (" │ ", "$text-muted")
    parts: list[str | tuple[str, str]] = [
        (f" {s.workflow}", "bold"),
        (f" ({s.workspace})", "$text-muted"),
        sep,
        (label, style),
    ]
    if s.runtime:
        parts += [sep, (f"runtime {s.runtime}", "$text-muted")]
    if s.refused:
        parts += [sep, (f"REFUSED by the runtime ({s.refused})", "$text-error bold")]
    if s.review:
        found = "comparing…" if s.changes is None else f"{s.changes} changed"
        parts += [sep, (f"review vs {s.review}: {found}", "$text-accent")]
    e, w = s.errors, s.warnings
    parts += [
        sep,
        (f"{e} error{'s' if e != 1 else ''}", "$text-error bold" if e else "$text-muted"),
        (", ", "$text-muted"),
        (f"{w} warning{'s' if w != 1 else ''}", "$text-warning" if w else "$text-muted"),
    ]
    if s.reloaded is not None:
        parts += [sep, f"reloaded {s.reloaded:%H:%M:%S}"]
    if not s.watching:
        parts += [sep, ("not watching", "$text-muted")]
    if s.overrides:
        parts += [sep, (f"{s.overrides} override{'s' if s.overrides != 1 else ''}", "$text-accent")]
    if s.revealed:
        parts += [sep, ("SECRETS REVEALED", "$text-error bold reverse")]
    return Content.assemble(*parts)


class StatusLine(Static):
    """One line above the footer; the app calls ``show`` after every change of state."""

    _shown: Status | None = None

    def show(self, status: Status) -> None:
        if status == self._shown:
            return
        self._shown = status
        # one line of fixed height: repaint it without a layout pass over the whole screen
        self.update(render_status(status), layout=False)
