"""Every Textual internal flowctx relies on, by name.

``flowctx_tui/app.py`` extends the screen's private resize handler (the breakpoint class first);
``flowctx_tui/widgets/json_editor.py`` overrides private parts of Textual's TextArea for its
large-document speed-ups, and ``flowctx_tui/widgets/fast_table.py`` private parts of DataTable
for its batch ``fill`` and row-only repaint (``update_rows``); neither has a public equivalent.
pyproject.toml pins Textual to the range they were written for. When a new Textual is allowed,
this test says exactly which of them moved, instead of the editor getting slow or the matrix
silently showing stale lines.
"""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable, TextArea
from textual.widgets.data_table import RowKey

from flowctx_tui.widgets.fast_table import FastTable

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _pinned_range() -> tuple[tuple[int, ...], tuple[int, ...]]:
    match = re.search(r'"textual\[syntax\]>=([\d.]+),<([\d.]+)"', PYPROJECT.read_text())
    assert match, "pyproject.toml must pin textual[syntax] as >=X,<Y (see json_editor.py)"
    low, high = (tuple(int(p) for p in v.split(".")) for v in match.groups())
    return low, high


def test_the_installed_textual_is_the_pinned_one() -> None:
    low, high = _pinned_range()
    installed = tuple(int(p) for p in re.findall(r"\d+", version("textual"))[:3])
    assert low <= installed < high, (
        f"Textual {version('textual')} is outside {low}..{high}: re-check json_editor.py's "
        "overrides against it, then move the pin"
    )


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("textual.document._document", "Document"),
        ("textual.document._document", "EditResult"),
        ("textual.document._wrapped_document", "WrappedDocument"),
        # fast_table.py's render signatures
        ("textual._types", "SegmentLines"),
        # widgets/footer.py adds a key to the footer as Textual draws its own
        ("textual.widgets._footer", "FooterKey"),
        # fast_table.py's remove_rows re-indexes the rows into a new one
        ("textual._two_way_dict", "TwoWayDict"),
    ],
)
def test_the_private_names_are_where_flowctx_imports_them(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), f"{module}.{name} moved"


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("_set_document", ["self", "text", "language"]),
        ("_rewrap_and_refresh_virtual_size", ["self"]),
        ("_refresh_size", ["self"]),
        ("_refresh_scrollbars", ["self"]),
        ("find_matching_bracket", ["self", "bracket", "search_from"]),
    ],
)
def test_the_overridden_text_area_methods_keep_their_signatures(
    method: str, params: list[str]
) -> None:
    found = getattr(TextArea, method, None)
    assert found is not None, f"TextArea.{method} is gone: json_editor.py overrides it"
    assert list(inspect.signature(found).parameters) == params, f"TextArea.{method} changed"


def test_the_screen_resize_handler_app_py_extends_is_there() -> None:
    from textual.screen import Screen

    # app.py's MainScreen sets the breakpoint class before Textual's own resize handling
    found = getattr(Screen, "_on_resize", None)
    assert found is not None, "Screen._on_resize is gone: app.py's MainScreen extends it"
    assert list(inspect.signature(found).parameters) == ["self", "event"]
    assert inspect.iscoroutinefunction(found)


def test_the_wrapped_document_keeps_the_state_the_editor_reads() -> None:
    from textual.document._document import Document
    from textual.document._wrapped_document import WrappedDocument

    wrapped = WrappedDocument(Document("a\nbb\n"), width=0, tab_width=4)
    # _CountedWrap reads the visual-line table; the resize shortcut reads width and tab width
    assert len(wrapped._offset_to_line_info) == wrapped.height
    assert wrapped._width == 0 and wrapped._tab_width == 4


# --- DataTable (fast_table.py) ---------------------------------------------------------

# LRUCache has keys() but is not iterable itself (hence the noqa: SIM118 below)
DATA_TABLE_ATTRIBUTES = (
    "_row_locations",
    "_column_locations",
    "_show_hover_cursor",
    "_data",
    "_new_rows",
    "_cell_render_cache",
    "_row_render_cache",
    "_row_renderable_cache",
    "_line_cache",
    "_update_count",
    "_require_update_dimensions",
    "_updated_cells",
)


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield FastTable()


async def test_the_private_state_is_where_fast_table_keeps_it() -> None:
    app = One()
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(FastTable)
        for name in DATA_TABLE_ATTRIBUTES:
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
        # remove_rows: the location map remove_row rebuilds, by the same type
        assert type(table._row_locations).__name__ == "TwoWayDict"
        table.remove_rows(["r1"])
        await pilot.pause()
        assert [r.key.value for r in table.ordered_rows] == ["r2"]
        assert "new" in table.render_line(1).text


async def test_the_one_line_shortcuts_give_what_data_table_computes() -> None:
    # FastTable places a row at its index instead of summing the heights above it: the same
    # offsets, regions and row order as DataTable's own code, until a taller row arrives
    app = One()
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(FastTable)
        table.add_column("a", key="a", width=5)
        table.fill([(f"r{i}", (Text(str(i)),)) for i in range(30)])
        table.remove_rows(["r3", "r17"])
        table.sort("a", key=lambda cell: -int(cell.plain))
        await pilot.pause()

        def data_tables_own() -> tuple[object, ...]:
            return (
                DataTable.ordered_rows.fget(table),  # type: ignore[attr-defined]
                DataTable._y_offsets.fget(table),  # type: ignore[attr-defined]
                [DataTable._get_row_region(table, i) for i in range(table.row_count)],
                DataTable._get_fixed_offset(table),
            )

        def fast_tables() -> tuple[object, ...]:
            return (
                table.ordered_rows,
                table._y_offsets,
                [table._get_row_region(i) for i in range(table.row_count)],
                table._get_fixed_offset(),
            )

        assert fast_tables() == data_tables_own()
        assert [r.key.value for r in table.ordered_rows][:3] == ["r29", "r28", "r27"]
        table.add_row(Text("tall"), height=2, key="tall")
        await pilot.pause()
        assert fast_tables() == data_tables_own()
        assert table._y_offsets[-2:] == [(RowKey("tall"), 0), (RowKey("tall"), 1)]
