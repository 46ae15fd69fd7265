"""The array methods that write, on a frozen, sealed or non-extensible array, or on one whose
elements or length were defined read-only or not configurable: where V8 throws.

ECMAScript writes an array method's result through the object's own operations, one at a
time: ``Set`` of an index (a new index on an object that is not extensible is "Cannot add
property", an existing one of a frozen object "Cannot assign to read only property"),
``DeletePropertyOrThrow`` (an existing index of a sealed or frozen object), and ``Set`` of
``length`` (read only once frozen). Whichever fails first is the TypeError strict mode
throws, and the evaluation ends there, so the simulation below replays the operations in the
specification's order on a shadow of the array (present or hole per index) and raises the
first failure before the real method runs; when nothing fails, the real method runs as usual
and the elements' attributes are what the replay left (an element keeps its attributes when it
is written, loses them when it is deleted; one made anew has an assignment's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import arrayattrs
from flowctx_core.expressions.js.common import _relative
from flowctx_core.expressions.js.values import (
    ELEMENT,
    HOLE,
    ORDINARY,
    UNDEFINED,
    Attributes,
    JsError,
    array_index,
    defined_attributes,
    set_attributes,
    to_int,
)

SEALED: Final = 1
FROZEN: Final = 2
_ARRAY: Final = "[object Array]"


class _Shadow:
    """Which indexes hold a property, their attributes, and the level the array was locked
    to (None: extensible)."""

    def __init__(self, arr: list[Any], level: int | None) -> None:
        charge(ELEMENT * len(arr))
        self.present = [x is not HOLE for x in arr]
        self.level = level
        self.attrs: dict[int, Attributes] = {}
        for k, held in (defined_attributes(arr) or {}).items():
            index = array_index(k) if type(k) is str else None
            if index is not None:
                self.attrs[index] = held
        self.length_writable = arrayattrs.length_writable(arr)

    def has(self, i: int) -> bool:
        return i < len(self.present) and self.present[i]

    def set(self, i: int) -> None:
        if not self.has(i):
            if self.level is not None:
                raise JsError(f"Cannot add property {i}, object is not extensible")
            if i >= len(self.present):
                if not self.length_writable:
                    raise arrayattrs.read_only("length")
                self.present.extend([False] * (i + 1 - len(self.present)))
            self.present[i] = True
            self.attrs.pop(i, None)
            return
        if (self.level is not None and self.level >= FROZEN) or not self.attrs.get(i, ORDINARY)[0]:
            raise JsError(f"Cannot assign to read only property '{i}' of object '{_ARRAY}'")

    def delete(self, i: int) -> None:
        if self.has(i):
            if (self.level is not None and self.level >= SEALED) or not self.attrs.get(i, ORDINARY)[
                2
            ]:
                raise JsError(f"Cannot delete property '{i}' of {_ARRAY}")
            self.present[i] = False
            self.attrs.pop(i, None)

    def move(self, src: int, dst: int) -> None:
        """One step of the copying loops: Set when the source holds a value, else Delete."""
        if self.has(src):
            self.set(dst)
        else:
            self.delete(dst)

    def set_length(self, n: int) -> None:
        if (self.level is not None and self.level >= FROZEN) or not self.length_writable:
            raise JsError(f"Cannot assign to read only property 'length' of object '{_ARRAY}'")
        for i in range(len(self.present) - 1, n - 1, -1):
            self.delete(i)
        del self.present[n:]
        self.present.extend([False] * (n - len(self.present)))


def check_write(
    name: str, arr: list[Any], level: int | None, args: tuple[Any, ...]
) -> Callable[[], None]:
    """Raise the TypeError V8 throws for ``arr.<name>(...args)`` on a locked array, if any;
    else what to call once the method has run (the elements' attributes it leaves)."""
    s = _Shadow(arr, level)
    _replay(name, s, arr, args)
    before = dict(s.attrs)

    def settle() -> None:
        for k in list(defined_attributes(arr) or {}):
            if type(k) is str and array_index(k) is not None:
                set_attributes(arr, k, None)
        for i, held in before.items():
            set_attributes(arr, str(i), held)

    return settle


def _replay(name: str, s: _Shadow, arr: list[Any], args: tuple[Any, ...]) -> None:
    n = len(arr)
    if name == "push":
        for i in range(len(args)):
            s.set(n + i)
        s.set_length(n + len(args))
    elif name == "pop":
        if n:
            s.delete(n - 1)
        s.set_length(max(n - 1, 0))
    elif name == "shift":
        if n:
            for k in range(1, n):
                s.move(k, k - 1)
            s.delete(n - 1)
        s.set_length(max(n - 1, 0))
    elif name == "unshift":
        count = len(args)
        if count:
            for k in range(n, 0, -1):
                s.move(k - 1, k + count - 1)
            for j in range(count):
                s.set(j)
        s.set_length(n + count)
    elif name == "splice":
        _splice(s, n, args)
    elif name == "reverse":
        lower = 0
        while lower < n // 2:
            upper = n - 1 - lower
            low, up = s.has(lower), s.has(upper)
            if low and up:
                s.set(lower)
                s.set(upper)
            elif up:
                s.set(lower)
                s.delete(upper)
            elif low:
                s.delete(lower)
                s.set(upper)
            lower += 1
    elif name == "fill":
        start = _relative(args[1] if len(args) > 1 else UNDEFINED, n, 0)
        end = _relative(args[2] if len(args) > 2 else UNDEFINED, n, n)
        for i in range(start, end):
            s.set(i)
    elif name == "copyWithin":
        to = _relative(args[0] if args else UNDEFINED, n, 0)
        start = _relative(args[1] if len(args) > 1 else UNDEFINED, n, 0)
        end = _relative(args[2] if len(args) > 2 else UNDEFINED, n, n)
        count = min(end - start, n - to)
        if count > 0:
            if start < to < start + count:
                pairs = [(start + count - 1 - i, to + count - 1 - i) for i in range(count)]
            else:
                pairs = [(start + i, to + i) for i in range(count)]
            for src, dst in pairs:
                s.move(src, dst)
    elif name == "sort" and n >= 2:  # V8 writes nothing back for fewer than two
        items = sum(s.present)
        for i in range(items):
            s.set(i)
        for i in range(items, n):
            s.delete(i)


def _splice(s: _Shadow, n: int, args: tuple[Any, ...]) -> None:
    start = _relative(args[0] if args else UNDEFINED, n, 0)
    if not args:
        delete = 0
    elif len(args) == 1:
        delete = n - start
    else:
        delete = int(min(max(to_int(args[1]), 0), n - start))
    items = len(args) - 2 if len(args) > 2 else 0
    if items < delete:
        for k in range(start, n - delete):
            s.move(k + delete, k + items)
        for k in range(n, n - delete + items, -1):
            s.delete(k - 1)
    elif items > delete:
        for k in range(n - delete, start, -1):
            s.move(k + delete - 1, k + items - 1)
    for j in range(items):
        s.set(start + j)
    s.set_length(n - delete + items)


def check_length(arr: list[Any], level: int | None, n: int) -> None:
    """``arr.length = n`` on a locked array (shrinking deletes from the end)."""
    _Shadow(arr, level).set_length(n)
