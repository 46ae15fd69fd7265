"""JSON read into located nodes: every value and key keeps the file, line and column it came from.

MetadataSync files are JSON; problems found in them (an unresolvable ``@lookup:``, a condition
the evaluator refuses) are reported at the value's position. The text is first checked with
``base.jsontext.parse_json`` (its located syntax errors, nesting and long-integer guards), then
walked once by a small recursive-descent reader that builds :class:`Node` values.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from typing import Any

from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.model.matrix import Loc

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


@dataclass(eq=False)
class Node:
    """One JSON value: ``kind`` is object, array, string, number, boolean or null."""

    kind: str
    #: dict[str, Node] for objects (the last of duplicate keys wins, as JSON.parse),
    #: list[Node] for arrays, the Python value otherwise
    value: Any
    loc: Loc
    #: objects only: where each key is written
    key_locs: dict[str, Loc] = field(default_factory=dict)

    def get(self, key: str) -> Node | None:
        return self.value.get(key) if self.kind == "object" else None

    def plain(self) -> Any:
        """The value as ``json.loads`` gives it."""
        if self.kind == "object":
            return {k: v.plain() for k, v in self.value.items()}
        if self.kind == "array":
            return [v.plain() for v in self.value]
        return self.value

    def key_loc(self, key: str) -> Loc:
        return self.key_locs.get(key, self.loc)


class _Reader:
    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def loc(self, i: int) -> Loc:
        line = bisect.bisect_right(self.starts, i)
        return Loc(self.file, line, i - self.starts[line - 1] + 1)

    def skip(self, i: int) -> int:
        return _WS.match(self.text, i).end()  # type: ignore[union-attr]

    def value(self, i: int) -> tuple[Node, int]:
        i = self.skip(i)
        c = self.text[i]
        here = self.loc(i)
        if c == "{":
            members: dict[str, Node] = {}
            keys: dict[str, Loc] = {}
            i = self.skip(i + 1)
            if self.text[i] == "}":
                return Node("object", members, here, keys), i + 1
            while True:
                i = self.skip(i)
                key_at = self.loc(i)
                key, i = _scanstring(self.text, i + 1)
                i = self.skip(i) + 1  # the colon
                node, i = self.value(i)
                members.pop(key, None)
                members[key], keys[key] = node, key_at
                i = self.skip(i)
                if self.text[i] == "}":
                    return Node("object", members, here, keys), i + 1
                i += 1  # the comma
        if c == "[":
            items: list[Node] = []
            i = self.skip(i + 1)
            if self.text[i] == "]":
                return Node("array", items, here), i + 1
            while True:
                node, i = self.value(i)
                items.append(node)
                i = self.skip(i)
                if self.text[i] == "]":
                    return Node("array", items, here), i + 1
                i += 1
        if c == '"':
            s, end = _scanstring(self.text, i + 1)
            return Node("string", s, here), end
        for word, val, kind in (
            ("true", True, "boolean"),
            ("false", False, "boolean"),
            ("null", None, "null"),
        ):
            if self.text.startswith(word, i):
                return Node(kind, val, here), i + len(word)
        m = _NUMBER.match(self.text, i)
        assert m is not None  # the text was validated by parse_json
        raw = m.group()
        num: int | float = float(raw) if any(ch in raw for ch in ".eE") else int(raw)
        return Node("number", num, here), m.end()


def read_json_nodes(text: str, file: str) -> Node:
    """The located tree of ``text``; :class:`JsonTextError` (line, column, reason) when it is
    not JSON flowctx can use."""
    text = text.removeprefix("\ufeff")
    parse_json(text)
    node, _ = _Reader(text, file).value(0)
    return node


__all__ = ["JsonTextError", "Node", "read_json_nodes"]
