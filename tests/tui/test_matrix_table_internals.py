"""The DataTable internals ``MatrixTable`` (flowctx_tui/widgets/matrix.py) relies on.

Its batch ``fill`` and row-only repaint (``update_rows``) keep DataTable's private state as its
own methods would; Textual is pinned (pyproject.toml). When a new Textual is allowed, this says
which of them moved instead of the matrix silently showing stale lines.
"""

from __future__ import annotations

import inspect

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from flowctx_tui.widgets.matrix import MatrixTable

# LRUCache has keys() but is not iterable itself (hence the noqa: SIM118 below)
ATTRIBUTES = (
    "_row_locations",
    "_data",
    "_new_rows",
    "_cell_render_cache",
    "_row_render_cache",
    "_row_renderable_cache",
    "_line_cache",
    "_update_count",
    "_require_update_dimensions",
)


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield MatrixTable()


async def test_the_private_state_is_where_matrix_table_keeps_it() -> None:
    app = One()
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(MatrixTable)
        for name in ATTRIBUTES:
            assert hasattr(table, name), f"DataTable.{name} moved"
        assert callable(table._highlight_cursor)
        params = list(inspect.signature(DataTable._update_dimensions).parameters)
        assert params == ["self", "new_rows"]
        # the rendering the matrix's own cell and line caches wrap, and what their keys read
        cell = list(inspect.signature(DataTable._render_cell).parameters)
        assert cell == [
            "self",
            "row_index",
            "column_index",
            "base_style",
            "width",
            "cursor",
            "hover",
        ]
        line = list(inspect.signature(DataTable._render_line_in_row).parameters)
        assert line == [
            "self",
            "row_key",
            "line_no",
            "base_style",
            "cursor_location",
            "hover_location",
        ]
        assert hasattr(table, "_pseudo_class_state") and hasattr(table, "_labelled_row_exists")
        table.add_column("a", key="a", width=5)
        table.add_column("b", key="b", width=5)
        table.fill([("r1", (Text("x"), Text("y"))), ("r2", (Text("z"), Text("w")))])
        await pilot.pause()
        assert [r.key.value for r in table.ordered_rows] == ["r1", "r2"]
        # the cache keys update_rows picks entries out by
        assert all(isinstance(k[0], RowKey) for k in table._cell_render_cache.keys())  # noqa: SIM118
        assert all(isinstance(k[0], RowKey) for k in table._row_render_cache.keys())  # noqa: SIM118
        assert all(isinstance(k[1], int) for k in table._row_renderable_cache.keys())  # noqa: SIM118
        assert all(isinstance(k[0], int) for k in table._line_cache.keys())  # noqa: SIM118
        table.update_rows({"r2": {"b": Text("new")}})
        await pilot.pause()
        assert "new" in table.render_line(2).text
        assert "y" in table.render_line(1).text
