"""The resolution matrix: a filterable, sortable table of variables beside a detail pane.

Reloads update the table in place by row key (``update_cell`` inside ``batch_update``, rows
added and removed only where they changed) so the cursor and scroll position survive them.
Column widths follow the table's width (``column_widths``): Value, Origin and Agents share
what the fixed columns leave, and a resize re-cuts the cells in place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Input, Static

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.secrets import mask_text
from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.report.display import display_value, short_value
from flowctx_core.runtime.policy import policy_of
from flowctx_tui.cli.terminal import escape_controls
from flowctx_tui.messages import EnvOverrideRequested
from flowctx_tui.rowfilter import RowFilter
from flowctx_tui.widgets.changes import MARK_STYLE, ROW_MARKS
from flowctx_tui.widgets.detail import DetailPane
from flowctx_tui.widgets.fast_table import FastTable
from flowctx_tui.widgets.keys import OrderedInput

if TYPE_CHECKING:
    from flowctx_core.review.diff import VariableChange

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
#: the Source column's authority marks (mozaiks 0.2.0's context authority policy): routing
#: state, and routing state the graph compiler refuses to route on
ROUTING_MARK = " ⇄"
REFUSED_ROUTING_MARK = " ⇄✗"


def authority_marks(matrix: Matrix) -> dict[str, str]:
    """Variable -> its mark: routing state (⇄), refused by the graph compiler (⇄✗)."""
    policy = policy_of(matrix)
    if policy is None:
        return {}
    refused = {f.key for f in policy.compile_failures}
    return {
        key: REFUSED_ROUTING_MARK if key in refused else ROUTING_MARK
        for key, held in policy.variables.items()
        if held.routing or key in refused
    }


#: rich styles (not theme variables: DataTable cells are rich Text)
STATUS_CELL_STYLES = {
    "resolved": "green",
    "default": "cyan",
    "fallback": "yellow",
    "missing": "magenta",
    "pending": "bright_black",
    "error": "bold red",
}
#: sorting by status puts what needs attention first
STATUS_ORDER = {"error": 0, "missing": 1, "pending": 2, "fallback": 3, "default": 4, "resolved": 5}
#: the columns that share the width left over, with their smallest width and their weight
FLEX_COLUMNS: dict[str, tuple[int, int]] = {"value": (12, 2), "origin": (10, 2), "agents": (8, 1)}
#: the Value width kept when even the smallest widths do not fit: then a readable value comes
#: first, and Origin and Agents are scrolled to
READABLE_VALUE = 24
#: the longest text a flexible cell is ever measured or cut at (values may be megabytes)
MAX_FLEX = 400
#: marks a row with warnings, after its status
WARNING_MARK = " !"
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


def full_cells(row: Row, *, reveal: bool, warned: bool = False) -> tuple[str, ...]:
    """The row's cell texts before cutting (flexible ones at most ``MAX_FLEX`` long), every
    control character escaped as the CLI escapes it (widths are measured on what is shown)."""
    return tuple(
        escape_controls(t)
        for t in (
            row.name,
            row.type,
            row.source,
            row.status + (WARNING_MARK if warned else ""),
            short_value(display_value(row, reveal=reveal), MAX_FLEX),
            short_value(mask_text(row.origin), MAX_FLEX),
            short_value(", ".join(row.agents), MAX_FLEX),
        )
    )


def row_cells(
    row: Row, texts: Sequence[str], widths: Mapping[str, int], *, warned: bool = False
) -> tuple[Text, ...]:
    """Cells cut to ``widths``. Text, never str: DataTable parses str cells as markup, and
    values may hold brackets."""
    status = Text(row.status, style=STATUS_CELL_STYLES.get(row.status, ""))
    if warned:
        status.append(WARNING_MARK, style="bold yellow")
    cells = [Text(texts[0], style="bold" if row.status == "error" else ""), Text(texts[1])]
    cells += [Text(texts[2]), status]
    for key, text in zip(COLUMN_KEYS[4:], texts[4:], strict=True):
        # the texts are one line already (full_cells): cutting is a slice
        width = widths.get(key, MAX_FLEX)
        cells.append(Text(text if len(text) <= width else text[: max(width - 1, 0)] + "…"))
    return tuple(cells)


def column_needs(texts: Iterable[Sequence[str]]) -> dict[str, int]:
    """The width each column's longest text (or its label and sort arrow) needs."""
    needs = {key: len(label) + 2 for key, label in COLUMNS}  # + 2: the sort arrow
    for cells in texts:
        for key, text in zip(COLUMN_KEYS, cells, strict=True):
            if len(text) > needs[key]:
                needs[key] = len(text)
    return needs


def column_widths(
    available: int,
    texts: Iterable[Sequence[str]],
    padding: int = 1,
    *,
    needs: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Every column's width for a table ``available`` cells wide.

    Name, Type, Source and Status take what their longest text needs. Value, Origin and
    Agents share the rest by weight (2:2:1), none below its minimum and none above what its
    longest text needs; what one does not need goes to the others. So a wide terminal shows
    whole values, and a narrower one still shows every column; when even the smallest widths
    do not fit, Value keeps a readable width and the table scrolls sideways.
    """
    if needs is None:
        needs = column_needs(texts)
    widths = {key: needs[key] for key in COLUMN_KEYS if key not in FLEX_COLUMNS}
    left = available - sum(widths.values()) - 2 * padding * len(COLUMNS)
    flex = {key: min(minimum, needs[key]) for key, (minimum, _) in FLEX_COLUMNS.items()}
    left -= sum(flex.values())
    if left < 0:
        flex["value"] = min(max(flex["value"], READABLE_VALUE), needs["value"])
        return {**widths, **flex}
    growing = [k for k in FLEX_COLUMNS if flex[k] < needs[k]]
    while left > 0 and growing:
        weight = sum(FLEX_COLUMNS[k][1] for k in growing)
        share = {k: max(1, left * FLEX_COLUMNS[k][1] // weight) for k in growing}
        for k in growing:
            give = min(share[k], needs[k] - flex[k], left)
            flex[k] += give
            left -= give
        growing = [k for k in growing if flex[k] < needs[k]]
    return {**widths, **flex}


class MatrixTable(FastTable):
    """The matrix's table; says when its width changed, so the columns can follow it."""

    class Resized(Message):
        pass

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Resized())

    @property
    def fill_width(self) -> int:
        """The width the columns may fill: the vertical scrollbar's room always kept free, so
        its coming and going never re-cuts the cells. From the size the layout gave, which
        is current as soon as it is made (the region is the painted one, a frame late)."""
        width = self.size.width - self.styles.gutter.width - self.styles.scrollbar_size_vertical
        return max(width, 0)


class MatrixView(Vertical):
    """Filter bar, problems banner, the table and the detail pane."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_filter", "Filter", id="matrix.filter"),
        # ids kept from when only errors were reached: users' key maps name them
        Binding("n", "next_error", "Next problem", id="matrix.next_error"),
        Binding("p", "previous_error", "Previous problem", show=False, id="matrix.previous_error"),
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
        #: what a filter keystroke reads, worked out once per matrix: (key, row) in order,
        #: each name in lower case, and the counts beside the filter
        self._items: list[tuple[str, Row]] = []
        self._lowered: list[str] = []
        self._counts: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
        self._cells: dict[str, tuple[Text, ...]] = {}
        self._cell_cache: dict[str, tuple[Row, bool, bool, tuple[str, ...]]] = {}
        #: rows with a warning (their own, or a problem located in their definition)
        self._warned: frozenset[str] = frozenset()
        self._widths: dict[str, int] = {}
        #: every row's texts and what each column needs for them: computed again only when
        #: the rows or the reveal setting change, not for a filter or sort (``_sync``)
        self._texts: dict[str, tuple[str, ...]] = {}
        self._needs: dict[str, int] | None = None
        #: the check warnings located in each variable's definition (for the detail pane)
        self._located: dict[str, tuple[Diagnostic, ...]] = {}
        self._resize_pending = False
        #: the table width the columns were last cut for
        self._fitted = -1
        self._cut_cache: dict[str, tuple[tuple[str, ...], dict[str, int], tuple[Text, ...]]] = {}
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
        #: review mode: what changed in each row since the base (``set_changes``)
        self._changes: Mapping[str, VariableChange] = {}
        self._authority_marks: dict[str, str] = {}
        self._base = ""

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
            yield MatrixTable(id="matrix-table", cursor_type="row", zebra_stripes=True)
            yield DetailPane(id="detail")

    def on_mount(self) -> None:
        table = self.table
        self._widths = column_widths(self._table_width(), ())
        for key, label in COLUMNS:
            # explicit widths: measuring every cell of a column on each change is slow, and
            # auto widths only ever grow
            table.add_column(label, key=key, width=self._widths[key])
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
        marks = authority_marks(matrix)
        for key in self._authority_marks.keys() ^ marks.keys() | {
            k for k in marks if self._authority_marks.get(k) != marks[k]
        }:
            # the mark is part of the row's texts: those rows are cut again
            self._cell_cache.pop(key, None)
            self._cut_cache.pop(key, None)
        self._authority_marks = marks
        self._warned = warned_rows(self._rows, problems)
        self._items = list(self._rows.items())
        self._lowered = [r.name.lower() for r in matrix.rows]
        # the keys in error and with warnings, once per matrix: a keystroke only intersects them
        errors = frozenset(k for k, r in self._rows.items() if r.status == "error")
        self._counts = (errors, frozenset(k for k in self._warned if k not in errors))
        self._located = located_by_name(problems)
        self._needs = None  # new rows: texts and widths are worked out again
        for gone in self._cell_cache.keys() - self._rows.keys():
            del self._cell_cache[gone]
            self._cut_cache.pop(gone, None)
        self.set_class(stale, "-stale")
        self._render_problems()
        # the first time, paint the table before highlighting a value in the detail pane
        self._sync(detail=not first)
        if first:
            self.call_after_refresh(self._detail_after_paint)

    def set_changes(self, changes: Mapping[str, VariableChange], base: str = "") -> None:
        """Review mode: mark the rows that changed since ``base`` (by variable name) and show
        their before and after in the detail pane; ``{}`` clears the marks."""
        if changes == self._changes and base == self._base:
            return
        for key in self._changes.keys() | changes.keys():
            # the mark is part of the row's texts: those rows are cut again
            self._cell_cache.pop(key, None)
            self._cut_cache.pop(key, None)
        self._changes, self._base = dict(changes), base
        if self.matrix is not None:
            self._sync()

    def set_reveal(self, reveal: bool) -> None:
        if reveal != self.reveal:
            self.reveal = reveal
            self._needs = None
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
        keys = self.row_filter.select(self._items, self._lowered)
        if self.sort_column:
            by = SORT_KEYS[self.sort_column]
            keys.sort(key=lambda k: by(self._rows[k]), reverse=self.sort_reverse)
        return keys

    def _table_width(self) -> int:
        table = self.table
        if isinstance(table, MatrixTable):
            return table.fill_width
        return max(table.scrollable_content_region.width, 0)

    def refit(self) -> None:
        """Cut the columns to the table's width now (the app calls it as soon as a resize is
        laid out, so no frame shows the old widths; the table's own resize message comes
        after the screen has painted several)."""
        if self.matrix is not None and self._table_width() != self._fitted:
            self._sync(detail=False)

    @on(MatrixTable.Resized)
    def _table_resized(self, event: MatrixTable.Resized) -> None:
        # a drag of the terminal's edge sends a burst: re-cut once, for the last of it
        if not self._resize_pending:
            self._resize_pending = True
            self.call_next(self._resized)

    def _resized(self) -> None:
        self._resize_pending = False
        self.refit()

    def _sync(self, *, detail: bool = True) -> None:
        table = self.table
        before = self._cursor_key()
        order = self._visible()
        if self._needs is None:
            self._texts = {k: self._texts_for(k) for k in self._keys}
            self._needs = column_needs(self._texts.values())
        texts = self._texts
        self._fitted = self._table_width()
        widths = column_widths(self._fitted, (), table.cell_padding, needs=self._needs)
        resized = widths != self._widths
        if resized:
            self._widths = widths
        else:
            widths = self._widths  # the same object: a row cut at these widths is found by identity
        # a filter keystroke visits up to every row: an unchanged row's cells are taken from
        # the cut cache here, without a call per row
        cut_cache = self._cut_cache
        desired: dict[str, tuple[Text, ...]] = {}
        for k in order:
            text, cached = texts[k], cut_cache.get(k)
            if cached is not None and cached[0] is text and cached[1] is widths:
                desired[k] = cached[2]
            else:
                desired[k] = self._cut(k, text, widths)
        current = self._cells
        removed = [k for k in self._order if k not in desired]
        kept = [k for k in self._order if k in desired]
        added = [k for k in order if k not in current]
        matrix_table = table if isinstance(table, MatrixTable) else None
        with self.app.batch_update():
            rebuild = (len(removed) > REFILL_THRESHOLD and len(removed) * 2 > len(current)) or (
                len(added) > REFILL_THRESHOLD and len(added) > len(kept)
            )
            if rebuild or matrix_table is None:
                # most rows come or go (a filter typed or cleared): refill in order at once
                table.clear()
                self._append(table, [(k, desired[k]) for k in order])
            else:
                matrix_table.remove_rows(removed)
                changes: dict[str, dict[str, Any]] = {}
                for k in kept:
                    cells, old = desired[k], current[k]
                    if old is not cells and old != cells:
                        changes[k] = {
                            column: now
                            for column, was, now in zip(COLUMN_KEYS, old, cells, strict=True)
                            if was != now
                        }
                # only the changed rows are repainted (the rest of the screen stays cached)
                matrix_table.update_rows(changes)
                self._append(table, [(k, desired[k]) for k in added])
                if kept + added != order:
                    position = {k: i for i, k in enumerate(order)}
                    # the name cell identifies the row (duplicates keep their relative order)
                    table.sort("name", key=lambda cell: position.get(_plain(cell), 0))
            if resized:
                if matrix_table is not None:
                    matrix_table.set_column_widths(widths)
                else:
                    for key, width in widths.items():
                        table.columns[key].width = width  # type: ignore[index]
                    table._require_update_dimensions = True
                    table.refresh()
            self._cells = desired
            self._order = order
            if before is not None and before in desired:
                index = order.index(before)
                if table.cursor_row != index:
                    table.move_cursor(row=index, animate=False)
        self._update_count()
        if detail:
            self._show_detail()

    @staticmethod
    def _append(table: DataTable[Any], rows: list[tuple[str, tuple[Text, ...]]]) -> None:
        if isinstance(table, MatrixTable):
            table.fill(rows)
        else:
            for key, cells in rows:
                table.add_row(*cells, key=key)

    def _cut(self, key: str, texts: tuple[str, ...], widths: dict[str, int]) -> tuple[Text, ...]:
        """The row's cells at ``widths``, reused while its texts and the widths stay (so an
        unchanged row is skipped by identity, not compared cell by cell)."""
        cached = self._cut_cache.get(key)
        if (
            cached is not None
            and cached[0] is texts
            and (cached[1] is widths or cached[1] == widths)
        ):
            return cached[2]
        cells = row_cells(self._rows[key], texts, widths, warned=key in self._warned)
        change = self._changes.get(key)
        if change is not None:
            cells[3].append(ROW_MARKS[change.change], style=MARK_STYLE)
        self._cut_cache[key] = (texts, widths, cells)
        return cells

    def _texts_for(self, key: str) -> tuple[str, ...]:
        """The row's texts, reused while the row, its mark and the reveal setting stay."""
        row = self._rows[key]
        warned = key in self._warned
        cached = self._cell_cache.get(key)
        if (
            cached is not None
            and cached[1] == self.reveal
            and cached[2] == warned
            and (cached[0] is row or cached[0] == row)
        ):
            return cached[3]
        texts = full_cells(row, reveal=self.reveal, warned=warned)
        mark = self._authority_marks.get(row.name)
        if mark:  # the Source column carries the runtime's authority mark
            texts = (*texts[:2], texts[2] + mark, *texts[3:])
        change = self._changes.get(key)
        if change is not None:  # review mode: the Status column makes room for the mark
            texts = (*texts[:3], texts[3] + ROW_MARKS[change.change], *texts[4:])
        self._cell_cache[key] = (row, self.reveal, warned, texts)
        return texts

    def _update_count(self) -> None:
        total = len(self._keys)
        shown = len(self._order)
        problem = self.row_filter.problem
        if problem:
            # said where the count is, so the table (unfiltered by it) is not taken for a match
            content = Content.styled(problem, "$text-error bold")
            if content != self._count_shown:
                self._count_shown = content
                self.query_one("#matrix-count", Static).update(content)
            return
        errors, warned = self._counts
        text = f"{shown}/{total}" if self.row_filter else f"{total} variables"
        parts: list[str | tuple[str, str]] = [text]
        # the counts are of the rows shown (n and p reach those); what the filter hides is
        # said apart, so "2 marked !" is never two rows nobody can see
        visible = set(self._order) if shown != total else None
        hidden: list[str] = []
        for found, what, style in (
            (errors, "in error", "$text-error"),
            # rows, by the mark they carry: the status line counts the warnings themselves
            (warned, "marked !", "$text-warning"),
        ):
            seen = len(found) if visible is None else len(found & visible)
            if seen:
                parts.append((f" · {seen} {what}", style))
            if len(found) > seen:
                hidden.append(f"{len(found) - seen} {what}")
        if hidden:
            parts.append((f" · hidden: {', '.join(hidden)}", "$text-muted"))
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
        row = self.highlighted
        pane.show_row(
            row,
            reveal=self.reveal,
            contract_lines=self._contract_lines,
            contract_file=self._contract_file,
            authority=policy_of(self.matrix) if self.matrix is not None else None,
            notes=located_warnings(row, self._located.get(row.name, ())) if row is not None else (),
            change=self._changes.get(self._cursor_key() or "") if row is not None else None,
            base=self._base,
        )

    def _render_problems(self) -> None:
        banner = self.query_one("#problems", Static)
        lines: list[Content] = []
        if self._broken:
            # stale only when a good result was shown before: never claim one that never was
            head = (
                "showing the last good result (stale) until this is fixed"
                if self.stale
                else "cannot load this workflow, so nothing is shown yet; fix this and it "
                "loads by itself"
            )
            lines.append(Content.styled(f"✗ {head}:", "bold"))
            lines += [Content(f"  {shown_problem(d)}") for d in self._broken]
        if self._problems_open:
            if not self._problems:
                lines.append(Content.styled("no problems", "$text-muted"))
            lines += [
                Content.assemble(
                    (
                        "✗ " if d.severity == "error" else "! ",
                        "$text-error" if d.severity == "error" else "$text-warning",
                    ),
                    shown_problem(d),
                )
                for d in self._problems
            ]
            notes = self.matrix.notes if self.matrix else ()
            lines += [Content.styled(f"· note: {mask_text(n)}", "$text-muted") for n in notes]
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
        """The next (``step`` 1) or previous (-1) row in error or with a warning."""
        order = self._order
        if not order:
            return
        start = self.table.cursor_row if self.table.row_count else -1
        for i in range(1, len(order) + 1):
            index = (start + step * i) % len(order)
            key = order[index]
            if self._rows[key].status == "error" or key in self._warned:
                self.table.move_cursor(row=index)
                self.table.focus()
                return
        self.notify(
            "No variable in error or with a warning"
            + (" among those shown" if self.row_filter else "")
        )

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
        """Override the env var of the highlighted config row; on any other row, say why
        nothing opens (an empty dialog would ask the user to guess a name)."""
        row = self.highlighted
        source = row.definition.get("source") if row and isinstance(row.definition, dict) else None
        kind = source.get("type") if isinstance(source, dict) else None
        raw = source.get("env_var") if isinstance(source, dict) else None
        env_var = raw if isinstance(raw, str) and raw else None
        if row is not None and kind == "config" and env_var is not None:
            self.post_message(EnvOverrideRequested(env_var, row))
            return
        if row is None:
            why = "no variable is selected"
        elif kind == "config":
            why = f"'{row.name}' declares no env_var (its default is always used)"
        else:
            why = f"'{row.name}' comes from a {kind or row.source} source, not an env var"
        self.app.notify(
            f"e overrides the env var of a config variable: {why}. Any other variable: "
            "the palette's 'Env override: any environment variable'.",
            title="Env override",
            markup=False,
        )


def shown_problem(d: Diagnostic) -> str:
    """``file:line:col: message``; ``file: message`` when no line is known (a workflow folder
    gone, a dropped launch value)."""
    return mask_text(d.format())


def warned_rows(rows: Mapping[str, Row], problems: Iterable[Diagnostic]) -> frozenset[str]:
    """Keys of the rows to mark: those with warnings of their own, and those whose definition
    holds a warning (an exposure warning, a file not found). A row in error is not marked:
    its status already says more."""
    located: set[str] = set()
    for d in problems:
        parts = d.yaml_path.split(".", 2)
        if len(parts) >= 2 and parts[0] == "definitions" and d.severity == "warning":
            located.add(parts[1])
    return frozenset(
        k for k, r in rows.items() if r.status != "error" and (r.warnings or r.name in located)
    )


def located_by_name(problems: Iterable[Diagnostic]) -> dict[str, tuple[Diagnostic, ...]]:
    """The warnings located in a definition, by the variable's name (``located_warnings``
    then reads one variable's, not every problem of the workflow for each highlighted row)."""
    out: dict[str, list[Diagnostic]] = {}
    for d in problems:
        parts = d.yaml_path.split(".", 2)
        if d.severity == "warning" and len(parts) >= 2 and parts[0] == "definitions":
            out.setdefault(parts[1], []).append(d)
    return {name: tuple(found) for name, found in out.items()}


def located_warnings(row: Row, problems: Iterable[Diagnostic]) -> tuple[str, ...]:
    """The check warnings located in ``row``'s definition that its resolution did not already
    say: what a row marked by ``warned_rows`` is marked for (a default the runtime never
    applies even when the env var is set, an exposure warning), for the detail pane."""
    out: list[str] = []
    for d in problems:
        parts = d.yaml_path.split(".", 2)
        if d.severity != "warning" or len(parts) < 2 or parts[:2] != ["definitions", row.name]:
            continue
        # the resolver's own warning is the same sentence, without the runtime's name
        if any(d.message.startswith(w) for w in row.warnings) or d.message in out:
            continue
        out.append(d.message)
    return tuple(out)


def _plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)
