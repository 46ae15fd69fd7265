"""The resolution matrix: a filterable, sortable table of variables beside a detail pane.

Reloads update the table in place by row key (``update_cell`` inside ``batch_update``, rows
added and removed only where they changed) so the cursor and scroll position survive them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import DataTable, Input, Static

from core.diagnostics import Diagnostic
from core.present import display_value, short_value
from core.results import Matrix, Row
from core.secrets import mask_text
from flowctx_tui.messages import EnvOverrideRequested
from flowctx_tui.rowfilter import RowFilter
from flowctx_tui.widgets.detail import DetailPane
from flowctx_tui.widgets.keys import OrderedInput

COLUMNS: tuple[tuple[str, str], ...] = (
    ("name", "Name"),
    ("type", "Type"),
    ("source", "Source"),
    ("status", "Status"),
    ("value", "Value"),
    ("origin", "Origin"),
    ("agents", "Agents"),
)
COLUMN_KEYS = tuple(key for key, _ in COLUMNS)
#: rich styles (not theme variables: DataTable cells are rich Text)
STATUS_CELL_STYLES = {
    "resolved": "green",
    "default": "cyan",
    "fallback": "yellow",
    "pending": "bright_black",
    "error": "bold red",
}
#: sorting by status puts what needs attention first
STATUS_ORDER = {"error": 0, "pending": 1, "fallback": 2, "default": 3, "resolved": 4}
VALUE_WIDTH = 32
ORIGIN_WIDTH = 28
AGENTS_WIDTH = 30
#: above this many removals a refill is cheaper than removing rows one by one
REFILL_THRESHOLD = 64

SORT_KEYS: dict[str, Callable[[Row], Any]] = {
    "name": lambda r: r.name.lower(),
    "type": lambda r: r.type,
    "source": lambda r: r.source,
    "status": lambda r: STATUS_ORDER.get(r.status, 9),
    "value": lambda r: short_value(display_value(r), 200).lower(),
    "origin": lambda r: r.origin.lower(),
    "agents": lambda r: ", ".join(r.agents).lower(),
}


def row_keys(rows: Iterable[Row]) -> list[str]:
    """Stable keys: the variable name (a list-shaped contract may repeat one: numbered)."""
    seen: dict[str, int] = {}
    keys = []
    for r in rows:
        n = seen.get(r.name, 0) + 1
        seen[r.name] = n
        keys.append(r.name if n == 1 else f"{r.name}#{n}")
    return keys


def row_cells(row: Row, *, reveal: bool) -> tuple[Text, ...]:
    # Text, never str: DataTable parses str cells as markup, and values may hold brackets
    return (
        Text(row.name, style="bold" if row.status == "error" else ""),
        Text(row.type),
        Text(row.source),
        Text(row.status, style=STATUS_CELL_STYLES.get(row.status, "")),
        Text(short_value(display_value(row, reveal=reveal), VALUE_WIDTH)),
        Text(short_value(mask_text(row.origin), ORIGIN_WIDTH)),
        Text(short_value(", ".join(row.agents), AGENTS_WIDTH)),
    )


class MatrixView(Vertical):
    """Filter bar, problems banner, the table and the detail pane."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", id="matrix.filter"),
        Binding("n", "next_error", "Next error", id="matrix.next_error"),
        Binding("p", "previous_error", "Previous error", show=False, id="matrix.previous_error"),
        Binding("s", "cycle_sort", "Sort", id="matrix.sort"),
        Binding("S", "reverse_sort", "Reverse sort", show=False, id="matrix.reverse_sort"),
        Binding("d", "toggle_detail", "Detail", id="matrix.detail"),
        Binding("e", "env_override", "Env override", id="matrix.env"),
        Binding("x", "toggle_problems", "Problems", show=False, id="matrix.problems"),
    ]

    #: whether the detail pane is shown (the user toggles it; narrow terminals start with it)
    show_detail: reactive[bool] = reactive(True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.matrix: Matrix | None = None
        self.reveal = False
        self.stale = False
        self.row_filter = RowFilter()
        self.sort_column: str | None = None
        self.sort_reverse = False
        self._rows: dict[str, Row] = {}
        self._keys: list[str] = []
        self._cells: dict[str, tuple[Text, ...]] = {}
        self._cell_cache: dict[str, tuple[Row, bool, tuple[Text, ...]]] = {}
        self._count_shown: Content | None = None
        self._problems_shown: Content | None = None
        self._order: list[str] = []
        self._contract_lines: Sequence[str] = ()
        self._contract_file = ""
        self._broken: tuple[Diagnostic, ...] = ()
        self._problems: tuple[Diagnostic, ...] = ()
        self._problems_open = False
        #: the detail pane waits for the first paint of the table (start-up time)
        self._painted = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="filter-bar"):
            yield Static("Filter", id="filter-label")
            yield OrderedInput(
                placeholder="name  status:error  source:file  type:…  agent:…",
                id="filter",
            )
            yield Static("", id="matrix-count")
        yield Static("", id="problems")
        with Horizontal(id="matrix-body"):
            table: DataTable[Any] = DataTable(
                id="matrix-table", cursor_type="row", zebra_stripes=True
            )
            yield table
            yield DetailPane(id="detail")

    def on_mount(self) -> None:
        table = self.table
        for key, label in COLUMNS:
            table.add_column(label, key=key)
        self.query_one("#problems", Static).display = False

    # -- what the app calls --------------------------------------------------------------

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#matrix-table", DataTable)

    def show_matrix(
        self,
        matrix: Matrix,
        *,
        stale: bool = False,
        broken: Sequence[Diagnostic] = (),
        problems: Sequence[Diagnostic] = (),
        contract_lines: Sequence[str] = (),
        contract_file: str = "",
    ) -> None:
        """Show ``matrix`` (the same object may come back marked stale with new errors)."""
        first = self.matrix is None
        self.matrix = matrix
        self.stale = stale
        self._broken = tuple(broken)
        self._problems = tuple(problems)
        self._contract_lines = contract_lines
        self._contract_file = contract_file
        self._keys = row_keys(matrix.rows)
        self._rows = dict(zip(self._keys, matrix.rows, strict=True))
        for gone in self._cell_cache.keys() - self._rows.keys():
            del self._cell_cache[gone]
        self.set_class(stale, "-stale")
        self._render_problems()
        # the first time, paint the table before highlighting a value in the detail pane
        self._sync(detail=not first)
        if first:
            self.call_after_refresh(self._detail_after_paint)

    def set_reveal(self, reveal: bool) -> None:
        if reveal != self.reveal:
            self.reveal = reveal
            self._sync()

    @property
    def highlighted(self) -> Row | None:
        key = self._cursor_key()
        return self._rows.get(key) if key else None

    def select(self, name: str) -> bool:
        """Move the cursor to the variable ``name`` (if shown); True when it is there."""
        if name not in self._cells:
            return False
        self.table.move_cursor(row=self.table.get_row_index(name))
        self._show_detail()
        return True

    @property
    def shown_names(self) -> list[str]:
        """Row keys in display order (what the user sees, after filter and sort)."""
        return list(self._order)

    # -- syncing the table ------------------------------------------------------------------

    def _cursor_key(self) -> str | None:
        table = self.table
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # the cursor sits past the last row while rows change
            return None
        return key.value

    def _visible(self) -> list[str]:
        keys = [k for k in self._keys if self.row_filter.matches(self._rows[k])]
        if self.sort_column:
            by = SORT_KEYS[self.sort_column]
            keys.sort(key=lambda k: by(self._rows[k]), reverse=self.sort_reverse)
        return keys

    def _sync(self, *, detail: bool = True) -> None:
        table = self.table
        before = self._cursor_key()
        order = self._visible()
        desired = {k: self._cells_for(k) for k in order}
        current = self._cells
        removed = [k for k in current if k not in desired]
        with self.app.batch_update():
            if len(removed) > REFILL_THRESHOLD and len(removed) * 2 > len(current):
                table.clear()
                for k in order:
                    table.add_row(*desired[k], key=k)
            else:
                for k in removed:
                    table.remove_row(k)
                for k in order:
                    cells = desired[k]
                    old = current.get(k)
                    if old is None:
                        table.add_row(*cells, key=k)
                    elif old is not cells and old != cells:
                        for column, was, now in zip(COLUMN_KEYS, old, cells, strict=True):
                            if was != now:
                                # measuring a whole column is slow; only when it must grow
                                wider = now.cell_len > table.columns[column].content_width
                                table.update_cell(k, column, now, update_width=wider)
                if [r.key.value for r in table.ordered_rows] != order:
                    position = {k: i for i, k in enumerate(order)}
                    # the name cell identifies the row (duplicates keep their relative order)
                    table.sort("name", key=lambda cell: position.get(_plain(cell), 0))
            self._cells = desired
            self._order = order
            if before is not None and before in desired:
                index = order.index(before)
                if table.cursor_row != index:
                    table.move_cursor(row=index, animate=False)
        self._update_count()
        if detail:
            self._show_detail()

    def _cells_for(self, key: str) -> tuple[Text, ...]:
        """The row's cells, reused while the row and the reveal setting are unchanged."""
        row = self._rows[key]
        cached = self._cell_cache.get(key)
        if (
            cached is not None
            and cached[1] == self.reveal
            and (cached[0] is row or cached[0] == row)
        ):
            return cached[2]
        cells = row_cells(row, reveal=self.reveal)
        self._cell_cache[key] = (row, self.reveal, cells)
        return cells

    def _update_count(self) -> None:
        total = len(self._keys)
        shown = len(self._order)
        errors = sum(1 for r in self._rows.values() if r.status == "error")
        text = f"{shown}/{total}" if self.row_filter else f"{total} variables"
        parts: list[str | tuple[str, str]] = [text]
        if errors:
            parts.append((f"  {errors} error{'s' if errors != 1 else ''}", "$text-error"))
        content = Content.assemble(*parts)
        if content != self._count_shown:
            self._count_shown = content
            self.query_one("#matrix-count", Static).update(content)

    def _detail_after_paint(self) -> None:
        self._painted = True
        self._show_detail()

    def _show_detail(self) -> None:
        if not self._painted:
            return
        pane = self.query_one(DetailPane)
        pane.show_row(
            self.highlighted,
            reveal=self.reveal,
            contract_lines=self._contract_lines,
            contract_file=self._contract_file,
        )

    def _render_problems(self) -> None:
        banner = self.query_one("#problems", Static)
        lines: list[Content] = []
        if self._broken:
            head = (
                "showing the last good result (stale) until this is fixed"
                if self.matrix and self.matrix.rows
                else "cannot load this workflow"
            )
            lines.append(Content.styled(f"✗ {head}:", "bold"))
            lines += [Content(f"  {mask_text(d.format())}") for d in self._broken]
        if self._problems_open:
            if not self._problems:
                lines.append(Content.styled("no problems", "$text-muted"))
            lines += [
                Content.assemble(
                    (
                        "✗ " if d.severity == "error" else "! ",
                        "$text-error" if d.severity == "error" else "$text-warning",
                    ),
                    mask_text(d.format()),
                )
                for d in self._problems
            ]
        content = Content("\n").join(lines)
        if content == self._problems_shown:
            return  # unchanged: no relayout
        self._problems_shown = content
        banner.set_class(bool(self._broken), "-broken")
        banner.display = bool(lines)
        banner.update(content)

    # -- events -------------------------------------------------------------------------------

    @on(DataTable.RowHighlighted, "#matrix-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    @on(DataTable.RowSelected, "#matrix-table")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        # Enter shows the detail pane when the user had hidden it
        self.show_detail = True
        self._show_detail()

    @on(DataTable.HeaderSelected, "#matrix-table")
    def _header_selected(self, event: DataTable.HeaderSelected) -> None:
        column = event.column_key.value
        if self.sort_column == column:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_column, self.sort_reverse = column, False
        self._apply_sort()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.row_filter = RowFilter.parse(event.value)
        self._sync()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.table.focus()

    def key_escape(self) -> None:
        if self.query_one("#filter", Input).has_focus:
            self.table.focus()

    def watch_show_detail(self, show: bool) -> None:
        self.set_class(not show, "-no-detail")

    # -- actions --------------------------------------------------------------------------------

    def action_focus_filter(self) -> None:
        # focus now, not on the next loop turn (Widget.focus): keys typed right after "/"
        # (a fast typist, a paste) must land in the filter, not trigger table bindings
        self.screen.set_focus(self.query_one("#filter", Input))

    def _jump_error(self, step: int) -> None:
        order = self._order
        if not order:
            return
        start = self.table.cursor_row if self.table.row_count else -1
        for i in range(1, len(order) + 1):
            index = (start + step * i) % len(order)
            if self._rows[order[index]].status == "error":
                self.table.move_cursor(row=index)
                self.table.focus()
                return
        self.notify("No variable in error" + (" among those shown" if self.row_filter else ""))

    def action_next_error(self) -> None:
        self._jump_error(1)

    def action_previous_error(self) -> None:
        self._jump_error(-1)

    def action_cycle_sort(self) -> None:
        cycle: list[str | None] = [None, *COLUMN_KEYS]
        self.sort_column = cycle[(cycle.index(self.sort_column) + 1) % len(cycle)]
        self.sort_reverse = False
        self._apply_sort()

    def action_reverse_sort(self) -> None:
        if self.sort_column is None:
            self.sort_column = "name"
        self.sort_reverse = not self.sort_reverse
        self._apply_sort()

    def _apply_sort(self) -> None:
        table = self.table
        for key, label in COLUMNS:
            arrow = (" ▼" if self.sort_reverse else " ▲") if key == self.sort_column else ""
            table.columns[key].label = Text(label + arrow)  # type: ignore[index]
        table.refresh()
        self._sync()

    def action_toggle_detail(self) -> None:
        self.show_detail = not self.show_detail

    def action_toggle_problems(self) -> None:
        self._problems_open = not self._problems_open
        self._render_problems()

    def action_env_override(self) -> None:
        row = self.highlighted
        env_var = None
        if row is not None and isinstance(row.definition, dict):
            source = row.definition.get("source")
            if isinstance(source, dict) and source.get("type") == "config":
                raw = source.get("env_var")
                env_var = raw if isinstance(raw, str) and raw else None
        self.post_message(EnvOverrideRequested(env_var, row))


def _plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)
