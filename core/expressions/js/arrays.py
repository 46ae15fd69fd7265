"""JavaScript's array methods, over the values of ``flowctx_core.expressions.js.values``."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import BUDGET, charge
from flowctx_core.expressions.js.common import (
    FLAT_LEVELS_ALWAYS_HELD,
    LENT,
    NODE_MOST_FLAT_LEVELS,
    Unsupported,
    _call,
    _mutating,
    _relative,
    array_prop_keys,
    check_flat_levels,
)
from flowctx_core.expressions.js.values import (
    CHANGED,
    ELEMENT,
    GENERIC,
    HOLE,
    MAX_STRING_LENGTH,
    UNDEFINED,
    Accessor,
    JsError,
    JsFunction,
    from_units,
    got,
    is_nullish,
    join_array,
    join_bounded,
    js_in,
    js_value,
    same_value_zero,
    shown_value,
    strict_eq,
    to_int,
    to_number,
    to_string,
    to_units,
    truthy,
)

# --- array methods -------------------------------------------------------------------------


def _read(arr: list[Any] | tuple[Any, ...], indexes: Any) -> list[Any]:
    """The elements at ``indexes`` in that order, an accessor's getter run as it is read
    (holes kept, HasProperty then Get): what a method that copies elements reads once an
    accessor was defined on an array's element (``CHANGED.elements``)."""
    return [
        (arr[i].read() if type(arr[i]) is Accessor else arr[i]) if i < len(arr) else HOLE
        for i in indexes
    ]


def _get_each(arr: list[Any] | tuple[Any, ...], indexes: Any) -> list[Any]:
    """Get of each of ``indexes`` in that order (a hole or an index a getter took away reads
    undefined)."""
    return [js_value(arr[i]) if i < len(arr) else UNDEFINED for i in indexes]


def _arr_at(arr: list[Any], i: Any = UNDEFINED, *_: Any) -> Any:
    n = to_int(i)
    n = n + len(arr) if n < 0 else n
    return js_value(arr[int(n)]) if 0 <= n < len(arr) else UNDEFINED


def _arr_concat(arr: list[Any], *args: Any) -> list[Any]:
    out: list[Any] = []
    for a in (arr, *args):
        # IsConcatSpreadable: Symbol.isConcatSpreadable set on a condition's object (an array
        # too), else whether it is an array
        flag = GENERIC["concat_flag"](a) if CHANGED.symbols else UNDEFINED
        array = type(a) is list or type(a) is tuple
        if (array and flag is UNDEFINED) or (array and truthy(flag)):
            out.extend(_read(a, range(len(a))) if CHANGED.elements else a)
        elif flag is not UNDEFINED and truthy(flag):
            out.extend(_array_like(a))
        else:
            out.append(a)
        if len(out) > MAX_STRING_LENGTH:
            raise JsError("concat() result too long")
    return out


def _array_like(a: Any) -> list[Any]:
    """The elements of an array-like object up to its ``length`` (holes where it has none)."""
    get_member = LENT["get_member"]
    length = to_int(get_member(a, "length"))
    length = int(min(max(length, 0), MAX_STRING_LENGTH + 1))
    if length > MAX_STRING_LENGTH:
        raise JsError("concat() result too long")
    charge(ELEMENT * length)
    return [get_member(a, str(i)) if js_in(str(i), a) else HOLE for i in range(length)]


def _arr_includes(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED, *_: Any) -> bool:
    begin = _relative(start, len(arr), 0)
    if CHANGED.elements:
        return any(same_value_zero(x, search) for x in got(arr, begin))
    return any(same_value_zero(js_value(x), search) for x in arr[begin:])


def _arr_index_of(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED, *_: Any) -> int:
    begin = _relative(start, len(arr), 0)
    for i in range(begin, len(arr)):
        x = arr[i] if i < len(arr) else HOLE  # a getter may have shortened it
        if x is not HOLE and strict_eq(js_value(x), search):
            return i
    return -1


def _arr_last_index_of(arr: list[Any], search: Any = UNDEFINED, *rest: Any) -> int:
    last: float | int = len(arr) - 1
    if rest:
        n = to_int(rest[0])
        # -Infinity (or any index before the start) finds nothing; Infinity is the last index
        last = min(n, len(arr) - 1) if n >= 0 else len(arr) + n
        if last < 0:
            return -1
    for i in range(int(last), -1, -1):
        x = arr[i] if i < len(arr) else HOLE  # a getter may have shortened it
        if x is not HOLE and strict_eq(js_value(x), search):
            return i
    return -1


def _arr_join(arr: list[Any], sep: Any = UNDEFINED, *_: Any) -> str:
    sep_s = "," if sep is UNDEFINED else to_string(sep)
    return from_units(join_array(arr, sep_s))


def _arr_slice(arr: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> list[Any]:
    a, b = _relative(start, len(arr), 0), _relative(end, len(arr), len(arr))
    return _read(arr, range(a, b)) if CHANGED.elements else list(arr[a:b])


# The iteration methods visit the indexes below the length the array had when they started,
# and only those still present (ECMAScript's HasProperty): a hole of a literal is skipped, and
# so is an index a callback removed (forEach that splices its own array).


def _present(arr: list[Any], i: int) -> bool:
    return i < len(arr) and arr[i] is not HOLE


def _arr_some(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "some", this)
    return any(_present(arr, i) and truthy(call(js_value(arr[i]), i, arr)) for i in range(len(arr)))


def _arr_every(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "every", this)
    for i in range(len(arr)):
        if _present(arr, i) and not truthy(call(js_value(arr[i]), i, arr)):
            return False
    return True


def _arr_filter(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "filter", this)
    out = []
    for i in range(len(arr)):
        if _present(arr, i):
            x = js_value(arr[i])
            if truthy(call(x, i, arr)):
                out.append(x)
    return out


def _find(
    arr: list[Any], fn: Any, method: str, reverse: bool, this: Any = UNDEFINED
) -> tuple[int, Any]:
    call = _call(fn, method, this)
    indexes = range(len(arr) - 1, -1, -1) if reverse else range(len(arr))
    for i in indexes:  # holes and removed indexes are read as undefined here
        x = js_value(arr[i]) if i < len(arr) else UNDEFINED
        if truthy(call(x, i, arr)):
            return i, x
    return -1, UNDEFINED


def _arr_find(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "find", False, this)[1]


def _arr_find_index(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> int:
    return _find(arr, fn, "findIndex", False, this)[0]


def _arr_find_last(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "findLast", True, this)[1]


def _arr_find_last_index(
    arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any
) -> int:
    return _find(arr, fn, "findLastIndex", True, this)[0]


def _arr_map(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "map", this)
    out: list[Any] = [HOLE] * len(arr)  # what is not visited stays a hole: [1,,3].map(f)
    for i in range(len(out)):
        if _present(arr, i):
            out[i] = call(js_value(arr[i]), i, arr)
    return out


def _arr_for_each(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> Any:
    call = _call(fn, "forEach", this)
    for i in range(len(arr)):
        if _present(arr, i):
            call(js_value(arr[i]), i, arr)
    return UNDEFINED


def _flatten(arr: list[Any] | tuple[Any, ...], depth: float, out: list[Any]) -> None:
    """Holes dropped, arrays within ``depth`` opened, with a stack of its own (node flattens
    deeper than Python recurses, to its own stack's bound); every element visited is
    charged, so arrays of empty arrays, which add nothing to ``out``, cost their visits."""
    charge(ELEMENT * len(arr) + 1)
    stack: list[tuple[Any, float]] = [(iter(arr), depth)]
    deepest = 1
    while stack:
        items, d = stack[-1]
        for x in items:
            if x is HOLE:
                continue
            if type(x) is Accessor:
                x = x.read()
            if (type(x) is list or type(x) is tuple) and d >= 1:
                charge(ELEMENT * len(x) + 1)
                stack.append((iter(x), d - 1))
                if len(stack) > deepest:
                    deepest = len(stack)
                    if deepest > NODE_MOST_FLAT_LEVELS:
                        check_flat_levels(deepest)  # node's recursion meets its stack
                break
            out.append(x)
        else:
            stack.pop()
    if deepest > FLAT_LEVELS_ALWAYS_HELD:
        check_flat_levels(deepest)


def _arr_flat(arr: list[Any], depth: Any = UNDEFINED, *_: Any) -> list[Any]:
    d = 1 if depth is UNDEFINED else to_int(depth)
    out: list[Any] = []
    _flatten(arr, d, out)
    return out


def _arr_flat_map(arr: list[Any], fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> list[Any]:
    _call(fn, "flatMap")  # its own TypeError for a mapper that is no function
    out: list[Any] = []
    _flatten(_arr_map(arr, fn, this), 1, out)
    return out


def _reduce(arr: list[Any], args: tuple[Any, ...], method: str, reverse: bool) -> Any:
    call = _call(args[0] if args else UNDEFINED, method)
    indexes = iter(range(len(arr) - 1, -1, -1) if reverse else range(len(arr)))
    if len(args) > 1:
        acc = args[1]
    else:
        for i in indexes:  # the first element present, holes skipped
            if _present(arr, i):
                acc = js_value(arr[i])
                break
        else:
            raise JsError("Reduce of empty array with no initial value")
    for i in indexes:
        if _present(arr, i):
            acc = call(acc, js_value(arr[i]), i, arr)
    return acc


def _arr_reduce(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduce", False)


def _arr_reduce_right(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduceRight", True)


def _sort_key(compare: Any) -> Callable[[Any], Any]:
    if compare is UNDEFINED:
        return functools.cmp_to_key(_default_compare)
    if type(compare) is not JsFunction:
        raise JsError("The comparison function must be either a function or undefined")
    call = _call(compare, "sort")

    def cmp(a: Any, b: Any) -> int:
        charge(ELEMENT)  # the comparison's own step; the call charges what it costs
        r = to_number(call(js_value(a), js_value(b)))
        return 0 if r != r else (-1 if r < 0 else (1 if r > 0 else 0))

    return functools.cmp_to_key(cmp)


#: a comparison of the default sort: both values converted to strings and compared by UTF-16
#: units (measured: about 1.2 us for numbers, 0.4 us for strings)
DEFAULT_COMPARE_STEPS: Final = 16


def _default_compare(a: Any, b: Any) -> int:
    charge(DEFAULT_COMPARE_STEPS)
    x, y = to_units(to_string(js_value(a))), to_units(to_string(js_value(b)))
    return -1 if x < y else (1 if x > y else 0)


def _sort_cost(arr: list[Any]) -> None:
    # the copy sorted; each comparison is charged as it is made (a sorted array takes n - 1,
    # a shuffled one about n log2 n), so the work is counted as it really is
    charge(ELEMENT * len(arr))


def _sorted(arr: list[Any], compare: Any, holes: Any) -> list[Any]:
    """SortIndexedProperties: the comparator never sees undefined; the values sorted, then
    the undefineds, then the holes (``holes``: what a hole becomes, toSorted fills them)."""
    _sort_cost(arr)
    values = [x for x in arr if x is not UNDEFINED and x is not HOLE]
    undefined = sum(1 for x in arr if x is UNDEFINED)
    values.sort(key=_sort_key(compare))
    return values + [UNDEFINED] * undefined + [holes] * (len(arr) - len(values) - undefined)


def _arr_to_sorted(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    if CHANGED.elements:
        arr = _get_each(arr, range(len(arr)))
    return _sorted(arr, compare, UNDEFINED)


def _arr_sort(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    _mutating()
    arr[:] = _sorted(arr, compare, HOLE)
    return arr


def _dense(items: list[Any]) -> list[Any]:
    """The change-array-by-copy methods read every index of the original: a hole is copied
    as undefined, an element of its own (``Object.keys([1, , 3].toReversed())`` is 0,1,2)."""
    if any(x is HOLE for x in items):
        return [UNDEFINED if x is HOLE else x for x in items]
    return items


def _arr_to_reversed(arr: list[Any], *_: Any) -> list[Any]:
    if CHANGED.elements:
        return _get_each(arr, range(len(arr) - 1, -1, -1))
    return _dense(arr[::-1])


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
    return js_value(arr.pop()) if arr else UNDEFINED  # a hole reads as undefined


def _arr_shift(arr: list[Any], *_: Any) -> Any:
    _mutating()
    return js_value(arr.pop(0)) if arr else UNDEFINED  # a hole reads as undefined


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
    if CHANGED.elements:
        n = len(arr)
        return [*_get_each(arr, range(start)), *items, *_get_each(arr, range(start + count, n))]
    return [*_dense(arr[:start]), *items, *_dense(arr[start + count :])]


def _arr_with(arr: list[Any], index: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> list[Any]:
    n = to_int(index)
    n = n + len(arr) if n < 0 else n
    if not 0 <= n < len(arr):
        raise JsError(f"Invalid index : {shown_value(index)}")
    skipped = int(n)
    if CHANGED.elements:  # every element read but the one replaced
        n = len(arr)
        return [*_get_each(arr, range(skipped)), value, *_get_each(arr, range(skipped + 1, n))]
    out = _dense(list(arr))
    out[skipped] = value
    return out


def _arr_fill(arr: list[Any], value: Any = UNDEFINED, *args: Any) -> list[Any]:
    _mutating()
    a = _relative(args[0] if args else UNDEFINED, len(arr), 0)
    b = _relative(args[1] if len(args) > 1 else UNDEFINED, len(arr), len(arr))
    for i in range(a, b):
        arr[i] = value
    return arr


def _arr_to_string(arr: list[Any], *_: Any) -> Any:
    """Array.prototype.toString: the array's join (its own one, if it was given one), or
    Object.prototype.toString's where that is no function."""
    if type(arr) is list and "join" in array_prop_keys(arr):
        join = LENT["get_member"](arr, "join")
        if type(join) is not JsFunction:
            return "[object Array]"
        return LENT["call_with_this"](join, arr, []) if join.method is not None else join.fn()
    return _arr_join(arr)


def _arr_to_locale_string(
    arr: list[Any], locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> str:
    """Each element's own ``toLocaleString`` (a number grouped as en-US, a date in node's
    locale, a nested array element by element), null and undefined empty, joined by ','."""
    get_member = LENT["get_member"]

    def part(x: Any) -> str:
        x = js_value(x)
        if is_nullish(x) or x is HOLE:
            return ""
        method = get_member(x, "toLocaleString")
        if type(method) is not JsFunction:
            raise JsError(f"{to_string(method)} is not a function")
        return to_string(method.fn(locales, options))

    return from_units(join_bounded(",", (part(x) for x in (got(arr) if CHANGED.elements else arr))))


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
    "toLocaleString": _arr_to_locale_string,
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
