"""node 20's pure host globals a condition may reach: ArrayBuffer, the typed arrays,
DataView, TextEncoder, TextDecoder, URL, URLSearchParams and AggregateError. Registering
them makes their function objects only; each class's module (``typedarrays``,
``dataview``, ``textcoding``, ``url``, ``aggregate``) loads on first use, so a condition
that names none of them loads none of them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.values import JsError, JsFunction

#: each typed array's element size
TYPED_ARRAYS: Final = {
    "Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int16Array": 2,
    "Uint16Array": 2, "Int32Array": 4, "Uint32Array": 4, "Float32Array": 4,
    "Float64Array": 8, "BigInt64Array": 8, "BigUint64Array": 8,
}  # fmt: skip
#: the names registered here (what the evaluator no longer refuses)
NAMES: Final = frozenset(
    {
        *TYPED_ARRAYS,
        "ArrayBuffer",
        "DataView",
        "TextEncoder",
        "TextDecoder",
        "AggregateError",
        "URL",
        "URLSearchParams",
    }
)
#: node's classes written in JavaScript: String() of one gives its source, which flowctx does
#: not hold (``values.to_string`` refuses a function with this ident)
NODE_CLASS: Final = "node class"


def service(name: str) -> Any:
    """A host class's module, loaded on first use."""
    return importlib.import_module(f"flowctx_core.expressions.js.host.{name}")


def _requires_new(name: str) -> Callable[..., Any]:
    def call(*_: Any) -> Any:
        raise JsError(f"Constructor {name} requires 'new'")

    return call


def _class_call(name: str) -> Callable[..., Any]:
    def call(*_: Any) -> Any:
        raise JsError(f"Class constructor {name} cannot be invoked without 'new'")

    return call


def _lazy(module: str, attr: str, *pre: Any) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        fn = getattr(service(module), attr)
        return (fn(*pre) if pre else fn)(*args)

    return call


def register(globals_: dict[str, Any], constructors: dict[int, Callable[..., Any]]) -> None:
    buffer = JsFunction(
        "ArrayBuffer",
        _requires_new("ArrayBuffer"),
        members={"isView": JsFunction("isView", _lazy("typedarrays", "is_view"), arity=1)},
        arity=1,
    )
    globals_["ArrayBuffer"] = buffer
    constructors[id(buffer)] = _lazy("typedarrays", "new_array_buffer")
    for name, size in TYPED_ARRAYS.items():
        fn = JsFunction(
            name,
            _requires_new(name),
            members={
                "BYTES_PER_ELEMENT": size,
                "from": JsFunction("from", _lazy("typedarrays", "static_from", name), arity=1),
                "of": JsFunction("of", _lazy("typedarrays", "static_of", name), arity=0),
            },
            arity=3,
        )
        globals_[name] = fn
        constructors[id(fn)] = _lazy("typedarrays", "construct", name)
    view = JsFunction("DataView", _requires_new("DataView"), arity=1)
    globals_["DataView"] = view
    constructors[id(view)] = _lazy("dataview", "construct")
    url_statics = {
        "parse": JsFunction("parse", _lazy("url", "parse_or_null"), arity=1),
        "canParse": JsFunction("canParse", _lazy("url", "can_parse"), arity=1),
        "createObjectURL": JsFunction("createObjectURL", _lazy("url", "object_url"), arity=1),
        "revokeObjectURL": JsFunction("revokeObjectURL", _lazy("url", "object_url"), arity=1),
    }
    for name, module, make, arity, members in (
        ("TextEncoder", "textcoding", "new_text_encoder", 0, None),
        ("TextDecoder", "textcoding", "new_text_decoder", 0, None),
        ("URL", "url", "new_url", 1, url_statics),
        ("URLSearchParams", "url", "new_search_params", 0, None),
    ):
        fn = JsFunction(name, _class_call(name), members, arity=arity, ident=NODE_CLASS)
        globals_[name] = fn
        constructors[id(fn)] = _lazy(module, make)
    aggregate = JsFunction("AggregateError", _lazy("aggregate", "construct"), arity=2)
    globals_["AggregateError"] = aggregate
    constructors[id(aggregate)] = aggregate.fn
