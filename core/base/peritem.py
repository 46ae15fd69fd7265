"""A stage's results per item of a long list (a contract's declarations, a matrix's rows), kept
so that the next list, which holds the same objects for what did not change, computes only its
new items.

The language server reads a contract again after each edit: ``parse_contract`` keeps the spec
object of every declaration an edit did not touch, and the stages that look at each declaration
(or at each row resolved from one) would otherwise visit all 3,000 of a large contract again.
Here each such stage's results are recorded with the list they were computed for (``now``);
the next read is handed that record (``before``), and an item that is the same object, under an
equal stage key, takes its result from it. Matching is by identity: the recorded list keeps its
items alive, so an id is never another object's. Every pass over the list is one of C's
(``map``, ``zip``, ``list.index``): a stage costs little more than its new items.

A stage's result for an item must be a function of that item and of the key alone (what it
reads of anything else goes into the key); it is never None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import is_, is_not
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: stage -> (the items, the key, each item's result): one stage's record
Record = tuple[Sequence[Any], Any, list[Any]]
Records = dict[str, Record]

_MISSING: Any = object()


def per_item(
    now: Records,
    before: Records | None,
    stage: str,
    items: Sequence[T],
    key: Any,
    each: Callable[[T], R],
) -> list[R]:
    """``[each(item) for item in items]``, computed only for the items ``before``'s record of
    ``stage`` (under an equal key) does not hold; recorded in ``now``."""
    known = now.get(stage)
    if known is not None and known[0] is items and _same(known[1], key):
        return known[2]
    if known is None and before is not None:
        known = before.get(stage)
    results: list[Any]
    if known is not None and _same(known[1], key):
        old = known[0]
        if len(old) == len(items):
            # the same places (an edit inside declarations): the differing ones computed
            flags = list(map(is_not, old, items))
            if flags.count(True) * 2 <= len(flags):
                results = list(known[2])
                for i in flagged(flags):
                    results[i] = each(items[i])
                now[stage] = (items, key, results)
                return results
        else:
            by_id = dict(zip(map(id, old), known[2], strict=True))
            results = list(map(by_id.get, map(id, items), repeat(_MISSING)))
            flags = list(map(is_, results, repeat(_MISSING)))
            if flags.count(True) * 2 <= len(flags):
                for i in flagged(flags):
                    results[i] = each(items[i])
                now[stage] = (items, key, results)
                return results
    # most items are new (lines added above most declarations: each one moved): one pass
    results = [each(item) for item in items]
    now[stage] = (items, key, results)
    return results


def flagged(flags: list[bool]) -> list[int]:
    """The indexes of the true ``flags``: found with C's ``list.index`` when they are few, in
    one pass when they are many (lines added above thousands of declarations)."""
    if flags.count(True) > 64:
        return [i for i, flag in enumerate(flags) if flag]
    out: list[int] = []
    i = -1
    while True:
        try:
            i = flags.index(True, i + 1)
        except ValueError:
            return out
        out.append(i)


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:  # a key that cannot be compared is taken as changed
        return False


__all__ = ["Records", "flagged", "per_item"]
