"""The matrix filter typed by the user: ``status:error``, ``source:file``, free text.

Words are ANDed. ``key:value`` narrows a column (``status``, ``source``, ``type``, ``agent``;
a value matches by prefix, ``status:err`` finds errors; commas give alternatives,
``status:error,fallback``); a leading ``-`` negates a word; anything else must appear in the
variable's name (case-insensitive).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from flowctx_core.model.matrix import Row

K = TypeVar("K")

FIELDS: dict[str, Callable[[Row], tuple[str, ...]]] = {
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

    @classmethod
    def parse(cls, text: str) -> RowFilter:
        terms = []
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
            terms.append(Term(None, (word,), negate))
        return cls(tuple(terms))

    def __bool__(self) -> bool:
        return bool(self.terms)

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
