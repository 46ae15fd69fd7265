"""Where every value of a traced evaluation came from, so masking follows the data, not the text.

A traced evaluation (``Trace``) records, beside each node's value, its provenance (``Prov``):
the scope path it was read at (``("context", "region")``; None for a computed value) and the
facts it derives from, each a read somewhere in the scope:

- ``("path", p)``: something read at path ``p`` (judged later against the caller's secret
  paths, which the evaluation itself does not know);
- ``("key", p)``: something read through a secret-looking key (``api_key``), judged on the
  key's runtime value, so ``data['api' + '_key']`` counts as much as ``data.api_key``;
- ``("holds", p)``: a container or string read at ``p`` that holds a secret inside (a
  secret-keyed entry at any depth, a URI password).

Facts flow from operands to results: a slice, a split, a case change, a concatenation, a
container holding the value, a method of it, a callback's result and a callback's parameters
(bound while the call that invokes it has already read its receiver and arguments). A choice
(``a || b``/``a && b``/``a ?? b``/``t ? a : b``) keeps the path of the operand it returns but
derives from every operand it evaluated: which one came back says what the others were, so
``c === context.key[i] ? c : a`` inside a ``reduce`` over the alphabet rebuilt the key one
character at a time while each character looked clean. A sequence passes on its last operand.
A member read (``x.k``) of a
container replaces the container's own path by the member's and judges the member's content
afresh, so ``payload.status`` beside ``payload.api_key`` is not masked, while a member of a
string or a method keeps everything the receiver derives from.

The evaluation never decides what is secret; ``judge`` does, at display time, with the
caller's secret paths. This module never imports Textual and holds no global state.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Final

from flowctx_core.base.record import Record
from flowctx_core.base.secrets import KEY_REASON, is_secret_key, secret_strings

#: keys repeat across the records of a document; each is judged once
_secret_key = lru_cache(maxsize=4096)(is_secret_key)

Fact = tuple[str, tuple[str, ...]]
Facts = frozenset[Fact]
_NONE: Final[Facts] = frozenset()
#: facts kept per value before paths are folded to their roots (which masks more, never less)
_MAX_FACTS: Final = 64
_MAX_SCAN_DEPTH: Final = 60
#: marks the last part of a container's "holds" fact: the id of the container, judged lazily
_HELD: Final = "\x00held:"
#: node types that return one of their operands: they carry that operand's provenance
_CHOOSERS: Final = frozenset({"BoolOp", "IfExp", "JsCoalesce", "JsSequence"})
#: node types that hand their single operand on unchanged (the path stays a path)
_PASSING: Final = frozenset({"JsChain", "JsOptional", "JsSpread"})


class Prov(Record):
    """A value's provenance: ``path`` when it is the value read at that scope path."""

    __slots__ = ("facts", "path")
    path: tuple[str, ...] | None
    facts: Facts

    def __init__(self, path: tuple[str, ...] | None, facts: Facts) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "facts", facts)


CLEAN: Final = Prov(None, _NONE)


def _is_function(value: Any) -> bool:
    return callable(value) or type(value).__name__ in ("JsFunction", "PyMethod")


def _key_text(key: Any) -> str | None:
    """The path part of a member key, or None when the key is not a plain key or index."""
    if type(key) is str:
        return key
    if type(key) is int:
        return str(key)
    if type(key) is float and key.is_integer():
        return str(int(key))
    return None


def _fold(facts: Facts) -> Facts:
    """Bound a fact set: paths folded to their roots judge at least as secret as before."""
    if len(facts) <= _MAX_FACTS:
        return facts
    return frozenset((kind, path[:1]) for kind, path in facts)


def _union(sets: Iterable[Facts]) -> Facts:
    out: Facts = _NONE
    for facts in sets:
        if not facts or facts is out:
            continue
        out = facts if not out else out | facts
    return _fold(out)


class _Frame:
    """What the evaluations finished inside one node's evaluation read: each with its
    provenance, in order, and the union of their facts kept as they come (a call running a
    callback 5,000 times would otherwise union its entries again at every call)."""

    __slots__ = ("entries", "facts")

    def __init__(self) -> None:
        self.entries: list[tuple[ast.AST, Prov]] = []
        self.facts: Facts = _NONE

    def add(self, node: ast.AST, prov: Prov) -> None:
        self.entries.append((node, prov))
        facts = prov.facts
        if not facts or facts is self.facts:
            return
        if not self.facts:
            self.facts = facts
        elif not facts <= self.facts:
            self.facts = _fold(self.facts | facts)


class Flow:
    """The provenance side of one traced evaluation; the evaluators call ``enter`` before and
    ``leave``/``fail`` after each node, and ``bind`` when an arrow function starts."""

    def __init__(self, records: Mapping[int, tuple[bool, Any]]) -> None:
        self.records = records
        #: called with each value's provenance as it is made (``watch_secrets``): raising
        #: there stops the evaluation at the first value derived from a secret
        self.watch: Callable[[Prov], None] | None = None
        paths = getattr(_watching, "paths", None)
        if paths is not None:
            self.watch = watch_secrets(self, paths)
        self.reset()

    def reset(self) -> None:
        """Forget everything (an evaluation restarted on a copy of the scope)."""
        self.prov: dict[int, Prov] = {}
        self.frames: list[_Frame] = [_Frame()]
        # arrow calls: id(locals) -> (locals, param -> facts); the dict is kept so ids stay
        self.bound: dict[int, tuple[Any, dict[str, Facts]]] = {}
        self.assigned: dict[str, Facts] = {}  # scope names the condition wrote
        self.members: dict[tuple[int, str], tuple[Any, Facts]] = {}  # (id(obj), key) written
        self.mutated: Facts = _NONE  # what was written into any container
        self._holds: dict[int, tuple[Any, bool]] = {}
        self._kept: dict[int, Any] = {}  # containers behind "holds" facts, by id

    # --- the hooks -------------------------------------------------------------------------

    def enter(self) -> None:
        self.frames.append(_Frame())

    def leave(self, node: ast.AST, value: Any, local: Mapping[str, Any] | None = None) -> None:
        frame = self.frames.pop()
        prov = self._rule(node, value, frame, local)
        self.prov[id(node)] = prov
        if self.watch is not None and prov.facts:
            self.watch(prov)
        self.frames[-1].add(node, prov)

    def fail(self, node: ast.AST) -> None:
        """The node raised: what it read still reaches whatever catches the error."""
        frame = self.frames.pop()
        prov = Prov(None, frame.facts) if frame.facts else CLEAN
        self.prov[id(node)] = prov
        self.frames[-1].add(node, prov)

    def bind(
        self, local: dict[str, Any], params: Iterable[str], outer: Mapping[str, Any] | None
    ) -> None:
        """An arrow function starts: its parameters derive from everything the call invoking
        it has read so far (its receiver, its arguments, earlier callbacks' results)."""
        facts = self.frames[-1].facts
        taints: dict[str, Facts] = {}
        if outer:
            captured = self.bound.get(id(outer))
            for name in outer:
                taints[name] = captured[1].get(name, facts) if captured else facts
        for name in params:
            taints[name] = facts
        self.bound[id(local)] = (local, taints)

    # --- the rules -------------------------------------------------------------------------

    def _rule(
        self,
        node: ast.AST,
        value: Any,
        frame: _Frame,
        local: Mapping[str, Any] | None,
    ) -> Prov:
        kind = type(node).__name__
        entries = frame.entries
        if isinstance(node, ast.Name):  # also the Mozaiks ``${name}`` (CtxRef)
            return self._name(node.id, value, local)
        if isinstance(node, ast.Attribute):
            return self._member(node.value, node.attr, CLEAN, value, frame)
        if isinstance(node, ast.Subscript):
            key_node = node.slice
            key = self._value(key_node)
            return self._member(node.value, key, self._prov(key_node), value, frame)
        if kind in _CHOOSERS:
            # the operand returned is the one evaluated last; the ones evaluated before it
            # decided that it is the one returned (a sequence's earlier operands decide nothing)
            if not entries:
                return CLEAN
            chosen = entries[-1][1]
            if kind == "JsSequence" or frame.facts == chosen.facts:
                return chosen
            return Prov(chosen.path, frame.facts)
        if kind in _PASSING:
            return entries[0][1] if len(entries) == 1 else self._derived(frame)
        if kind == "JsTypeof":
            return CLEAN  # a type name ("string"), like a verdict, is not the value
        if kind in ("JsAssign", "JsUpdate"):
            return self._assign(node, frame, local)
        if isinstance(node, ast.Call):
            return self._call(node, value, frame)
        return self._derived(frame)

    @staticmethod
    def _derived(frame: _Frame) -> Prov:
        return Prov(None, frame.facts) if frame.facts else CLEAN

    def _prov(self, node: ast.AST) -> Prov:
        return self.prov.get(id(node), CLEAN)

    def _value(self, node: ast.AST) -> Any:
        record = self.records.get(id(node))
        return record[1] if record is not None and record[0] else None

    def _name(self, name: str, value: Any, local: Mapping[str, Any] | None) -> Prov:
        if local is not None and name in local:
            bound = self.bound.get(id(local))
            if bound is not None and name in bound[1]:
                return Prov(None, bound[1][name])
            # an unhooked binding: everything read so far, which masks more, never less
            return Prov(None, _union(f.facts for f in self.frames))
        if name in self.assigned:
            return Prov(None, self.assigned[name])
        path = (name,)
        facts: set[Fact] = {("path", path)}
        if is_secret_key(name):
            facts.add(("key", path))
        held = self._held(value, path)
        if held is not None:
            facts.add(held)
        if self.mutated and isinstance(value, (dict, list, tuple)):
            facts |= self.mutated
        return Prov(path, _fold(frozenset(facts)))

    def _member(
        self,
        obj_node: ast.AST,
        key: Any,
        key_prov: Prov,
        value: Any,
        frame: _Frame,
    ) -> Prov:
        text = _key_text(key)
        if text is None:  # a slice, an object as key: an operation, not a member read
            return self._derived(frame)
        obj = self._value(obj_node)
        obj_prov = self._prov(obj_node)
        base = obj_prov.facts
        container = isinstance(obj, (dict, list, tuple)) or type(obj).__name__ == "JsNamespace"
        if _is_function(value):
            # a method keeps all its receiver derives from: calling it transforms the receiver
            return Prov(None, _union((base, key_prov.facts)))
        path = None
        # a member of a container is a read at a longer path; of a string (its length, a
        # character), it is computed from the string
        if container and obj_prov.path is not None and not key_prov.facts:
            path = (*obj_prov.path, text)
            base = base - {("path", obj_prov.path)} | {("path", path)}
        if container:
            # what a container holds inside is judged again on the member itself
            base = frozenset(f for f in base if f[0] != "holds")
        facts = set(base | key_prov.facts)
        origin = path if path is not None else (*(obj_prov.path or ()), text)
        if is_secret_key(text):
            facts.add(("key", origin))
        held = self._held(value, origin)
        if held is not None:
            facts.add(held)
        written = self.members.get((id(obj), text))
        if written is not None:
            facts |= written[1]
        if self.mutated and isinstance(value, (dict, list, tuple)):
            facts |= self.mutated
        return Prov(path, _fold(frozenset(facts)))

    def _call(self, node: ast.Call, value: Any, frame: _Frame) -> Prov:
        func = self._value(node.func)
        if (
            type(func).__name__ == "PyMethod"
            and getattr(func, "name", "") == "__ctx"
            and node.args
            and isinstance(key := self._value(node.args[0]), str)
        ):
            # the Mozaiks context lookup written as a call: a read of that variable
            return self._name(key, value, None)
        prov = self._derived(frame)
        receiver_node = getattr(node.func, "value", None)
        if prov.facts and isinstance(node.func, (ast.Attribute, ast.Subscript)):
            while type(receiver_node).__name__ == "JsOptional":
                receiver_node = receiver_node.value  # type: ignore[union-attr]
            receiver = self._value(receiver_node) if receiver_node is not None else None
            written = _union(p.facts for n, p in frame.entries if n is not node.func)
            if (
                written
                and isinstance(receiver, (dict, list))
                and receiver_node is not None
                and self._prov(receiver_node).path is not None
            ):
                # a method may have written its arguments into a container of the scope
                # (push, splice), where later reads of the scope would find them
                self.mutated = _union((self.mutated, written))
        return prov

    def _assign(self, node: ast.AST, frame: _Frame, local: Mapping[str, Any] | None) -> Prov:
        prov = self._derived(frame)
        return self._write(node.target, prov, local)  # type: ignore[attr-defined]

    def _write(self, target: ast.AST, prov: Prov, local: Mapping[str, Any] | None) -> Prov:
        """Remember what an assignment wrote where, so a later read of it derives from it."""
        facts = prov.facts
        if isinstance(target, ast.Name):
            bound = self.bound.get(id(local)) if local is not None else None
            if bound is not None and target.id in bound[1]:
                bound[1][target.id] = facts
            else:
                self.assigned[target.id] = _union((self.assigned.get(target.id, _NONE), facts))
        elif isinstance(target, ast.List):  # [a, b] = ...
            for item in target.elts:
                self._write(item, prov, local)
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            obj = self._value(target.value)
            key = target.attr if isinstance(target, ast.Attribute) else self._value(target.slice)
            text = _key_text(key)
            if text is not None and is_secret_key(text):
                facts = _union((facts, frozenset({("key", (text,))})))
                prov = Prov(None, facts)
            if text is not None:
                self.members[(id(obj), text)] = (obj, facts)
            self.mutated = _union((self.mutated, facts))
        return prov

    # --- content ---------------------------------------------------------------------------

    def _held(self, value: Any, origin: tuple[str, ...]) -> Fact | None:
        """The "holds" fact of a value read at ``origin``, if it may hold a secret inside.

        A string is judged now (a URI password); a container only if its fact is ever judged
        (``holds``): most reads of a large document are members of it, which drop the fact,
        so walking all of it on every traced evaluation would be wasted (0.9 s for 1 MB)."""
        if isinstance(value, str):
            if ":/" in value and secret_strings(value[:4000]):
                return ("holds", origin)
            return None
        if isinstance(value, (dict, list, tuple)) and value:
            self._kept[id(value)] = value
            return ("holds", (*origin, f"{_HELD}{id(value)}"))
        return None

    def holds(self, origin: tuple[str, ...]) -> bool:
        """Whether the value behind a "holds" fact holds a secret (memoised per container:
        a chain of member reads walks a large document once, not once per level)."""
        last = origin[-1] if origin else ""
        if not last.startswith(_HELD):
            return True  # a string judged when read, or a fact folded to its root
        value = self._kept.get(int(last[len(_HELD) :]))
        return value is None or self._scan(value, 0)

    def _scan(self, value: Any, depth: int) -> bool:
        memo = self._holds.get(id(value))
        if memo is not None:
            return memo[1]
        found = False
        if depth > _MAX_SCAN_DEPTH:
            found = True  # deeper than anyone reads: assume the worst
        else:
            items: Iterable[tuple[Any, Any]] = (
                value.items() if isinstance(value, dict) else ((None, v) for v in value)
            )
            for key, item in items:
                if key is not None and _secret_key(key) and item is not None:
                    found = True
                elif isinstance(item, str):
                    found = ":/" in item and bool(secret_strings(item[:4000]))
                elif isinstance(item, (dict, list, tuple)):
                    found = self._scan(item, depth + 1)
                if found:
                    break
        self._holds[id(value)] = (value, found)
        return found


# --- judging, with the caller's secret paths ---------------------------------------------------


def dotted(path: tuple[str, ...]) -> str:
    """``context.items[0]["a b"]``: a path as an author would write it."""
    out = ""
    for part in path:
        if part.isdigit():
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}" if out else part
        else:
            escaped = part.encode("unicode_escape").decode("ascii").replace('"', '\\"')
            out += f'["{escaped}"]'
    return out or "a value"


def path_reason(read: tuple[str, ...], paths: Mapping[tuple[str, ...], str]) -> str | None:
    """Why a read at ``read`` is secret: at or under a secret path, or holding one."""
    for secret, why in paths.items():
        if read[: len(secret)] == secret:
            return why
        if secret[: len(read)] == read:
            return f"holds {'.'.join(secret)}, {why}"
    return None


_ORDER: Final = {"key": 0, "path": 1, "holds": 2}


def _plain(origin: tuple[str, ...]) -> tuple[str, ...]:
    return origin[:-1] if origin and origin[-1].startswith(_HELD) else origin


def judge(
    prov: Prov,
    paths: Mapping[tuple[str, ...], str],
    holds: Callable[[tuple[str, ...]], bool] = lambda origin: True,
) -> tuple[str | None, str | None]:
    """How a value with this provenance is shown: ``("whole", why)`` masked as ``***``,
    ``("inside", None)`` shown with its secret-keyed entries and URI passwords masked (a value
    read as it is that only holds secrets inside), or ``(None, None)`` shown. ``holds``
    (``Flow.holds``) says whether a container behind a "holds" fact really holds a secret."""
    inside = False
    for kind, origin in sorted(prov.facts, key=lambda f: (_ORDER[f[0]], f[1])):
        direct = prov.path == _plain(origin)
        if kind == "key":
            return "whole", KEY_REASON if direct else f"derived from {dotted(origin)}"
        if kind == "path":
            why = path_reason(origin, paths)
            if why is not None:
                return "whole", why if direct else f"derived from {dotted(origin)}"
        elif kind == "holds" and holds(origin):
            if direct:
                inside = True
            else:
                where = dotted(_plain(origin))
                return "whole", f"derived from a secret inside {where}"
    return ("inside", None) if inside else (None, None)


_watching = threading.local()


@contextmanager
def stop_at_secrets(paths: Mapping[tuple[str, ...], str]) -> Iterator[None]:
    """Every traced evaluation this thread starts inside stops (``SecretRead``) at its first
    value derived from a secret (``watch_secrets``)."""
    previous = getattr(_watching, "paths", None)
    _watching.paths = paths
    try:
        yield
    finally:
        _watching.paths = previous


class SecretRead(BaseException):
    """Raised by ``watch_secrets``'s hook at the first value derived from a secret. Not an
    ``Exception``: no evaluator's handler of errors may catch it and carry on."""

    def __init__(self, secret: str) -> None:
        super().__init__(secret)
        self.secret = secret


def watch_secrets(flow: Flow, paths: Mapping[tuple[str, ...], str]) -> Callable[[Prov], None]:
    """The hook that stops a traced evaluation (``SecretRead``) as soon as it makes a value
    derived from a secret: read at or under a secret path, through a secret-looking key, or
    computed from a container or string holding one. Reading a container on the way to a
    member of it (``context`` in ``context.region``) is not: only what is computed from it.
    Everything evaluated before the stop read no secret, so how long the evaluation ran says
    nothing of one."""

    def watch(prov: Prov) -> None:
        # in judge's order, so the secret named is the same from one run to the next
        for kind, origin in sorted(prov.facts, key=lambda f: (_ORDER[f[0]], f[1])):
            plain = _plain(origin)
            direct = prov.path == plain
            if kind == "key":
                raise SecretRead(dotted(plain))
            if kind == "path":
                for secret in paths:
                    if origin[: len(secret)] == secret:
                        raise SecretRead(dotted(secret))
                    if not direct and secret[: len(origin)] == origin:
                        raise SecretRead(dotted(secret))
            elif kind == "holds" and not direct and flow.holds(origin):
                raise SecretRead(dotted(plain))

    return watch


def secret_origin(
    facts: Iterable[Fact],
    paths: Mapping[tuple[str, ...], str],
    holds: Callable[[tuple[str, ...]], bool] = lambda origin: True,
) -> str | None:
    """The secret a value with these facts derives from, as an author writes it
    (``context.api_key``), or None when it derives from none. What ``judge`` masks whole is
    what this names: a secret-looking key, a read at, under or above a secret path, or a
    container or string holding a secret inside."""
    for kind, origin in sorted(facts, key=lambda f: (_ORDER[f[0]], f[1])):
        if kind == "key":
            return dotted(_plain(origin))
        if kind == "path":
            for secret in paths:
                if origin[: len(secret)] == secret or secret[: len(origin)] == origin:
                    return dotted(secret)
        elif kind == "holds" and holds(origin):
            return dotted(_plain(origin))
    return None


Judge = Callable[[Prov], tuple[str | None, str | None]]

__all__ = [
    "CLEAN",
    "Flow",
    "Prov",
    "SecretRead",
    "dotted",
    "judge",
    "path_reason",
    "secret_origin",
    "stop_at_secrets",
    "watch_secrets",
]
