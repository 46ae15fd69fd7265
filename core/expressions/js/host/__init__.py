"""node 20's pure host globals a condition may reach: ArrayBuffer, the typed arrays,
DataView, TextEncoder, TextDecoder, URL, URLSearchParams and AggregateError. Registering
them makes their function objects only; each class's module (``typedarrays``,
``dataview``, ``textcoding``, ``url``, ``aggregate``) loads on first use, so a condition
that names none of them loads none of them."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.values import JsError, JsFunction, host_refusal

#: each typed array's element size
TYPED_ARRAYS: Final = {
    "Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int16Array": 2,
    "Uint16Array": 2, "Int32Array": 4, "Uint32Array": 4, "Float32Array": 4,
    "Float64Array": 8, "BigInt64Array": 8, "BigUint64Array": 8,
}  # fmt: skip
#: DOMException's WebIDL error names and their legacy codes, and the constant naming each code
DOM_CODES: Final[tuple[tuple[str, str], ...]] = (
    ("IndexSizeError", "INDEX_SIZE_ERR"), ("DOMStringSizeError", "DOMSTRING_SIZE_ERR"),
    ("HierarchyRequestError", "HIERARCHY_REQUEST_ERR"),
    ("WrongDocumentError", "WRONG_DOCUMENT_ERR"),
    ("InvalidCharacterError", "INVALID_CHARACTER_ERR"),
    ("NoDataAllowedError", "NO_DATA_ALLOWED_ERR"),
    ("NoModificationAllowedError", "NO_MODIFICATION_ALLOWED_ERR"),
    ("NotFoundError", "NOT_FOUND_ERR"), ("NotSupportedError", "NOT_SUPPORTED_ERR"),
    ("InUseAttributeError", "INUSE_ATTRIBUTE_ERR"), ("InvalidStateError", "INVALID_STATE_ERR"),
    ("SyntaxError", "SYNTAX_ERR"), ("InvalidModificationError", "INVALID_MODIFICATION_ERR"),
    ("NamespaceError", "NAMESPACE_ERR"), ("InvalidAccessError", "INVALID_ACCESS_ERR"),
    ("ValidationError", "VALIDATION_ERR"), ("TypeMismatchError", "TYPE_MISMATCH_ERR"),
    ("SecurityError", "SECURITY_ERR"), ("NetworkError", "NETWORK_ERR"),
    ("AbortError", "ABORT_ERR"), ("URLMismatchError", "URL_MISMATCH_ERR"),
    ("QuotaExceededError", "QUOTA_EXCEEDED_ERR"), ("TimeoutError", "TIMEOUT_ERR"),
    ("InvalidNodeTypeError", "INVALID_NODE_TYPE_ERR"), ("DataCloneError", "DATA_CLONE_ERR"),
)  # fmt: skip
DOM_CONSTANTS: Final = {constant: code for code, (_, constant) in enumerate(DOM_CODES, 1)}
#: the names registered here (what the evaluator no longer refuses)
NAMES: Final = frozenset(
    {
        *TYPED_ARRAYS,
        "ArrayBuffer",
        "SharedArrayBuffer",
        "Buffer",
        "DataView",
        "TextEncoder",
        "TextDecoder",
        "AggregateError",
        "URL",
        "URLSearchParams",
        "DOMException",
    }
)
_READ_LATER: Final = "its contents are read asynchronously, after the condition has returned"
_STREAM: Final = "its chunks are pulled and pushed through the host's event loop"
_TIMELINE: Final = "its entries are the host process's own timeline"
#: node 20's web streams and performance classes (globals of its process, typeof 'function')
STREAMS: Final = (
    "ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
    "ReadableStreamBYOBRequest", "ReadableByteStreamController",
    "ReadableStreamDefaultController", "TransformStream", "TransformStreamDefaultController",
    "WritableStream", "WritableStreamDefaultController", "WritableStreamDefaultWriter",
    "ByteLengthQueuingStrategy", "CountQueuingStrategy", "TextEncoderStream",
    "TextDecoderStream", "CompressionStream", "DecompressionStream",
)  # fmt: skip
PERFORMANCE: Final = (
    "Performance", "PerformanceEntry", "PerformanceMark", "PerformanceMeasure",
    "PerformanceObserver", "PerformanceObserverEntryList", "PerformanceResourceTiming",
)  # fmt: skip
_HANDLE: Final = "it holds a handle of the host (a channel or port between threads)"
#: node's other web globals, refused with the reason
WHY: Final = {
    name: (
        f"flowctx does not reproduce the global '{name}': {reason}"
        if name == "Headers"
        else host_refusal(f"the global '{name}'", reason)
    )
    for name, reason in {
        "Blob": _READ_LATER, "File": _READ_LATER, "Request": _READ_LATER,
        "Response": _READ_LATER, "FormData": "it holds Blobs and Files, read asynchronously",
        "BroadcastChannel": _HANDLE, "MessageChannel": _HANDLE, "MessagePort": _HANDLE,
        "AbortController": "its signal's listeners and timers are the host's event loop",
        "AbortSignal": "its listeners and timeout are the host's event loop",
        "EventTarget": "its listeners run through the host's event dispatch",
        "Event": "its dispatch runs through the host's event loop",
        "CustomEvent": "its dispatch runs through the host's event loop",
        "MessageEvent": "its dispatch runs through the host's event loop",
        "Headers": "a pure class not written yet",
        **{name: _STREAM for name in STREAMS},
        **{name: _TIMELINE for name in PERFORMANCE},
    }.items()
}  # fmt: skip
#: node's classes and functions written in JavaScript: String() of one gives its source, which
#: flowctx does not hold (``values.function_text`` refuses a function whose ident starts so);
#: each ident goes on with the name, since functions with one ident are one function
NODE_CLASS: Final = "node class"
NODE_FUNCTION: Final = "node function"


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


#: node's Buffer statics, in node's order: the function of host/buffer.py and its length
BUFFER_STATICS: Final[dict[str, tuple[str, int]]] = {
    "from": ("from_", 3), "copyBytesFrom": ("copy_bytes_from", 3), "of": ("of", 0),
    "alloc": ("alloc", 3), "allocUnsafe": ("alloc_unsafe", 1),
    "allocUnsafeSlow": ("alloc_unsafe", 1), "isBuffer": ("is_buffer", 1),
    "compare": ("compare", 2), "isEncoding": ("is_encoding", 1), "concat": ("concat", 2),
    "byteLength": ("byte_length", 2),
}  # fmt: skip


def register(globals_: dict[str, Any], constructors: dict[int, Callable[..., Any]]) -> None:
    buffer = JsFunction(
        "ArrayBuffer",
        _requires_new("ArrayBuffer"),
        members={"isView": JsFunction("isView", _lazy("typedarrays", "is_view"), arity=1)},
        arity=1,
    )
    globals_["ArrayBuffer"] = buffer
    constructors[id(buffer)] = _lazy("typedarrays", "new_array_buffer")
    node_buffer = JsFunction(
        "Buffer",
        _lazy("buffer", "called"),
        members={
            "poolSize": 8192,
            **{
                name: JsFunction(
                    name,
                    _lazy("buffer", attr),
                    arity=arity,
                    ident=f"{NODE_FUNCTION} Buffer.{name}",
                )
                for name, (attr, arity) in BUFFER_STATICS.items()
            },
        },
        arity=2,
        ident=f"{NODE_FUNCTION} Buffer",
    )
    globals_["Buffer"] = node_buffer
    constructors[id(node_buffer)] = _lazy("buffer", "called")
    shared = JsFunction("SharedArrayBuffer", _requires_new("SharedArrayBuffer"), arity=1)
    globals_["SharedArrayBuffer"] = shared
    constructors[id(shared)] = _lazy("typedarrays", "new_shared_array_buffer")
    for name, size in TYPED_ARRAYS.items():
        fn = JsFunction(
            name,
            _requires_new(name),
            members={
                "BYTES_PER_ELEMENT": size,
                "from": JsFunction(
                    "from",
                    _lazy("typedarrays", "static_from", name),
                    arity=1,
                    ident="%TypedArray%.from",  # one function, inherited by every kind
                ),
                "of": JsFunction(
                    "of", _lazy("typedarrays", "static_of", name), arity=0, ident="%TypedArray%.of"
                ),
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
        ("DOMException", "domexception", "construct", 0, dict(DOM_CONSTANTS)),
    ):
        fn = JsFunction(name, _class_call(name), members, arity=arity, ident=f"{NODE_CLASS} {name}")
        globals_[name] = fn
        constructors[id(fn)] = _lazy(module, make)
    aggregate = JsFunction("AggregateError", _lazy("aggregate", "construct"), arity=2)
    globals_["AggregateError"] = aggregate
    constructors[id(aggregate)] = aggregate.fn
