"""The status line: workspace, workflow, live/stale, last reload time and problem counts.

The counts are ``flowctx_core.check.count_problems`` of the app's problems: the figures
``flowctx check -w <workflow>`` prints for the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from textual.content import Content
from textual.widgets import Static

from flowctx_tui.cli.terminal import escape_controls

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
    #: problems flowctx.yaml's checks: or an ignore comment asked not to see
    ignored: int = 0
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


#: how far the line is shortened to fit, step by step (each level keeps the ones before)
SHORTER = (
    "as is",
    "times bare",
    "runtime bare",
    "review bare",
    "no workspace",
    "refusal bare",
    "tight",
    "no time",
    "no runtime",
    "refusal stage in the detail",
)


def render_status(s: Status, width: int = 0) -> Content:
    """The status line; with ``width``, shortened step by step until it fits: the labels
    ("reloaded", "runtime", "review", "by the runtime") go first, then the workspace's name,
    then the spaces around the separators, then the reload time, then the runtime's name (the
    app's palette and every command say it), then the refused stage (the matrix's banner says
    it). What is said (state,
    refusal, counts, review) is never dropped, nor cut mid-word."""
    content = _render(s, 0)
    for level in range(1, len(SHORTER)):
        if not width or content.cell_length <= width:
            break
        content = _render(s, level)
    return content


def _render(s: Status, level: int) -> Content:
    label, style = STATES[s.state]
    sep = (" │ " if level < 6 else "│", "$text-muted")
    parts: list[str | tuple[str, str]] = [(f" {escape_controls(s.workflow)}", "bold")]
    if level < 4:
        parts.append((f" ({escape_controls(s.workspace)})", "$text-muted"))
    parts += [sep, (label, style)]
    if s.runtime and level < 8:
        parts += [sep, (f"runtime {s.runtime}" if level < 2 else s.runtime, "$text-muted")]
    if s.refused:
        refused = f"REFUSED by the runtime ({s.refused})" if level < 5 else f"REFUSED ({s.refused})"
        refused = refused if level < 9 else "REFUSED"
        parts += [sep, (refused, "$text-error bold")]
    if s.review:
        found = "comparing…" if s.changes is None else f"{s.changes} changed"
        what = f"review vs {s.review}" if level < 3 else f"vs {s.review}"
        parts += [sep, (f"{what}: {found}", "$text-accent")]
    e, w = s.errors, s.warnings
    parts += [
        sep,
        (f"{e} error{'s' if e != 1 else ''}", "$text-error bold" if e else "$text-muted"),
        (", ", "$text-muted"),
        (f"{w} warning{'s' if w != 1 else ''}", "$text-warning" if w else "$text-muted"),
    ]
    if s.ignored:
        parts += [(f", {s.ignored} ignored", "$text-muted")]
    if s.reloaded is not None and level < 7:
        parts += [sep, f"reloaded {s.reloaded:%H:%M:%S}" if level < 1 else f"{s.reloaded:%H:%M:%S}"]
    if not s.watching:
        parts += [sep, ("not watching", "$text-muted")]
    if s.overrides:
        parts += [sep, (f"{s.overrides} override{'s' if s.overrides != 1 else ''}", "$text-accent")]
    if s.revealed:
        parts += [sep, ("SECRETS REVEALED", "$text-error bold reverse")]
    return Content.assemble(*parts)


class StatusLine(Static):
    """One line above the footer; the app calls ``show`` after every change of state."""

    _shown: tuple[Status, int] | None = None
    _status: Status | None = None

    def show(self, status: Status) -> None:
        self._status = status
        self._render_for(self.size.width)

    def on_resize(self) -> None:
        self._render_for(self.size.width)

    def _render_for(self, width: int) -> None:
        status = self._status
        if status is None or (status, width) == self._shown:
            return
        self._shown = (status, width)
        # one line of fixed height: repaint it without a layout pass over the whole screen
        self.update(render_status(status, width), layout=False)
