"""Review mode in the app: the changes view, and the marks other views show for a change.

The app compares the workflow it shows with a fixed base (``flowctx --base REV``, or the
palette) after every reload, in a worker thread (``flowctx_core.review.diff.compare_workflow``),
and pushes
the result down: the matrix marks changed rows (``MatrixView.set_changes``), the detail pane
shows before and after, the routes view marks changed winners, and this view lists everything
``flowctx diff`` lists for the workflow. Values are masked as the matrix masks them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from flowctx_core.base.secrets import mask_text

if TYPE_CHECKING:  # flowctx_core.review.diff (git, check) is imported only once the app compares
    from flowctx_core.model.matrix import Row
    from flowctx_core.review.diff import RouteChange, VariableChange, WorkflowDiff

#: the mark after a changed row's status in the matrix (added rows have no before)
ROW_MARKS = {"changed": " ~", "added": " +"}
MARK_STYLE = "bold magenta"
_CHANGE_STYLES = {"added": "green", "removed": "red", "changed": "yellow"}
_SIGNS = {"added": "+", "removed": "-", "changed": "~"}


def field_text(row: Row, name: str, *, reveal: bool) -> str:
    from flowctx_core.review.diff import field_text as text

    return text(row, name, reveal=reveal, width=60)


def change_blocks(change: VariableChange, base: str, *, reveal: bool) -> list[Content]:
    """The detail pane's "since base" part: each changed field, before → after."""
    head = Content.assemble(
        ("Changed since base", "bold $text-primary"), (f"  {base}", "$text-muted")
    )
    if change.change == "added":
        return [head, Content.styled(" + new: the base has no such variable", "$text-success")]
    assert change.before is not None and change.after is not None
    blocks = [head]
    for name in change.fields:
        blocks.append(
            Content.assemble(
                (f" {name}: ", "bold"),
                (field_text(change.before, name, reveal=reveal), "$text-error"),
                " → ",
                (field_text(change.after, name, reveal=reveal), "$text-success"),
            )
        )
    return blocks


def route_text(change: RouteChange) -> str:
    before = change.before if change.before is not None else "(no route)"
    after = change.after if change.after is not None else "(no route)"
    return f"{before} → {after}"


def _variable_lines(change: VariableChange, reveal: bool) -> list[Text]:
    sign = _SIGNS[change.change]
    style = _CHANGE_STYLES[change.change]
    row = change.after or change.before
    assert row is not None
    lines = [Text.assemble((f" {sign} ", style), (row.name, "bold"))]
    if change.change == "changed":
        assert change.before is not None and change.after is not None
        for name in change.fields:
            old = field_text(change.before, name, reveal=reveal)
            new = field_text(change.after, name, reveal=reveal)
            lines.append(Text.assemble(f"     {name}: ", (old, "red"), " → ", (new, "green")))
    else:
        value = field_text(row, "value", reveal=reveal)
        lines.append(Text(f"     {row.status}, {row.source}: {value}  ({mask_text(row.origin)})"))
    return lines


def diff_lines(diff: WorkflowDiff | None, base: str, *, reveal: bool) -> list[Text]:
    """The changes view's text: what ``flowctx diff -w`` lists for this workflow."""
    if diff is None:
        return [Text("Comparing with the base…", style="dim")]
    out = [Text.assemble(("Compared with ", "dim"), (base, "bold"))]
    if diff.presence == "added":
        out.append(Text("This workflow is new: the base has no such workflow.", style="green"))
    if not diff.changed:
        out.append(Text("No changes: the runtime resolves, routes and reports the same."))
        return out
    if diff.variables:
        out.append(Text(f"Variables ({len(diff.variables)})", style="bold"))
        for change in diff.variables:
            out += _variable_lines(change, reveal)
    if diff.routes:
        scenarios = ", ".join(diff.scenarios)
        out.append(Text(f"Route winners changed ({len(diff.routes)}; scenarios: {scenarios})"))
        out[-1].stylize("bold")
        for r in diff.routes:
            file = r.file.rsplit("/", 1)[-1]
            out.append(
                Text.assemble(
                    (" ~ ", "yellow"), f"{file} from ", (r.source, "bold"), f" [{r.scenario}]: ",
                    route_text(r),
                )
            )  # fmt: skip
    if diff.problems_added or diff.problems_removed:
        added, removed = len(diff.problems_added), len(diff.problems_removed)
        out.append(Text(f"Problems (+{added} -{removed})", style="bold"))
        for d in diff.problems_added:
            out.append(Text.assemble((" + ", "green"), mask_text(d.format())))
        for d in diff.problems_removed:
            out.append(Text.assemble((" - ", "red"), mask_text(d.format())))
    return out


class ChangesView(VerticalScroll, can_focus=True):
    """Everything that changed in the shown workflow since the base, as ``flowctx diff``."""

    DEFAULT_CSS = """
    ChangesView {
        height: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.diff: WorkflowDiff | None = None
        self.base = ""
        self.reveal = False

    def compose(self) -> ComposeResult:
        yield Static(Text("Comparing with the base…", style="dim"), id="changes-body")

    def show_diff(self, diff: WorkflowDiff | None, base: str, *, reveal: bool = False) -> None:
        self.diff, self.base, self.reveal = diff, base, reveal
        if self.is_mounted:
            self.query_one("#changes-body", Static).update(Text("\n").join(self.text_lines()))

    def set_reveal(self, reveal: bool) -> None:
        if reveal != self.reveal:
            self.show_diff(self.diff, self.base, reveal=reveal)

    def on_mount(self) -> None:
        self.show_diff(self.diff, self.base, reveal=self.reveal)

    def text_lines(self) -> list[Text]:
        return diff_lines(self.diff, self.base, reveal=self.reveal)

    def lines(self) -> list[str]:
        """The view's lines as plain text (what a reader sees)."""
        return [line.plain for line in self.text_lines()]
