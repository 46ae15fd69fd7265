"""A contract parsed again after an edit inside one of its definitions: only that definition's
lines are parsed, and the result is the document ``parse_yaml_text`` gives for the whole new
text (the same data, the same marks, lines after the edit shifted by the lines it added).

A 3,000-variable contract takes about 90 ms to parse whole; an author's keystroke changes one
definition. The language server (``flowctx_tui/lsp/incremental.py``) asks for this first and
parses whole when the answer is None, which it is whenever the edit is not plainly inside one
``definitions`` entry of a block mapping, or the file uses what can tie one entry to another:

- the text of one definition (from its key's line to the next definition's or top-level key's
  line) is parsed on its own under a ``definitions:`` line at its real line number, so every
  mark is the one the whole parse gives; it must hold exactly that one key, at the column of
  every other definition, and parse without a problem;
- anchors (``&``), merge keys (``<<``), directives (``%``) and line breaks other than ``\\n`` are
  not handled (any of them anywhere in the old or the new text: None), nor a document the last
  parse found a problem in, nor a name another definition already has (a duplicate key);
- the node budget (``MAX_YAML_NODES``) counts the whole file: the old count, less the old
  definition's nodes, plus the new one's.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import MAX_YAML_NODES, PathKey, YamlDoc, parse_yaml_text

_SECTION = "definitions"
#: what the whole parse is left to: anchors and merges tie entries together, directives change
#: how tags read, other line breaks count lines differently
_UNHANDLED = ("&", "<<", "\r", "\x85", "\u2028", "\u2029", "\ufeff")

Marks = dict[PathKey, tuple[int, int]]


def reparse_yaml_text(
    old_text: str,
    old_doc: YamlDoc | None,
    old_problems: list[Diagnostic] | tuple[Diagnostic, ...],
    text: str,
    display: str,
) -> tuple[YamlDoc, list[Diagnostic]] | None:
    """``parse_yaml_text(text, display)`` computed from the parse of ``old_text`` when ``text``
    differs from it inside one definition only; None when it cannot be (parse whole)."""
    if old_doc is None or old_problems or old_doc.file != display or old_doc.nodes <= 0:
        return None
    # a text this module made its document from was looked at then
    if _unhandled(text) or (old_doc.edit is None and _unhandled(old_text)):
        return None
    data = old_doc.data
    if not isinstance(data, dict) or not isinstance(data.get(_SECTION), dict):
        return None
    defs: dict[Any, Any] = data[_SECTION]
    if old_doc.bounds is None:
        old_doc.bounds = _boundaries(old_doc, data, defs) or False
    bounds = old_doc.bounds
    if not bounds:
        return None
    starts, column, top_lines = bounds
    old_lines, lines = old_text.split("\n"), text.split("\n")
    first, old_end, _new_end = _changed(old_lines, lines)
    if first is None:
        return None  # the same text: nothing to parse
    # the definition the change starts in (0-based line of its key), and where it ends
    at = _last_at_most(starts, first)
    if at is None:
        return None
    start, name = at
    later = [line for line in top_lines if line > start]
    following = _first_after(starts, start)
    end = min([*later, *([following] if following is not None else []), len(old_lines)])
    if old_end > end:
        return None  # the change reaches past this definition
    delta = len(lines) - len(old_lines)
    # what follows the definition: an empty value's mark is where the next token starts
    after = None if end == len(old_lines) else (column if end not in later else 1)
    old_part = _parse_part(old_lines[start:end], start, after)
    new_part = _parse_part(lines[start : end + delta], start, after)
    if old_part is None or new_part is None:
        return None
    old_doc_part, old_nodes = old_part
    new_doc_part, new_nodes = new_part
    old_key, old_value = _single(old_doc_part, start, column, after)
    new_key, new_value = _single(new_doc_part, start, column, after)
    if old_key is _NONE or new_key is _NONE or old_key != name or old_value != defs[name]:
        return None  # not parsed as the whole file parsed it: leave it to the whole parse
    if new_key != name and new_key in defs:
        return None  # a duplicate key: the whole parse says so
    nodes = old_doc.nodes - old_nodes + new_nodes
    if nodes > MAX_YAML_NODES:
        return None
    if new_key == name:
        new_defs = dict(defs)
        new_defs[name] = new_value
    else:
        new_defs = {
            (new_key if k == name else k): (new_value if k == name else v) for k, v in defs.items()
        }
    new_data = {k: (new_defs if k == _SECTION else v) for k, v in data.items()}
    doc = YamlDoc(
        display, new_data, nodes=nodes, from_part=True, edit=(name, new_key, delta, id(old_doc))
    )
    # the definitions' lines as they stand now: the same, those after the edit moved
    doc.bounds = (
        [(s + delta if s > start else s, new_key if s == start else n) for s, n in starts]
        if delta or new_key != name
        else starts,
        column,
        [line + delta if line > start else line for line in top_lines],
    )
    old_at, new_at = (_SECTION, name), (_SECTION, new_key)
    doc.key_marks = _marks(
        old_doc.key_marks,
        old_doc_part.key_marks,
        old_at,
        new_doc_part.key_marks,
        new_at,
        end,
        delta,
    )
    doc.value_marks = _marks(
        old_doc.value_marks,
        old_doc_part.value_marks,
        old_at,
        new_doc_part.value_marks,
        new_at,
        end,
        delta,
    )
    return doc, []


class _None:
    pass


_NONE: Any = _None()


def _boundaries(
    doc: YamlDoc, data: dict[Any, Any], defs: dict[Any, Any]
) -> tuple[list[tuple[int, Any]], int, list[int]] | None:
    """Each definition's key line (0-based, in file order), their common column, and the
    top-level keys' lines; None unless both mappings are block mappings as parsed."""
    keys = doc.key_marks
    top: list[int] = []
    for k in data:
        mark = keys.get((k,))
        if mark is None or mark[1] != 1:
            return None
        top.append(mark[0] - 1)
    if doc.value_marks.get(()) != min(((line + 1, 1) for line in top), default=None):
        return None  # not a block mapping at the top
    section = keys[(_SECTION,)]
    starts: list[tuple[int, Any]] = []
    column = 0
    previous = section[0] - 1
    for name in defs:
        mark = keys.get((_SECTION, name))
        if mark is None or mark[0] - 1 <= previous or (column and mark[1] != column):
            return None
        column = mark[1]
        previous = mark[0] - 1
        starts.append((previous, name))
    if not starts or column <= 1:
        return None
    first = keys[(_SECTION, next(iter(defs)))]
    if doc.value_marks.get((_SECTION,)) != first:
        return None  # a flow mapping (``{``), whose lines are no entries of their own
    return starts, column, top


def _changed(old: list[str], new: list[str]) -> tuple[int | None, int, int]:
    """The first line that differs, and the end (exclusive) of the differing lines in the old
    and the new list once the common tail is set aside; None when the lists are equal."""
    if old == new:
        return None, 0, 0
    limit = min(len(old), len(new))
    first = common_prefix(old, new, limit)
    tail = common_prefix(old[::-1], new[::-1], limit - first)
    return first, len(old) - tail, len(new) - tail


def common_prefix(a: Sequence[Any], b: Sequence[Any], limit: int) -> int:
    """How many leading items (lines, characters) ``a`` and ``b`` share, at most ``limit``:
    by halves, each comparison of slices being C's."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _unhandled(text: str) -> bool:
    """Whether ``text`` uses what is left to the whole parse (``_UNHANDLED``, directives)."""
    return any(mark in text for mark in _UNHANDLED) or text.startswith("%") or "\n%" in text


def _last_at_most(starts: list[tuple[int, Any]], line: int) -> tuple[int, Any] | None:
    i = bisect_right(starts, line, key=_LINE)
    return starts[i - 1] if i else None


def _first_after(starts: list[tuple[int, Any]], line: int) -> int | None:
    i = bisect_right(starts, line, key=_LINE)
    return starts[i][0] if i < len(starts) else None


_LINE = itemgetter(0)


#: the key of the line put after a part, where the next definition or top-level key stands
_NEXT = "_"


def _parse_part(lines: list[str], start: int, after: int | None) -> tuple[YamlDoc, int] | None:
    """One definition's lines parsed under a ``definitions:`` line, at their own line numbers,
    followed (unless the file ends there) by a key ``_`` at the column of what follows it in
    the file: an empty value's mark is where the next token starts, and a block scalar's last
    line keeps its line break. With its node count, the frame's own nodes (the ``definitions``
    key and its mapping, the document's mapping, the next key and its empty value) set aside.
    None on any problem."""
    text = "\n" * (start - 1) + _SECTION + ":\n" + "\n".join(lines)
    frame = 3
    if after is not None:
        text += "\n" + " " * (after - 1) + _NEXT + ":\n"
        frame += 2
    doc, problems = parse_yaml_text(text, "")
    if doc is None or problems:
        return None
    return doc, doc.nodes - frame


def _single(doc: YamlDoc, start: int, column: int, after: int | None) -> tuple[Any, Any]:
    """The one definition a part holds (key, value), if it holds exactly that key at its first
    line and the definitions' column, and the key put after it where it was put; else
    ``_NONE``."""
    data = doc.data
    top = [_SECTION, _NEXT] if after == 1 else [_SECTION]
    if not isinstance(data, dict) or list(data) != top:
        return _NONE, None
    inner = data[_SECTION]
    size = 2 if after is not None and after > 1 else 1
    if not isinstance(inner, dict) or len(inner) != size:
        return _NONE, None
    key = next(iter(inner))
    if size == 2 and (key == _NEXT or list(inner)[1] != _NEXT):
        return _NONE, None
    if doc.key_marks.get((_SECTION, key)) != (start + 1, column):
        return _NONE, None
    return key, inner[key]


def _marks(
    old: Marks,
    old_part: Marks,
    old_at: PathKey,
    new_part: Marks,
    new_at: PathKey,
    end: int,
    delta: int,
) -> Marks:
    """The old marks without the old definition's (those under ``old_at``), lines after it
    shifted by ``delta``, with the new definition's (under ``new_at``)."""
    size = len(old_at)
    mine = [p for p in old_part if p[:size] == old_at]
    if delta:
        gone = set(mine)
        out = {
            p: ((line + delta, col) if line > end else (line, col))
            for p, (line, col) in old.items()
            if p not in gone
        }
    else:
        out = dict(old)
        for p in mine:
            out.pop(p, None)
    for p, mark in new_part.items():
        if p[:size] == new_at:
            out[p] = mark
    return out


__all__ = ["reparse_yaml_text"]
