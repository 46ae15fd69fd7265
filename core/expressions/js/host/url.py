"""URL and URLSearchParams as node 20 has them: the WHATWG parser (``urlparse``) behind the
getters and setters, ``canParse``/``parse``, a URL's ``searchParams`` kept in step with its
query both ways, the application/x-www-form-urlencoded parser and serializer, and node's
argument errors. ``URL.createObjectURL`` and ``revokeObjectURL`` reach node's Blob registry
(the host): refused."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.host.textcoding import received
from flowctx_core.expressions.js.host.typedarrays import _object_proto, bound_method
from flowctx_core.expressions.js.host.urlparse import (
    FORM,
    USERINFO,
    Failure,
    Url,
    decode_bytes,
    encode,
    parse,
    utf8,
)
from flowctx_core.expressions.js.iterators import JsIterator
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    JsPropsObject,
    host_refusal,
    is_nullish,
    own_keys,
    to_string,
    typeof,
)

INVALID: Final = "Invalid URL"


def _missing(*names: str) -> JsError:
    if len(names) == 1:
        return JsError(f'The "{names[0]}" argument must be specified')
    return JsError(f'The "{names[0]}" and "{names[1]}" arguments must be specified')


# --- URLSearchParams ---------------------------------------------------------------------------


#: the evaluation budget's steps one character of a query costs to parse or serialize
FORM_STEP: Final = 8


def form_parse(text: str) -> list[tuple[str, str]]:
    charge(FORM_STEP * len(text) + 1)
    out = []
    for sequence in utf8(text).split(b"&"):
        if not sequence:
            continue
        name, _, value = sequence.partition(b"=")
        out.append(
            (
                decode_bytes(name.replace(b"+", b" ")).decode("utf-8", "replace"),
                decode_bytes(value.replace(b"+", b" ")).decode("utf-8", "replace"),
            )
        )
    return out


def form_serialize(pairs: list[tuple[str, str]]) -> str:
    charge(FORM_STEP * sum(len(k) + len(v) + 2 for k, v in pairs) + 1)
    return "&".join(
        encode(name, FORM, space_plus=True) + "=" + encode(value, FORM, space_plus=True)
        for name, value in pairs
    )


class JsURLSearchParams(JsPropsObject):
    """Its list of pairs; ``owner`` is the URL whose query it is (None: a list of its own)."""

    __slots__ = ("owner", "pairs")
    TAG: Final = "URLSearchParams"
    KINDS: Final = frozenset({"URLSearchParams"})

    def __init__(self, pairs: list[tuple[str, str]], owner: JsURL | None = None) -> None:
        self.pairs = pairs
        self.owner = owner
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return "[object URLSearchParams]"

    def __repr__(self) -> str:
        return "[object URLSearchParams]"

    def js_primitive(self, hint: str = "default") -> Any:
        return form_serialize(self.pairs)

    def js_iter(self) -> list[Any]:
        return [[k, v] for k, v in self.pairs]

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "size":
            return len(self.pairs)
        method = _PARAMS_METHODS.get(key)
        if method is not None:
            fn, arity = method
            return bound_method(
                self, key, functools.partial(fn, self), arity, f"URLSearchParams.prototype.{key}"
            )
        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key == "size":
            raise JsError(
                "Cannot set property size of [object URLSearchParams] which has only a getter"
            )
        super().js_set(key, value)

    def js_has(self, key: str) -> bool:
        return key == "size" or key in _PARAMS_METHODS or super().js_has(key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if isinstance(this, JsURLSearchParams):
            return this.js_get(name).fn(*args)
        raise JsError('Value of "this" must be of type URLSearchParams')

    def changed(self) -> None:
        """The URL standard's update steps: the owner's query follows the list."""
        if self.owner is not None:
            text = form_serialize(self.pairs)
            self.owner.url.query = text or None


def _required(args: tuple[Any, ...], *names: str) -> None:
    if len(args) < len(names):
        raise _missing(*names)


def _p_append(p: JsURLSearchParams, *args: Any) -> Any:
    _required(args, "name", "value")
    p.pairs.append((to_string(args[0]), to_string(args[1])))
    p.changed()
    return UNDEFINED


def _p_delete(p: JsURLSearchParams, *args: Any) -> Any:
    _required(args, "name")
    name = to_string(args[0])
    if len(args) > 1 and args[1] is not UNDEFINED:
        value = to_string(args[1])
        p.pairs = [(k, v) for k, v in p.pairs if not (k == name and v == value)]
    else:
        p.pairs = [(k, v) for k, v in p.pairs if k != name]
    p.changed()
    return UNDEFINED


def _p_get(p: JsURLSearchParams, *args: Any) -> Any:
    _required(args, "name")
    name = to_string(args[0])
    return next((v for k, v in p.pairs if k == name), None)


def _p_get_all(p: JsURLSearchParams, *args: Any) -> Any:
    _required(args, "name")
    name = to_string(args[0])
    return [v for k, v in p.pairs if k == name]


def _p_has(p: JsURLSearchParams, *args: Any) -> bool:
    _required(args, "name")
    name = to_string(args[0])
    if len(args) > 1 and args[1] is not UNDEFINED:
        value = to_string(args[1])
        return any(k == name and v == value for k, v in p.pairs)
    return any(k == name for k, _ in p.pairs)


def _p_set(p: JsURLSearchParams, *args: Any) -> Any:
    _required(args, "name", "value")
    name, value = to_string(args[0]), to_string(args[1])
    out: list[tuple[str, str]] = []
    done = False
    for k, v in p.pairs:
        if k != name:
            out.append((k, v))
        elif not done:
            out.append((name, value))
            done = True
    if not done:
        out.append((name, value))
    p.pairs = out
    p.changed()
    return UNDEFINED


def _units(s: str) -> list[int]:
    return list(memoryview(utf8_16(s)).cast("H"))


def utf8_16(s: str) -> bytes:
    return s.encode("utf-16-le", "surrogatepass")


def _p_sort(p: JsURLSearchParams, *_: Any) -> Any:
    charge(sum(FORM_STEP * (len(k) + 1) for k, _ in p.pairs) + 1)
    p.pairs = sorted(p.pairs, key=lambda pair: _units(pair[0]))  # stable, by code units
    p.changed()
    return UNDEFINED


def _p_to_string(p: JsURLSearchParams, *_: Any) -> str:
    return form_serialize(p.pairs)


def _p_iterator(which: str) -> Callable[..., Any]:
    def make(p: JsURLSearchParams, *_: Any) -> JsIterator:
        if which == "keys":
            items: list[Any] = [k for k, _ in p.pairs]
        elif which == "values":
            items = [v for _, v in p.pairs]
        else:
            items = [[k, v] for k, v in p.pairs]
        return JsIterator("URLSearchParams Iterator", items)

    return make


def _p_for_each(p: JsURLSearchParams, *args: Any) -> Any:
    fn = args[0] if args else UNDEFINED
    if type(fn) is not JsFunction:
        raise JsError(f'The "callback" argument must be of type function. {received(fn)}')
    i = 0
    while i < len(p.pairs):  # the list as it is at each step (a callback may change it)
        k, v = p.pairs[i]
        fn.fn(v, k, p)
        i += 1
    return UNDEFINED


_PARAMS_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "append": (_p_append, 2), "delete": (_p_delete, 1), "get": (_p_get, 1),
    "getAll": (_p_get_all, 1), "has": (_p_has, 1), "set": (_p_set, 2), "sort": (_p_sort, 0),
    "entries": (_p_iterator("entries"), 0), "forEach": (_p_for_each, 1),
    "keys": (_p_iterator("keys"), 0), "values": (_p_iterator("values"), 0),
    "toString": (_p_to_string, 0),
}  # fmt: skip


_PAIR: Final = "Each query pair must be an iterable [name, value] tuple"


def _iterable_items(v: Any) -> list[Any] | None:
    if type(v) is list or type(v) is tuple:
        from flowctx_core.expressions.js.values import HOLE, js_value

        return [UNDEFINED if x is HOLE else js_value(x) for x in v]
    if isinstance(v, JsObject):
        return v.js_iter()
    return None


def new_search_params(init: Any = UNDEFINED, *_: Any) -> JsURLSearchParams:
    if is_nullish(init):
        return JsURLSearchParams([])
    kind = typeof(init)
    if kind in ("object", "function"):
        items = _iterable_items(init)
        if items is not None:
            pairs = []
            charge(len(items) + 1)
            for pair in items:
                if typeof(pair) not in ("object", "function") or pair is None:
                    raise JsError(_PAIR)
                inner = _iterable_items(pair)
                if inner is None or len(inner) != 2:
                    raise JsError(_PAIR)
                pairs.append((to_string(inner[0]), to_string(inner[1])))
            return JsURLSearchParams(pairs)
        from flowctx_core.expressions.js.objects import get_member

        keys = own_keys(init) if isinstance(init, dict) else []
        if isinstance(init, JsObject):
            keys = init.js_keys()
        return JsURLSearchParams([(k, to_string(get_member(init, k))) for k in keys])
    text = to_string(init)
    return JsURLSearchParams(form_parse(text[1:] if text.startswith("?") else text))


# --- URL ---------------------------------------------------------------------------------------

_ACCESSORS: Final = ("href", "origin", "protocol", "username", "password", "host", "hostname",
                     "port", "pathname", "search", "searchParams", "hash")  # fmt: skip
_READ_ONLY: Final = frozenset({"origin", "searchParams"})


class JsURL(JsPropsObject):
    __slots__ = ("params", "url")
    TAG: Final = "URL"
    KINDS: Final = frozenset({"URL"})

    def __init__(self, url: Url) -> None:
        self.url = url
        self.params: JsURLSearchParams | None = None
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return "[object URL]"

    def __repr__(self) -> str:
        return self.url.href()

    def js_primitive(self, hint: str = "default") -> Any:
        return self.url.href()

    def js_json(self) -> Any:
        return self.url.href()  # its toJSON

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key in _ACCESSORS:
            return self.read(key)
        if key in ("toString", "toJSON"):
            return bound_method(self, key, lambda *_: self.url.href(), 0, f"URL.prototype.{key}")
        return _object_proto(self, key)

    def js_has(self, key: str) -> bool:
        return key in _ACCESSORS or key in ("toString", "toJSON") or super().js_has(key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if isinstance(this, JsURL):
            return this.js_get(name).fn(*args)
        if is_nullish(this):
            kind = "null" if this is None else "undefined"
            raise JsError(f"Cannot read properties of {kind} (reading 'URL')")
        raise JsError("Receiver must be an instance of class URL")

    def read(self, key: str) -> Any:
        u = self.url
        if key == "href":
            return u.href()
        if key == "origin":
            return u.origin()
        if key == "protocol":
            return u.scheme + ":"
        if key == "username":
            return u.username
        if key == "password":
            return u.password
        if key == "host":
            if u.host is None:
                return ""
            return u.host if u.port is None else f"{u.host}:{u.port}"
        if key == "hostname":
            return u.host or ""
        if key == "port":
            return "" if u.port is None else str(u.port)
        if key == "pathname":
            return u.path_text()
        if key == "search":
            return "?" + u.query if u.query else ""
        if key == "hash":
            return "#" + u.fragment if u.fragment else ""
        if self.params is None:
            self.params = JsURLSearchParams(form_parse(u.query or ""), self)
        return self.params

    def js_set(self, key: str, value: Any) -> None:
        if key in _READ_ONLY:
            raise JsError(f"Cannot set property {key} of [object URL] which has only a getter")
        if key not in _ACCESSORS:
            super().js_set(key, value)
            return
        text = to_string(value)
        if key == "href":
            try:
                self.url = parse(text)
            except Failure:
                raise JsError(INVALID) from None
            self._query_changed()
            return
        copy = self.url.copy()
        try:
            changed = _SETTERS[key](copy, text)
        except Failure:
            return  # a setter that fails leaves the URL as it was
        if changed is not None:
            self.url = changed
            if key == "search":
                self._query_changed()

    def _query_changed(self) -> None:
        if self.params is not None:
            self.params.pairs = form_parse(self.url.query or "")


def _set_protocol(u: Url, text: str) -> Url:
    return parse(text + ":", url=u, override="scheme start")


def _set_username(u: Url, text: str) -> Url | None:
    if u.cannot_have_credentials():
        return None
    u.username = encode(text, USERINFO)
    return u


def _set_password(u: Url, text: str) -> Url | None:
    if u.cannot_have_credentials():
        return None
    u.password = encode(text, USERINFO)
    return u


def _set_host(u: Url, text: str) -> Url | None:
    if isinstance(u.path, str):
        return None
    port, had_host = u.port, u.host is not None
    changed = parse(text, url=u, override="host")
    if not had_host:
        changed.port = port  # ada gives a URL that had no host the host alone (measured)
    return changed


def _set_hostname(u: Url, text: str) -> Url | None:
    if isinstance(u.path, str):
        return None
    return parse(text, url=u, override="hostname")


def _set_port(u: Url, text: str) -> Url | None:
    """The port setter as node's ada runs it (measured): a value without any digit, or
    starting with a space, a control or '-', changes nothing; one whose digits do not lead clears
    the port; leading digits past 65535 change nothing."""
    if u.cannot_have_credentials():
        return None
    text = text.replace("\t", "").replace("\n", "").replace("\r", "")
    if text == "":
        u.port = None
        return u
    if text[0] <= " " or text[0] == "-" or not any("0" <= ch <= "9" for ch in text):
        return None
    digits = len(text) - len(text.lstrip("0123456789"))
    if digits == 0:
        u.port = None
        return u
    return parse(text, url=u, override="port")


def _set_pathname(u: Url, text: str) -> Url | None:
    if isinstance(u.path, str):
        return None
    u.path = []
    return parse(text, url=u, override="path start")


def _strip_opaque(u: Url) -> None:
    """An opaque path's trailing spaces go when nothing follows them any more."""
    if isinstance(u.path, str) and u.fragment is None and u.query is None:
        u.path = u.path.rstrip(" ")


def _set_search(u: Url, text: str) -> Url:
    if text == "":
        u.query = None
        _strip_opaque(u)
        return u
    u.query = ""
    return parse(text[1:] if text.startswith("?") else text, url=u, override="query")


def _set_hash(u: Url, text: str) -> Url:
    if text == "":
        u.fragment = None
        _strip_opaque(u)
        return u
    u.fragment = ""
    return parse(text[1:] if text.startswith("#") else text, url=u, override="fragment")


_SETTERS: Final[dict[str, Callable[[Url, str], Url | None]]] = {
    "protocol": _set_protocol, "username": _set_username, "password": _set_password,
    "host": _set_host, "hostname": _set_hostname, "port": _set_port,
    "pathname": _set_pathname, "search": _set_search, "hash": _set_hash,
}  # fmt: skip


def _parse_js(args: tuple[Any, ...]) -> Url:
    if not args:
        raise _missing("url")
    text = to_string(args[0])
    base = None
    if len(args) > 1 and args[1] is not UNDEFINED:
        base_text = to_string(args[1])
        try:
            base = parse(base_text)
        except Failure:
            raise JsError(INVALID) from None
    try:
        return parse(text, base)
    except Failure:
        raise JsError(INVALID) from None


def new_url(*args: Any) -> JsURL:
    return JsURL(_parse_js(args))


def can_parse(*args: Any) -> bool:
    try:
        _parse_js(args)
    except JsError as exc:
        if str(exc) == INVALID:
            return False
        raise
    return True


def parse_or_null(*args: Any) -> JsURL | None:
    try:
        return JsURL(_parse_js(args))
    except JsError as exc:
        if str(exc) == INVALID:
            return None
        raise


def object_url(*_: Any) -> Any:
    raise Unsupported(
        host_refusal("URL.createObjectURL / revokeObjectURL", "node's Blob registry is the host's")
    )
