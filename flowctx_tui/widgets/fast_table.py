"""Every override of Textual's DataTable internals, in one place: ``FastTable``.

DataTable has no public way to append rows in a batch, repaint a few rows or keep rendered cells
across a refill, so ``FastTable`` does it through DataTable's private state and methods, kept
exactly as DataTable's own public methods keep them. Textual is pinned (pyproject.toml) and
``tests/tui/test_textual_internals.py`` names every internal used here, so a Textual release
that moves one fails there by name instead of the matrix silently showing stale lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from rich.style import Style
from textual._two_way_dict import TwoWayDict
from textual._types import SegmentLines
from textual.cache import LRUCache
from textual.coordinate import Coordinate
from textual.geometry import Region, Spacing
from textual.widgets import DataTable
from textual.widgets.data_table import CellKey, ColumnKey, DuplicateKey, RowDoesNotExist, RowKey
from textual.widgets.data_table import Row as DataTableRow

_Key = TypeVar("_Key", bound=tuple[Any, ...])


class FastTable(DataTable[Any]):
    """A DataTable for many one-line rows with explicit column widths.

    Two fast paths beside DataTable's own (whose private state they keep exactly as its public
    methods would; Textual is pinned, and tests/tui/test_textual_internals.py names what they
    rely on):

    * ``fill`` appends many rows at once: what ``add_row`` does, once per batch instead of once
      per row (each ``add_row`` re-validates the cursor and invalidates every cached line);
    * ``update_rows`` changes cells of a few rows and repaints only those rows: DataTable's
      caches are keyed on one update counter, so one ``update_cell`` re-renders every line on
      screen; here only the changed rows' entries are dropped from its caches;
    * ``remove_rows`` removes many rows at once: what ``remove_row`` does, whose re-indexing of
      every row after the removed one (in Python, a few ms at 3,000 rows) ran once per row.

    Every column has an explicit width and every row one line, so new rows need no measuring
    (``_update_dimensions`` measured every cell of every new row, for widths never used), and
    a row's place on screen is its index: DataTable summed the heights of every row above it
    (``ordered_rows``, rebuilt in Python after each change, several times per filter keystroke
    at 3,000 rows). A row added another way (``add_row`` with another height, a label) turns
    that off for good.
    """

    #: above this many changed rows, invalidating everything is cheaper than picking entries
    INCREMENTAL_ROWS = 256
    #: rendered cells kept by content (a few screenfuls)
    CONTENT_CACHE_SIZE = 4000

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        #: rendered cells keyed on what the rendering reads (below), not on DataTable's update
        #: counter: a filter, sort or refill bumps that counter and would re-render every cell
        #: on screen, though most show the same value at the same place as before
        self._content_cache: LRUCache[tuple[Any, ...], tuple[object, SegmentLines]] = LRUCache(
            self.CONTENT_CACHE_SIZE
        )
        self._line_content_cache: LRUCache[
            tuple[Any, ...], tuple[tuple[object, ...], tuple[SegmentLines, SegmentLines]]
        ] = LRUCache(self.CONTENT_CACHE_SIZE // 4)
        #: every row is one line high, with no label (see the class)
        self._one_line = True
        super().__init__(*args, **kwargs)  # after: DataTable's set-up may clear the caches

    def add_row(self, *cells: Any, height: int | None = 1, **kwargs: Any) -> RowKey:
        if height != 1 or kwargs.get("label") is not None:
            self._one_line = False
        return super().add_row(*cells, height=height, **kwargs)

    @property
    def ordered_rows(self) -> list[DataTableRow]:
        """DataTable's, cached the same way, built in one pass over the index map."""
        key = (self.row_count, self._update_count)
        cached = self._ordered_row_cache.get(key)
        if cached is None:
            rows = self.rows
            at = self._row_locations.get_key
            cached = [rows[k] for k in map(at, range(len(rows))) if k is not None]
            self._ordered_row_cache[key] = cached
        return cached

    @property
    def _y_offsets(self) -> list[tuple[RowKey, int]]:
        if not self._one_line:
            return DataTable._y_offsets.fget(self)  # type: ignore[attr-defined,no-any-return]
        count = self._update_count
        cached = self._offset_cache.get(count)
        if cached is None:  # line y is row y, the row's first and only line
            at = self._row_locations.get_key
            cached = [(k, 0) for k in map(at, range(self.row_count)) if k is not None]
            self._offset_cache[count] = cached
        return cached

    def _get_row_region(self, row_index: int) -> Region:
        if not self._one_line or not self.is_valid_row_index(row_index):
            return super()._get_row_region(row_index)
        width = sum(column.get_render_width(self) for column in self.columns.values())
        width += self._row_label_column_width
        y = row_index + (self.header_height if self.show_header else 0)
        return Region(0, y, max(self.size.width, width), 1)

    def _get_fixed_offset(self) -> Spacing:
        if self.fixed_rows or not self._one_line:
            return super()._get_fixed_offset()
        # no fixed rows: nothing to sum (DataTable built every row's list to slice none of it)
        left = sum(
            column.get_render_width(self) for column in self.ordered_columns[: self.fixed_columns]
        )
        top = self.header_height if self.show_header else 0
        return Spacing(top, 0, 0, left + self._row_label_column_width)

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        if any(column.auto_width for column in self.columns.values()):
            super()._update_dimensions(new_rows)
            return
        # explicit widths, no labels, no auto heights (this table never adds them): the
        # measuring loop over ``new_rows`` would change nothing; the virtual size still follows
        super()._update_dimensions(())

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: Style,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        """DataTable's rendering of a body cell, reused while everything it reads is the same.

        The key holds what ``DataTable._render_cell`` reads: the place (its mouse meta names the
        row and column index; zebra stripes and the row's style come in ``base_style``), the
        width, the cursor and hover flags, the pseudo classes and the cursor settings, and the
        cell's value by identity (the entry keeps the value, so a hit is that very object; the
        matrix never mutates a cell once it is in the table, a changed cell is a new object).
        So it outlives ``clear()`` and the refills of a filter, which DataTable's caches do not;
        the settings DataTable clears its caches for (cursor shown, fixed rows and columns,
        padding, zebra stripes through ``base_style``) are in the key, and a style change (a
        theme) clears it.
        """
        if row_index < 0 or column_index < 0:  # the header and row labels: DataTable's own
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = self._row_locations.get_key(row_index)
        column_key = self._column_locations.get_key(column_index)
        row = self._data.get(row_key) if row_key is not None else None
        meta = self.rows.get(row_key) if row_key is not None else None
        if row is None or meta is None or column_key is None or column_key not in row:
            return super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        value = row[column_key]
        key = (
            row_index,
            column_index,
            id(value),
            width,
            base_style,
            cursor,
            hover,
            self._show_hover_cursor,
            self._pseudo_class_state,
            self.show_cursor,
            self.cursor_foreground_priority,
            self.cursor_background_priority,
            self.fixed_rows,
            self.fixed_columns,
            self.cell_padding,
            meta.height,
            meta.auto_height,
        )
        hit = self._content_cache.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
        lines = super()._render_cell(row_index, column_index, base_style, width, cursor, hover)
        self._content_cache[key] = (value, lines)
        return lines

    def _render_line_in_row(
        self,
        row_key: RowKey,
        line_no: int,
        base_style: Style,
        cursor_location: Coordinate,
        hover_location: Coordinate,
    ) -> tuple[SegmentLines, SegmentLines]:
        """DataTable's rendering of a body row's line, reused while everything it reads is the
        same: as ``_render_cell``, with every cell of the row by identity, every column's
        width and the widget's width (the row is padded out to it)."""
        index = self._row_locations.get(row_key)
        row = self._data.get(row_key)
        if index is None or row is None or self._labelled_row_exists:
            return super()._render_line_in_row(
                row_key, line_no, base_style, cursor_location, hover_location
            )
        values = tuple(row.values())
        key = (
            index,
            line_no,
            tuple(map(id, values)),
            tuple(column.get_render_width(self) for column in self.ordered_columns),
            self.size.width,
            base_style,
            cursor_location,
            hover_location,
            self.cursor_type,
            self.show_cursor,
            self._show_hover_cursor,
            self._pseudo_class_state,
            self.cursor_foreground_priority,
            self.cursor_background_priority,
            self.fixed_rows,
            self.fixed_columns,
            self.cell_padding,
        )
        hit = self._line_content_cache.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], values, strict=True)):
            return hit[1]
        pair = super()._render_line_in_row(
            row_key, line_no, base_style, cursor_location, hover_location
        )
        self._line_content_cache[key] = (values, pair)
        return pair

    def notify_style_update(self) -> None:
        # component styles (a theme) are not in the keys
        self._content_cache.clear()
        self._line_content_cache.clear()
        super().notify_style_update()

    def set_column_widths(self, widths: Mapping[str, int]) -> None:
        """New explicit widths: every cached line is stale (row renders are not keyed on the
        widths), so they all go, as DataTable's own column changes do."""
        for key, width in widths.items():
            self.columns[ColumnKey(key)].width = width
        # DataTable has no public call to re-lay out explicit widths; this is what its own
        # column changes set
        self._require_update_dimensions = True
        self._update_count += 1
        self.refresh()

    def fill(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Append ``(key, cells)`` rows in order (one line high, no label)."""
        columns = [column.key for column in self.ordered_columns]
        locations, data, table_rows, new_rows = (
            self._row_locations,
            self._data,
            self.rows,
            self._new_rows,
        )
        was_empty = self.row_count == 0
        start = index = self.row_count
        for key, cells in rows:
            row_key = RowKey(key)
            if row_key in locations:
                raise DuplicateKey(f"The row key {row_key!r} already exists.")
            locations[row_key] = index
            data[row_key] = dict(zip(columns, cells, strict=True))
            table_rows[row_key] = DataTableRow(row_key, 1, None, False)
            new_rows.add(row_key)
            index += 1
        if index > start:
            self._require_update_dimensions = True
            self.cursor_coordinate = self.cursor_coordinate  # clamp, as add_row does
            visible_cursor = self.show_cursor and self.cursor_type != "none"
            if was_empty and len(self.columns) > 0 and visible_cursor:
                self._highlight_cursor()
            self._update_count += 1
            self.check_idle()

    def remove_rows(self, keys: Iterable[str]) -> None:
        """Remove the rows with these keys, the others keeping their order."""
        gone = {RowKey(k) for k in keys}
        if not gone:
            return
        locations = self._row_locations
        for key in gone:
            if key not in locations:
                raise RowDoesNotExist(f"Row key {key!r} is not valid.")
        at = locations.get_key
        # every index 0..n-1 has its key (DataTable keeps them dense)
        kept = [k for k in map(at, range(len(locations))) if k is not None and k not in gone]
        self._row_locations = TwoWayDict({key: index for index, key in enumerate(kept)})
        columns = list(self.columns)
        for key in gone:
            # as remove_row: the removed cells must not trigger dimension updates
            self._updated_cells.difference_update(CellKey(key, column) for column in columns)
            del self.rows[key]
            del self._data[key]
        self._require_update_dimensions = True
        self.check_idle()
        self.cursor_coordinate = self.cursor_coordinate
        self.hover_coordinate = self.hover_coordinate
        self._update_count += 1
        self.refresh(layout=True)

    def update_rows(self, changes: Mapping[str, Mapping[str, Any]]) -> None:
        """Set the given cells (row key -> column key -> value) and repaint only their rows."""
        if not changes:
            return
        data = self._data
        for key, cells in changes.items():
            row = data[RowKey(key)]
            for column, value in cells.items():
                row[ColumnKey(column)] = value
        if len(changes) > self.INCREMENTAL_ROWS:
            self._update_count += 1  # every cached line is stale: DataTable's own way
            self.refresh()
            return
        keys = {RowKey(k) for k in changes}
        header = self.header_height if self.show_header else 0
        # every key is in the table (its cells were just set above); the filter is for the type
        indices = {i for i in map(self._row_locations.get, keys) if i is not None}
        lines = {header + i for i in indices}  # every row is one line high
        _drop(self._cell_render_cache, lambda key: key[0] in keys)  # (row key, column, ...)
        _drop(self._row_render_cache, lambda key: key[0] in keys)  # (row key, line, ...)
        _drop(self._row_renderable_cache, lambda key: key[1] in indices)  # (count, index)
        _drop(self._line_cache, lambda key: key[0] in lines)  # (y, x1, x2, ...)
        width = max(self.size.width, self.virtual_size.width)
        window = self.window_region
        for y in lines:
            region = Region(0, y, width, 1)
            if window.overlaps(region):
                self.refresh(region.translate(-self.scroll_offset))


def _drop(cache: LRUCache[_Key, Any], stale: Callable[[_Key], bool]) -> None:
    """Discard the entries of one of DataTable's render caches whose key is stale."""
    # LRUCache has keys() but no iteration of its own
    for key in [k for k in cache.keys() if stale(k)]:  # noqa: SIM118
        cache.discard(key)
