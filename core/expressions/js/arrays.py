"""JavaScript's array methods, over the values of ``flowctx_core.expressions.js.values``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import BUDGET, charge
from flowctx_core.expressions.js.common import Unsupported, _call, _mutating, _relative
from flowctx_core.expressions.js.values import (
    ELEMENT,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsError,
    from_units,
    is_nullish,
    join_bounded,
    js_value,
    same_value_zero,
    strict_eq,
    to_int,
    to_number,
    to_string,
    to_units,
    truthy,
)

# --- array methods -------------------------------------------------------------------------


def _arr_at(arr: list[Any], i: Any = UNDEFINED, *_: Any) -> Any:
    n = to_int(i)
    n = n + len(arr) if n < 0 else n
    return js_value(arr[int(n)]) if 0 <= n < len(arr) else UNDEFINED


def _arr_concat(arr: list[Any], *args: Any) -> list[Any]:
    out = list(arr)
    for a in args:
        if type(a) is list or type(a) is tuple:
            out.extend(a)
        else:
            out.append(a)
        if len(out) > MAX_STRING_LENGTH:
            raise JsError("concat() result too long")
    return out


def _arr_includes(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED) -> bool:
    begin = _relative(start, len(arr), 0)
    return any(same_value_zero(js_value(x), search) for x in arr[begin:])


def _arr_index_of(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED) -> int:
    begin = _relative(start, len(arr), 0)
    for i in range(begin, len(arr)):
        if strict_eq(js_value(arr[i]), search):
            return i
    return -1


def _arr_last_index_of(arr: list[Any], search: Any = UNDEFINED, *rest: Any) -> int:
    last = len(arr) - 1
    if rest:
        n = to_int(rest[0])
        last = int(min(n, len(arr) - 1)) if n >= 0 else int(len(arr) + n)
    for i in range(last, -1, -1):
        if strict_eq(js_value(arr[i]), search):
            return i
    return -1


def _arr_join(arr: list[Any], sep: Any = UNDEFINED, *_: Any) -> str:
    sep_s = "," if sep is UNDEFINED else to_string(sep)
    parts = ("" if is_nullish(x) else to_string(js_value(x)) for x in arr)
    return from_units(join_bounded(sep_s, parts))


def _arr_slice(arr: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> list[Any]:
    a, b = _relative(start, len(arr), 0), _relative(end, len(arr), len(arr))
    return list(arr[a:b])


def _arr_some(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "some")
    i = 0
    while i < len(arr):
        if truthy(call(js_value(arr[i]), i, arr)):
            return True
        i += 1
    return False


def _arr_every(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "every")
    i = 0
    while i < len(arr):
        if not truthy(call(js_value(arr[i]), i, arr)):
            return False
        i += 1
    return True


def _arr_filter(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "filter")
    out = []
    for i in range(len(arr)):
        x = js_value(arr[i])
        if truthy(call(x, i, arr)):
            out.append(x)
    return out


def _find(arr: list[Any], fn: Any, method: str, reverse: bool) -> tuple[int, Any]:
    call = _call(fn, method)
    indexes = range(len(arr) - 1, -1, -1) if reverse else range(len(arr))
    for i in indexes:
        x = js_value(arr[i]) if i < len(arr) else UNDEFINED
        if truthy(call(x, i, arr)):
            return i, x
    return -1, UNDEFINED


def _arr_find(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "find", False)[1]


def _arr_find_index(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> int:
    return _find(arr, fn, "findIndex", False)[0]


def _arr_find_last(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "findLast", True)[1]


def _arr_find_last_index(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> int:
    return _find(arr, fn, "findLastIndex", True)[0]


def _arr_map(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "map")
    return [call(js_value(arr[i]), i, arr) for i in range(len(arr))]


def _arr_for_each(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    call = _call(fn, "forEach")
    for i in range(len(arr)):
        call(js_value(arr[i]), i, arr)
    return UNDEFINED


def _flatten(arr: list[Any] | tuple[Any, ...], depth: float, out: list[Any]) -> None:
    # every element visited is charged: arrays of empty arrays add nothing to ``out``
    charge(ELEMENT * len(arr) + 1)
    for x in arr:
        if (type(x) is list or type(x) is tuple) and depth >= 1:
            _flatten(x, depth - 1, out)
        else:
            out.append(x)
        if len(out) > MAX_STRING_LENGTH:
            raise JsError("flat() result too long")


def _arr_flat(arr: list[Any], depth: Any = UNDEFINED, *_: Any) -> list[Any]:
    d = 1 if depth is UNDEFINED else to_int(depth)
    out: list[Any] = []
    _flatten(arr, min(d, 200), out)
    return out


def _arr_flat_map(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    out: list[Any] = []
    _flatten(_arr_map(arr, fn), 1, out)
    return out


def _reduce(arr: list[Any], args: tuple[Any, ...], method: str, reverse: bool) -> Any:
    call = _call(args[0] if args else UNDEFINED, method)
    indexes = list(range(len(arr) - 1, -1, -1) if reverse else range(len(arr)))
    if len(args) > 1:
        acc = args[1]
    elif not indexes:
        raise JsError("Reduce of empty array with no initial value")
    else:
        acc = js_value(arr[indexes.pop(0)])
    for i in indexes:
        if i < len(arr):
            acc = call(acc, js_value(arr[i]), i, arr)
    return acc


def _arr_reduce(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduce", False)


def _arr_reduce_right(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduceRight", True)


def _sort_key(compare: Any) -> Callable[[Any], Any]:
    if compare is UNDEFINED:
        return functools.cmp_to_key(_default_compare)
    call = _call(compare, "sort")

    def cmp(a: Any, b: Any) -> int:
        if a is UNDEFINED or b is UNDEFINED:
            return _default_compare(a, b)
        r = to_number(call(js_value(a), js_value(b)))
        return 0 if r != r else (-1 if r < 0 else (1 if r > 0 else 0))

    return functools.cmp_to_key(cmp)


def _default_compare(a: Any, b: Any) -> int:
    if a is UNDEFINED or b is UNDEFINED:
        return (a is UNDEFINED) - (b is UNDEFINED)
    x, y = to_units(to_string(js_value(a))), to_units(to_string(js_value(b)))
    return -1 if x < y else (1 if x > y else 0)


def _sort_cost(arr: list[Any]) -> None:
    # n log2 n comparisons, each an interpreted call (what they convert is charged there)
    charge(ELEMENT * len(arr) * max(1, len(arr).bit_length()))


def _arr_to_sorted(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    _sort_cost(arr)
    return sorted(arr, key=_sort_key(compare))


def _arr_sort(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    _mutating()
    _sort_cost(arr)
    arr[:] = sorted(arr, key=_sort_key(compare))
    return arr


def _arr_to_reversed(arr: list[Any], *_: Any) -> list[Any]:
    return arr[::-1]


def _arr_reverse(arr: list[Any], *_: Any) -> list[Any]:
    _mutating()
    arr.reverse()
    return arr


def _arr_push(arr: list[Any], *items: Any) -> int:
    _mutating()
    if len(arr) + len(items) > MAX_STRING_LENGTH:
        raise JsError(f"push() result too long (over {MAX_STRING_LENGTH:,} elements; {BUDGET})")
    arr.extend(items)
    return len(arr)


def _arr_pop(arr: list[Any], *_: Any) -> Any:
    _mutating()
    return arr.pop() if arr else UNDEFINED


def _arr_shift(arr: list[Any], *_: Any) -> Any:
    _mutating()
    return arr.pop(0) if arr else UNDEFINED


def _arr_unshift(arr: list[Any], *items: Any) -> int:
    _mutating()
    if len(arr) + len(items) > MAX_STRING_LENGTH:
        raise JsError(f"unshift() result too long (over {MAX_STRING_LENGTH:,} elements; {BUDGET})")
    arr[:0] = items
    return len(arr)


def _splice_args(arr: list[Any], args: tuple[Any, ...]) -> tuple[int, int, tuple[Any, ...]]:
    start = _relative(args[0] if args else UNDEFINED, len(arr), 0)
    if not args:
        count = 0
    elif len(args) == 1:
        count = len(arr) - start
    else:
        count = int(min(max(to_int(args[1]), 0), len(arr) - start))
    return start, count, args[2:]


def _arr_splice(arr: list[Any], *args: Any) -> list[Any]:
    _mutating()
    start, count, items = _splice_args(arr, args)
    removed = arr[start : start + count]
    arr[start : start + count] = items
    return removed


def _arr_to_spliced(arr: list[Any], *args: Any) -> list[Any]:
    start, count, items = _splice_args(arr, args)
    return [*arr[:start], *items, *arr[start + count :]]


def _arr_with(arr: list[Any], index: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> list[Any]:
    n = to_int(index)
    n = n + len(arr) if n < 0 else n
    if not 0 <= n < len(arr):
        raise JsError("Invalid index")
    out = list(arr)
    out[int(n)] = value
    return out


def _arr_fill(arr: list[Any], value: Any = UNDEFINED, *args: Any) -> list[Any]:
    _mutating()
    a = _relative(args[0] if args else UNDEFINED, len(arr), 0)
    b = _relative(args[1] if len(args) > 1 else UNDEFINED, len(arr), len(arr))
    for i in range(a, b):
        arr[i] = value
    return arr


def _arr_to_string(arr: list[Any], *_: Any) -> str:
    return _arr_join(arr)


def _arr_iterator(arr: list[Any], *_: Any) -> Any:
    raise Unsupported("flowctx does not reproduce array iterators (keys, values, entries)")


ARRAY_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "at": _arr_at,
    "concat": _arr_concat,
    "entries": _arr_iterator,
    "every": _arr_every,
    "fill": _arr_fill,
    "filter": _arr_filter,
    "find": _arr_find,
    "findIndex": _arr_find_index,
    "findLast": _arr_find_last,
    "findLastIndex": _arr_find_last_index,
    "flat": _arr_flat,
    "flatMap": _arr_flat_map,
    "forEach": _arr_for_each,
    "includes": _arr_includes,
    "indexOf": _arr_index_of,
    "join": _arr_join,
    "keys": _arr_iterator,
    "lastIndexOf": _arr_last_index_of,
    "map": _arr_map,
    "pop": _arr_pop,
    "push": _arr_push,
    "reduce": _arr_reduce,
    "reduceRight": _arr_reduce_right,
    "reverse": _arr_reverse,
    "shift": _arr_shift,
    "slice": _arr_slice,
    "some": _arr_some,
    "sort": _arr_sort,
    "splice": _arr_splice,
    "toLocaleString": _arr_to_string,
    "toReversed": _arr_to_reversed,
    "toSorted": _arr_to_sorted,
    "toSpliced": _arr_to_spliced,
    "toString": _arr_to_string,
    "unshift": _arr_unshift,
    "values": _arr_iterator,
    "with": _arr_with,
}
MUTATING_METHODS: Final = frozenset(
    {"push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"}
)
# Methods whose argument may be an arrow function (completion offers arrows for these).
ARROW_METHODS: Final = frozenset(
    {"some", "every", "filter", "find", "findIndex", "findLast", "findLastIndex", "map",
     "flatMap", "forEach", "reduce", "reduceRight", "sort", "toSorted"}
)  # fmt: skip
