"""Text that remembers where each character came from.

The ``${var}`` engines rewrite an expression as text (regular-expression substitutions) before
Python parses it. To point errors and explain lines at what the author wrote, each character of
the rewritten text carries the span of the original text it stands for: a copied character its
own offset, an inserted one the whole match it replaced.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from flowctx_core.expressions.python import add_spans, line_starts
from flowctx_core.expressions.sandbox import ExpressionError, set_span, span_of


@dataclass(frozen=True, slots=True)
class MappedText:
    text: str
    starts: tuple[int, ...]  # original offset where each character's source begins
    ends: tuple[int, ...]  # original offset just after it

    @classmethod
    def of(cls, text: str) -> MappedText:
        return cls(text, tuple(range(len(text))), tuple(range(1, len(text) + 1)))

    @classmethod
    def inserted(cls, text: str, start: int, end: int) -> MappedText:
        """``text`` standing for the original span ``start:end``."""
        return cls(text, (start,) * len(text), (end,) * len(text))

    def __add__(self, other: MappedText) -> MappedText:
        return MappedText(
            self.text + other.text, self.starts + other.starts, self.ends + other.ends
        )

    def slice(self, start: int, end: int) -> MappedText:
        return MappedText(self.text[start:end], self.starts[start:end], self.ends[start:end])

    def span(self, start: int, end: int, size: int) -> tuple[int, int]:
        """The original span of ``text[start:end]`` (``size``: the original's length)."""
        if start >= len(self.text):
            return (size, size)
        first = self.starts[start]
        last = self.ends[end - 1] if end > start else first
        return (first, max(last, first))

    def sub(
        self, pattern: re.Pattern[str], repl: Callable[[re.Match[str], MappedText], MappedText]
    ) -> MappedText:
        """``pattern.sub`` where ``repl`` builds each replacement as mapped text."""
        parts: list[MappedText] = []
        at = 0
        for match in pattern.finditer(self.text):
            parts.append(self.slice(at, match.start()))
            parts.append(repl(match, self))
            at = match.end()
        if not parts:
            return self
        parts.append(self.slice(at, len(self.text)))
        return _join(parts)

    def sub_text(self, pattern: re.Pattern[str], replacement: str) -> MappedText:
        """``pattern.sub`` with a literal replacement standing for each whole match."""

        def repl(match: re.Match[str], _: MappedText) -> MappedText:
            start, end = self.span(match.start(), match.end(), match.end())
            return MappedText.inserted(replacement, start, end)

        return self.sub(pattern, repl)

    def replace(self, old: str, new: MappedText | str) -> MappedText:
        """``str.replace`` (every occurrence, left to right, no rescanning)."""
        if not old or old not in self.text:
            return self
        parts: list[MappedText] = []
        at = 0
        while True:
            found = self.text.find(old, at)
            if found < 0:
                break
            parts.append(self.slice(at, found))
            if isinstance(new, str):
                start, end = self.span(found, found + len(old), found + len(old))
                parts.append(MappedText.inserted(new, start, end))
            else:
                parts.append(new)
            at = found + len(old)
        parts.append(self.slice(at, len(self.text)))
        return _join(parts)


def _join(parts: list[MappedText]) -> MappedText:
    return MappedText(
        "".join(p.text for p in parts),
        tuple(i for p in parts for i in p.starts),
        tuple(i for p in parts for i in p.ends),
    )


def quiet_parse(text: str) -> ast.expr:
    """``ast.parse`` in eval mode without Python's syntax warnings (an invalid escape in a
    string literal is the author's text, reported by the engine's own rules or not at all)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text, mode="eval").body


def parser_gave_up(exc: RecursionError | MemoryError) -> str:
    """What an engine says when Python's parser gives up on deep nesting. The engines parse
    with this same parser and say its words first: a RecursionError's ("maximum recursion
    depth exceeded during ast construction"); a MemoryError has none (AG2's message ends after
    its "...: ", the Mozaiks runtime's log shows "MemoryError: "), so flowctx's why follows
    the empty words."""
    why = "Python's parser gives up on text nested this deeply"
    return f"{exc}; {why}" if str(exc) else f"; {why} (a MemoryError, which has no words)"


def parse_mapped(source: MappedText, original: str) -> ast.expr:
    """``ast.parse`` of rewritten text in eval mode; spans and errors point into ``original``.

    Raises ``SyntaxError``-derived ``ExpressionError`` with Python's own message.
    """
    size = len(original)
    try:
        tree = quiet_parse(source.text)
    except SyntaxError as exc:
        start = end = None
        if exc.offset == 0:
            # Python's offset 0 in eval mode is the end of the input ('x >', 'a and'): point
            # there, not at the first character
            start = end = len(original.rstrip())
        elif exc.lineno is not None and exc.offset is not None:
            starts = line_starts(source.text)
            base = starts[min(exc.lineno, len(starts)) - 1]
            at = min(base + max(exc.offset - 1, 0), max(len(source.text) - 1, 0))
            start, end = source.span(at, at + 1, size) if source.text else (0, 0)
        # Python's own words, as the engines' ast.parse raises them: the message, then
        # "(<unknown>, line N)" (the file name ast.parse gives)
        raise ExpressionError(str(exc), start, end) from None
    except (RecursionError, MemoryError) as exc:
        raise ExpressionError(parser_gave_up(exc), 0, size) from None
    except ValueError as exc:  # null bytes, text that is not UTF-8 encodable: Python's words
        raise ExpressionError(str(exc), 0, size) from None
    _spans(tree, source, size)
    return tree


def _spans(tree: ast.AST, source: MappedText, size: int) -> None:
    add_spans(tree, source.text)
    for node in ast.walk(tree):
        if hasattr(node, "fx_start"):
            start, end = span_of(node)
            set_span(node, *source.span(start, end, size))
