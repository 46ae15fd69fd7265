"""Explain trees: every sub-expression with its value, so an author sees which part was false.

The tree is built from the compiled AST and one traced evaluation (node id -> value or error,
and each value's provenance). Literals are left out (their value is their text); comparisons
fold their simple operands into ``(got ...)``; branches that short-circuiting never reached
are marked skipped.

Secret values are masked here, at display time, because the evaluator must see the real
values to decide the same way the runtime would; what is secret is decided by provenance
(``flowctx_core.expressions.provenance``), not by what the text mentions. A value is masked when it
was read, or derived by any operation, from: one of the caller's secret paths
(``context.db_password``, or a whole root such as ``context``), a secret-looking key (judged on
the key's runtime value), a URI password, or a container holding one. Its verdict says why:
``*** (secret: key looks secret)``, ``*** (secret: derived from context.region)``.

What stays visible: booleans, null and undefined (the verdict of a comparison is what the
author needs, and it says no more about the secret than whether the condition matched), type
names from ``typeof``, and values beside a secret (``payload.status`` next to
``payload.api_key``, shown with the secret entry masked).
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice
from typing import Any, Final

from flowctx_core.base.secrets import (
    KEY_REASON,
    MASK,
    URI_REASON,
    is_secret_key,
    mask_value,
    secret_strings,
)
from flowctx_core.expressions.js.values import UNDEFINED, JsFunction, JsObject
from flowctx_core.expressions.provenance import judge, path_reason
from flowctx_core.expressions.python import PyMethod
from flowctx_core.expressions.sandbox import Compiled, ShortCircuit, Trace, error_message, span_of

SKIPPED: Final = "skipped"
_MAX_SHOWN: Final = 120  # characters of a value shown on one explain line
_MAX_STRING: Final = 1000  # characters of a string kept in a display value
_MAX_ITEMS: Final = 200  # items of a list or mapping kept in a display value
#: the reason given for a caller's secret path that came without one
MARKED_REASON: Final = "marked secret"

#: where secrets live: dotted paths (``context.api_token``, ``db_url``), each with the reason
#: shown beside its masked values, or a plain collection of them (reason: "marked secret")
SecretPaths = Collection[str] | Mapping[str, str]


@dataclass(frozen=True, slots=True)
class ExplainNode:
    """One sub-expression: its source text, its (display) value and its parts.

    ``value`` is JSON-able: JavaScript undefined is the string "undefined", NaN/Infinity are
    strings, masked values are "***", and a branch never evaluated has ``value == "skipped"``
    with ``skipped=True``. ``display`` is the verdict text used by ``lines()``.
    """

    text: str
    value: Any
    children: tuple[ExplainNode, ...]
    error: str | None = None
    start: int = 0
    end: int = 0
    display: str = ""
    skipped: bool = False
    warnings: tuple[str, ...] = ()  # on the root: surprises of the whole answer

    def lines(self) -> list[str]:
        """The tree as indented lines: ``+ data.retryCount < 3 -> true (got 2)``, then one
        ``! warning: ...`` line per warning."""
        out: list[str] = []
        self._render(0, out)
        out.extend(f"! warning: {w}" for w in self.warnings)
        return out

    def _render(self, depth: int, out: list[str]) -> None:
        text = " ".join(self.text.split())
        if self.error is not None:
            inner = any(c.error == self.error for c in self.children)
            verdict = "error (below)" if inner else f"error: {self.error}"
        elif self.skipped:
            verdict = "skipped (not evaluated)"
        else:
            verdict = self.display or _show(self.value, "mj")
        out.append(f"{'  ' * depth}+ {text} -> {verdict}")
        for child in self.children:
            child._render(depth + 1, out)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "value": self.value,
            "display": self.display,
            "error": self.error,
            "skipped": self.skipped,
            "start": self.start,
            "end": self.end,
            "children": [c.to_json() for c in self.children],
            "warnings": list(self.warnings),
        }


# --- display values --------------------------------------------------------------------------


#: items one display value shows in all (references nest: 200 items a level, 25 levels deep,
#: would be 200**25 items to render)
_MAX_SHOWN_ITEMS: Final = 5_000


def jsonable(value: Any, depth: int = 0, room: list[int] | None = None) -> Any:
    """A JSON-able rendering of an evaluation value (not for evaluation)."""
    if room is None:
        room = [_MAX_SHOWN_ITEMS]
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, str):
        # A display value: long strings are cut (which also bounds the masking regexes).
        return value if len(value) <= _MAX_STRING else value[:_MAX_STRING] + "..."
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if depth > 50 or room[0] <= 0:
        return "..."
    # Containers are cut like strings: a line shows 120 characters, and converting (then
    # masking and scrubbing) all of a 90,000-item list took seconds per evaluation.
    if isinstance(value, (dict, list, tuple, set, frozenset)):
        room[0] -= min(len(value), _MAX_ITEMS) + 1
    if isinstance(value, dict):
        out = {str(k): jsonable(v, depth + 1, room) for k, v in islice(value.items(), _MAX_ITEMS)}
        if len(value) > _MAX_ITEMS:
            out["..."] = f"{len(value) - _MAX_ITEMS} more"
        return out
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        shown = [jsonable(v, depth + 1, room) for v in islice(items, _MAX_ITEMS)]
        if len(value) > _MAX_ITEMS:
            shown.append(f"... {len(value) - _MAX_ITEMS} more")
        return shown
    if isinstance(value, (JsFunction, PyMethod)) or callable(value):
        return "function"
    if isinstance(value, JsObject):  # a Date, RegExp, Map...: how it reads in the condition
        return repr(value)
    return f"<{type(value).__name__}>"


def _show(value: Any, dialect: str, undefined: bool = False) -> str:
    """How a display value reads on an explain line, in the dialect's own spelling."""
    if undefined:
        return "undefined"
    if value == MASK and isinstance(value, str):
        return MASK
    if dialect == "mj":
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = repr(value)
    return text if len(text) <= _MAX_SHOWN else text[: _MAX_SHOWN - 3] + "..."


def masked(value: Any, *, tainted: bool) -> Any:
    """The display value: everything derived from a secret root is ``***`` except booleans
    and absence (which only say whether the condition matched); secret keys inside objects
    and URI passwords inside strings are masked everywhere."""
    if tainted and not (value is None or value is UNDEFINED or isinstance(value, bool)):
        return MASK
    return mask_value(jsonable(value))


# --- building the tree -----------------------------------------------------------------------


def _static_path(node: ast.AST) -> bool:
    """``a.b[0].c``: a path whose parts are all written out, shown as one line."""
    while True:
        if isinstance(node, ast.Name):
            return True
        if isinstance(node, ast.Attribute) or (
            isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
        ):
            node = node.value
        elif type(node).__name__ in ("JsOptional", "JsChain"):
            node = node.value  # type: ignore[attr-defined]
        else:
            return False


def _parts(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.Attribute):
        return [] if _static_path(node.value) else [node.value]
    if isinstance(node, ast.Subscript):
        parts: list[ast.AST] = [] if _static_path(node.value) else [node.value]
        return parts if isinstance(node.slice, ast.Constant) else [*parts, node.slice]
    if isinstance(node, ast.Call):
        func = node.func
        parts = []
        if isinstance(func, (ast.Attribute, ast.Subscript)):
            receiver = func.value
            while type(receiver).__name__ == "JsOptional":
                receiver = receiver.value  # type: ignore[attr-defined]
            parts.append(receiver)
        elif not isinstance(func, ast.Name):
            parts.append(func)
        return [*parts, *node.args, *(kw.value for kw in node.keywords)]
    return list(ast.iter_child_nodes(node))


# JavaScript spells these as names (a scope key may even shadow them), but an author reads
# them as literals: their value is their text.
_LITERAL_NAMES: Final = frozenset({"undefined", "NaN", "Infinity"})


def _shown(node: ast.AST) -> bool:
    return (
        hasattr(node, "fx_start")
        and not isinstance(node, ast.Constant)
        and not (isinstance(node, ast.Name) and node.id in _LITERAL_NAMES)
        and type(node).__name__ not in ("JsOptional", "JsHole")
    )


def _shown_parts(node: ast.AST) -> list[ast.AST]:
    found: list[ast.AST] = []
    own = span_of(node)
    for part in _parts(node):
        if _shown(part) and span_of(part) != own:
            found.append(part)
        else:
            found.extend(_shown_parts(part))
    return found


def _path_of(node: ast.AST) -> tuple[str, ...] | None:
    """``context.a["b"]`` as ("context", "a", "b"); None when a part is computed."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Name):
            return (node.id, *reversed(parts))
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            parts.append(str(node.slice.value))
        elif type(node).__name__ not in ("JsOptional", "JsChain"):
            return None
        node = node.value  # type: ignore[attr-defined]


def _reads_secret_key(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return is_secret_key(node.id)
    if isinstance(node, ast.Attribute):
        return is_secret_key(node.attr)
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and is_secret_key(node.slice.value)
    )


def _taint_reasons(tree: ast.AST, paths: Mapping[tuple[str, ...], str]) -> dict[int, str | None]:
    """For every node, why its value is secret, or None: it reads a secret-looking key, reads
    at or under a secret path, or reads a whole object that holds one (``context`` itself).

    One post-order pass, so explain trees stay linear in the size of the expression (a walk
    per node was quadratic: 1.8 s for a 1,000-character condition). A node with a written-out
    path (``context.a["b"]``) is judged by that path alone, its parts by theirs.
    """
    key: dict[int, bool] = {}
    by_path: dict[int, str | None] = {}
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, done = stack.pop()
        children = list(ast.iter_child_nodes(node))
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children))
            continue
        key[id(node)] = _reads_secret_key(node) or any(key[id(c)] for c in children)
        path = _path_of(node) if paths else None
        if path is not None:
            by_path[id(node)] = path_reason(path, paths)
        else:
            by_path[id(node)] = next(
                (r for c in children if (r := by_path[id(c)]) is not None), None
            )
    return {n: KEY_REASON if key[n] else by_path[n] for n in key}


def secret_paths(roots: SecretPaths) -> dict[tuple[str, ...], str]:
    """The caller's secret paths split into parts, each with its reason."""
    if isinstance(roots, Mapping):
        return {tuple(str(p).split(".")): str(why) for p, why in roots.items()}
    return {tuple(str(p).split(".")): MARKED_REASON for p in roots}


#: Keys repeat across the records of a document; each is judged once (the walk below made
#: 360,000 ``is_secret_key`` calls for a 10 MB scratchpad document, on every evaluation).
_secret_key = lru_cache(maxsize=4096)(is_secret_key)


def _collect(value: Any, found: set[str], *, every: bool, depth: int = 0) -> None:
    """Add to ``found`` the strings of ``value`` that are secret: all of them when ``every``,
    else those under secret-looking keys and URI passwords."""
    if depth > 50:
        return
    if isinstance(value, str):
        if every:
            found.add(value)
        elif "://" in value and len(value) <= 4 * _MAX_STRING:
            # Long strings are displayed cut, so only short ones need the (costly) URI scan.
            found |= secret_strings(value)
        return
    if isinstance(value, dict):
        pairs: Any = value.items()
    elif isinstance(value, (list, tuple)):
        pairs = ((None, item) for item in value)
    else:
        return
    # scalars are handled here rather than by a call each: most of a large document's nodes
    for key, item in pairs:
        secret = every or (key is not None and _secret_key(key))
        if isinstance(item, str):
            if secret:
                found.add(item)
            elif "://" in item and len(item) <= 4 * _MAX_STRING:
                found |= secret_strings(item)
        elif isinstance(item, (dict, list, tuple)):
            _collect(item, found, every=secret, depth=depth + 1)


def _secrets_in(scope: Any, paths: Mapping[tuple[str, ...], str]) -> list[str]:
    """Secret strings that must not appear inside any displayed string (e.g. a
    ``JSON.stringify(payload)`` whose payload holds an api key). Very short strings are left
    out: masking every "a" would hide everything and protect nothing.

    The strings under the secret paths are listed (a ``context.db_password`` quoted by
    ``JSON.stringify(context)``); a whole root marked secret is not: whatever reads it is
    masked whole by taint, and listing it would mask an unrelated ``payload.status`` just
    because some context variable also holds "pending"."""
    if not isinstance(scope, dict):
        return []
    found: set[str] = set()
    for name, value in scope.items():
        _collect(value, found, every=is_secret_key(name))
    for path in paths:
        value = scope
        for part in path:
            value = value.get(part) if isinstance(value, dict) else None
        if len(path) > 1 and value is not None:
            _collect([value], found, every=True)
    return sorted((s for s in found if len(s) >= 4), key=len, reverse=True)


def secret_strings_of(scope: Any, roots: SecretPaths) -> list[str]:
    """Every secret string of ``scope``: under the secret roots (whole roots included), under
    secret-looking keys, URI passwords; longest first, four characters or more."""
    if not isinstance(scope, Mapping):
        return []
    found: set[str] = set(_secrets_in(dict(scope), secret_paths(roots)))
    for path in secret_paths(roots):
        value: Any = scope
        for part in path:
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is not None:
            _collect([value], found, every=True)
    return sorted((s for s in found if len(s) >= 4), key=len, reverse=True)


def errors_scrubbed(node: ExplainNode, secrets: list[str]) -> ExplainNode:
    """The tree with each error (and the display that shows it) holding no secret string."""
    children = tuple(errors_scrubbed(child, secrets) for child in node.children)
    if node.error is None or not any(s in node.error for s in secrets):
        return node if children == node.children else replace(node, children=children)
    return replace(
        node,
        children=children,
        error=_scrub(node.error, secrets),
        display=_scrub(node.display, secrets),
    )


def _has_text(value: Any) -> bool:
    if isinstance(value, str):
        return value != MASK
    if isinstance(value, dict):
        return any(_has_text(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_text(v) for v in value)
    return False


def _scrub(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {k: _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


class _Builder:
    def __init__(
        self,
        compiled: Compiled,
        trace: Trace,
        roots: SecretPaths,
        reveal: bool,
        scope: Any = None,
    ) -> None:
        self.compiled = compiled
        self.trace = trace
        self.paths = secret_paths(roots)
        self.reveal = reveal
        self.scope = scope
        self._secrets: list[str] | None = [] if reveal else None
        #: node id -> why its shown value is masked
        self.why: dict[int, str] = {}
        self.reasons = _taint_reasons(compiled.tree, self.paths)
        self.flow = trace.flow

    def value_of(self, node: ast.AST) -> tuple[str, Any]:
        """("ok", display value) | ("error", message) | ("skipped", None)."""
        record = self.trace.records.get(id(node))
        if record is None:
            return ("skipped", None)
        ok, value = record
        if not ok:
            return ("error", error_message(value))
        if self.reveal:
            return ("ok", jsonable(value))
        mode, flowed = self.judged(node)
        if mode != "unknown":
            why = flowed if mode == "whole" else None
        else:  # no provenance recorded (ag2's pasted form): what the text shows
            why = self.reasons.get(id(node))
        shown = masked(value, tainted=why is not None)
        if shown == MASK and why is not None:
            self.why[id(node)] = why
        elif isinstance(shown, str) and isinstance(value, str) and shown != jsonable(value):
            self.why[id(node)] = URI_REASON
        if _has_text(shown) and self.secrets:
            scrubbed = _scrub(shown, self.secrets)
            if scrubbed != shown and isinstance(scrubbed, str):
                self.why.setdefault(id(node), "holds a secret value")
            shown = scrubbed
        return ("ok", shown)

    @property
    def secrets(self) -> list[str]:
        """The scope's secret strings, for scrubbing shown text: found on first need (a tree
        showing no text never walks a large scope for them)."""
        if self._secrets is None:
            self._secrets = _secrets_in(self.scope, self.paths)
        return self._secrets

    def judged(self, node: ast.AST) -> tuple[str | None, str | None]:
        """What the value's provenance says: ("whole", why), ("inside", None) or (None,
        None); ("unknown", None) when the trace kept no provenance for it (ag2's pasted form
        records only the verdict), leaving it to what the text shows."""
        prov = self.flow.prov.get(id(node)) if self.flow is not None else None
        if prov is None:
            return ("unknown", None)
        if not prov.facts:
            return (None, None)
        return judge(prov, self.paths, self.flow.holds)  # type: ignore[union-attr]

    def show(self, node: ast.AST, state: tuple[str, Any]) -> str:
        dialect = self.compiled.dialect
        record = self.trace.records.get(id(node))
        if record is not None and record[0] and isinstance(record[1], (JsFunction, PyMethod)):
            return "(function)"
        undefined = record is not None and record[0] and record[1] is UNDEFINED
        text = _show(state[1], dialect, undefined)
        why = self.why.get(id(node))
        return f"{text} (secret: {why})" if why else text

    def build(self, node: ast.AST) -> ExplainNode:
        start, end = span_of(node, (0, len(self.compiled.text)))
        text = self.compiled.text[start:end]
        kind, value = self.value_of(node)
        parts = _shown_parts(node)
        got = ""
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            leaves = [p for p in operands if _shown(p) and not _shown_parts(p)]
            shown = [
                self.show(p, self.value_of(p))
                for p in operands
                if _shown(p) and self.value_of(p)[0] == "ok"
            ]
            if shown:
                got = f" (got {', '.join(shown)})"
            parts = [p for p in parts if p not in leaves or self.value_of(p)[0] == "error"]
        children = tuple(self.build(p) for p in parts)
        if kind == "skipped":
            return ExplainNode(text, SKIPPED, children, None, start, end, "skipped", True)
        if kind == "error":
            return ExplainNode(text, None, children, value, start, end, f"error: {value}")
        display = self.show(node, (kind, value)) + got
        return ExplainNode(text, value, children, None, start, end, display)


def build_explain(
    compiled: Compiled,
    trace: Trace,
    *,
    secret_roots: SecretPaths = ("context",),
    reveal_secrets: bool = False,
    scope: Any = None,
) -> ExplainNode:
    try:
        builder = _Builder(compiled, trace, secret_roots, reveal_secrets, scope)
        return builder.build(compiled.tree)
    except RecursionError:  # validation caps depth, so this is a safety net only
        return failed_explain(compiled.text, "Expression is too deep to explain")


def failed_explain(text: str, message: str) -> ExplainNode:
    """The explain tree of an expression that could not be evaluated at all."""
    return ExplainNode(text, None, (), message, 0, len(text), f"error: {message}")


def with_warnings(node: ExplainNode, warnings: tuple[str, ...]) -> ExplainNode:
    return replace(node, warnings=warnings) if warnings else node


def with_error(node: ExplainNode, message: str) -> ExplainNode:
    return replace(node, error=message, value=None, display=f"error: {message}", skipped=False)


__all__ = [
    "SKIPPED",
    "ExplainNode",
    "SecretPaths",
    "ShortCircuit",
    "build_explain",
    "failed_explain",
    "jsonable",
    "masked",
    "with_error",
    "with_warnings",
]
