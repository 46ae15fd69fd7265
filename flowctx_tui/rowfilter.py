"""The matrix filter typed by the user: ``status:error``, ``source:file``, free text.

Words are ANDed. ``key:value`` narrows a column (``name``, ``status``, ``source``, ``type``,
``agent``; a value matches by prefix, ``status:err`` finds errors; commas give alternatives,
``status:error,fallback``); a leading ``-`` negates a word; anything else must appear in the
variable's name (case-insensitive). A ``key:`` that names no column is not a filter but a
mistake: it filters nothing and ``problem`` says so (no variable name holds a colon, so taken
as a name it would empty the table without a word).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from flowctx_core.base.diagnostics import did_you_mean
from flowctx_core.model.matrix import Row

K = TypeVar("K")

FIELDS: dict[str, Callable[[Row], tuple[str, ...]]] = {
    "name": lambda r: (r.name,),
    "status": lambda r: (r.status,),
    "source": lambda r: (r.source,),
    "type": lambda r: (r.type,),
    "agent": lambda r: r.agents,
}


@dataclass(frozen=True)
class Term:
    field: str | None  # None: the name
    values: tuple[str, ...]
    negate: bool = False

    def matches(self, row: Row) -> bool:
        if self.field is None:
            hit = any(v in row.name.lower() for v in self.values)
        else:
            have = [h.lower() for h in FIELDS[self.field](row)]
            hit = any(h.startswith(v) for h in have for v in self.values)
        return hit != self.negate


@dataclass(frozen=True)
class RowFilter:
    terms: tuple[Term, ...] = ()
    #: the ``key:`` words whose key names no column, as typed
    unknown: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> RowFilter:
        terms = []
        unknown: list[str] = []
        for word in text.lower().split():
            negate = word.startswith("-") and len(word) > 1
            if negate:
                word = word[1:]
            key, sep, value = word.partition(":")
            if sep and key in FIELDS:
                values = tuple(v for v in value.split(",") if v)
                if values:
                    terms.append(Term(key, values, negate))
                continue
            if sep and key.isidentifier():
                if key not in unknown:
                    unknown.append(key)
                continue
            terms.append(Term(None, (word,), negate))
        return cls(tuple(terms), tuple(unknown))

    @property
    def problem(self) -> str:
        """Why part of the filter is ignored (an unknown column), or ``""``."""
        if not self.unknown:
            return ""
        known = ", ".join(FIELDS)
        names = [f"{key}{did_you_mean(key, FIELDS)}" for key in self.unknown]
        what = "unknown column" + ("s " if len(names) > 1 else " ") + "; ".join(names)
        return f"{what}: filter by {known}"

    def __bool__(self) -> bool:
        return bool(self.terms or self.unknown)

    def matches(self, row: Row) -> bool:
        return all(t.matches(row) for t in self.terms)

    def select(self, items: Iterable[tuple[K, Row]], names: Sequence[str] | None = None) -> list[K]:
        """The keys of the rows that match, in order: ``matches`` term by term over the
        survivors, with a name word (what is typed most) tested in one pass (the filter runs
        on every keystroke, over every row).

        ``names``: each row's name in lower case, in the order of ``items``; the matrix keeps
        them with its rows, so a keystroke does not lower every name again."""
        rows = items if isinstance(items, list) else list(items)
        if not self.terms:
            return [k for k, _ in rows]
        lowered = names if names is not None else [r.name.lower() for _, r in rows]
        survivors: Iterable[int] = range(len(rows))
        for term in self.terms:
            if term.field is None and len(term.values) == 1:
                word, negate = term.values[0], term.negate
                survivors = [i for i in survivors if (word in lowered[i]) != negate]
            else:
                survivors = [i for i in survivors if term.matches(rows[i][1])]
        return [rows[i][0] for i in survivors]
