"""The Textual internals the JSON editor's large-document speed-ups rely on.

``flowctx_tui/widgets/json_editor.py`` overrides private parts of Textual's TextArea (they have
no public equivalent); pyproject.toml pins Textual to the range they were written for. When a
new Textual is allowed, this test says exactly which of them moved, instead of the editor
silently getting slow or breaking.
"""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from textual.widgets import TextArea

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
    ],
)
def test_the_private_classes_are_where_the_editor_imports_them(module: str, name: str) -> None:
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


def test_the_wrapped_document_keeps_the_state_the_editor_reads() -> None:
    from textual.document._document import Document
    from textual.document._wrapped_document import WrappedDocument

    wrapped = WrappedDocument(Document("a\nbb\n"), width=0, tab_width=4)
    # _CountedWrap reads the visual-line table; the resize shortcut reads width and tab width
    assert len(wrapped._offset_to_line_info) == wrapped.height
    assert wrapped._width == 0 and wrapped._tab_width == 4
