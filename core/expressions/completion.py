"""Completion of names and paths in a condition, from the scope it will be evaluated against.

``mj`` and ``python`` complete dotted paths into the scope (``data.u`` -> ``data.userApproval``),
walking dicts by key and lists by index, and offer ``length`` and the allowed methods on strings
and arrays (``mj``). ``ag2`` completes ``${`` with the context variable names
(``${inter`` -> ``${interview_complete}``). Only keys are offered, never values; and never the
keys inside a secret (a secret variable named in ``secret_paths``, or any value under a
secret-looking key): ``api_tokens: {tok_live_...: ...}`` keeps its tokens in its keys.

A candidate replaces ``text[start:cursor]``; ``apply_completion`` does that splice.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from flowctx_core.base.secrets import is_secret_key
from flowctx_core.expressions.js.globals import COMPLETION_ARRAY_METHODS as ARRAY_METHODS
from flowctx_core.expressions.js.globals import COMPLETION_GLOBALS as GLOBALS
from flowctx_core.expressions.js.globals import COMPLETION_NAMESPACES as NAMESPACES
from flowctx_core.expressions.js.globals import COMPLETION_STRING_METHODS as STRING_METHODS
from flowctx_core.expressions.python import FUNCTIONS as PY_FUNCTIONS

_IDENT_RE = re.compile(r"[A-Za-z_$][\w$]*\Z")
_PY_IDENT_RE = re.compile(r"[A-Za-z_]\w*\Z")

# A path ending at the cursor: a root name, then ``.name`` / ``?.name`` / ``[index]`` /
# ``["key"]`` accessors, then possibly a trailing ``.`` or ``?.`` and a partial name.
_SEGMENT = r"""(?:\??\.[A-Za-z_$][\w$]*|(?:\?\.)?\[(?:\d+|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\])"""
_PATH_AT_END = re.compile(
    rf"(?P<root>[A-Za-z_$][\w$]*)(?P<rest>{_SEGMENT}*?)(?P<dot>\??\.)?(?P<partial>[A-Za-z_$][\w$]*)?\Z"
)
_ONE_SEGMENT = re.compile(
    r"""\??\.(?P<name>[A-Za-z_$][\w$]*)|(?:\?\.)?\[(?:(?P<index>\d+)|"(?P<dq>(?:[^"\\]|\\.)*)"|'(?P<sq>(?:[^'\\]|\\.)*)')\]"""
)
# ``${`` opened and not yet closed at the cursor.
_AG2_OPEN = re.compile(r"\$\{\s*(?P<partial>[^}\s]*)\Z")

_MJ_WORDS = ("true", "false", "null", "undefined", "typeof")
_PY_WORDS = ("True", "False", "None", "and", "or", "not", "in", "is")
_MISSING = object()


@dataclass(frozen=True)
class Completion:
    """Candidates for ``text[start:end]`` (``end`` is the cursor); empty when nothing fits."""

    start: int
    end: int
    candidates: tuple[str, ...] = ()


def complete(
    text: str,
    cursor: int,
    scope: Mapping[str, Any],
    dialect: str,
    secret_paths: Collection[str] = (),
) -> list[str]:
    """Texts that could replace the name or path just before ``cursor``, best first."""
    return list(completions(text, cursor, scope, dialect, secret_paths).candidates)


def completions(
    text: str,
    cursor: int,
    scope: Mapping[str, Any],
    dialect: str,
    secret_paths: Collection[str] = (),
) -> Completion:
    """``secret_paths``: dotted paths (``context.api_tokens``) whose values are secret; their
    members are never listed (nor those of a value under a secret-looking key)."""
    cursor = max(0, min(cursor, len(text)))
    before = text[:cursor]
    if _inside_string(before):
        return Completion(cursor, cursor)
    if dialect == "ag2":
        return _complete_ag2(before, scope)
    return _complete_path(before, scope, dialect, frozenset(secret_paths))


def apply_completion(text: str, completion: Completion, candidate: str) -> tuple[str, int]:
    """``text`` with the candidate spliced in, and the cursor placed after it."""
    after = text[completion.end :]
    if candidate.endswith("}") and after.startswith("}"):
        after = after[1:]  # the user already closed the ``${``
    new_text = text[: completion.start] + candidate + after
    return new_text, completion.start + len(candidate)


# --- ag2 -------------------------------------------------------------------------------------


def _complete_ag2(before: str, scope: Mapping[str, Any]) -> Completion:
    m = _AG2_OPEN.search(before)
    if m is None:
        return Completion(len(before), len(before))
    partial = m.group("partial")
    names = [str(k) for k in scope]
    chosen = _ranked(names, partial)
    return Completion(m.start(), len(before), tuple("${" + n + "}" for n in chosen))


# --- mj and python paths ---------------------------------------------------------------------


def _complete_path(
    before: str, scope: Mapping[str, Any], dialect: str, secret: frozenset[str] = frozenset()
) -> Completion:
    m = _PATH_AT_END.search(before)
    if m is None or _preceded_by_member(before, m.start()):
        return Completion(len(before), len(before))
    root, rest, dot = m.group("root", "rest", "dot")
    partial = m.group("partial") or ""
    start = m.start()
    if not rest and not dot:
        # a bare name: scope names first, then what the dialect offers at top level
        chosen = _ranked(_top_level(scope, dialect), root)
        return Completion(start, len(before), tuple(c for c in chosen if c != root))
    if dialect == "mj" and root in NAMESPACES and not rest:
        chosen = _ranked(sorted(NAMESPACES[root]), partial)
        return Completion(start, len(before), tuple(f"{root}.{c}" for c in chosen))
    value = scope.get(root, _MISSING)
    path = root
    if path in secret or is_secret_key(root):
        return Completion(len(before), len(before))
    for seg in _ONE_SEGMENT.finditer(rest):
        key = _key_of(seg)
        value = _step(value, seg)
        path = f"{path}.{key}"
        # the members of a secret are part of it: its keys are never offered
        if value is _MISSING or path in secret or is_secret_key(key):
            return Completion(len(before), len(before))
    base = before[start:].removesuffix(partial)
    base = base[: len(base) - len(dot)] if dot else base
    sep = dot or "."
    out = [
        base + _accessor(name, sep, dialect) for name in _ranked(_members(value, dialect), partial)
    ]
    return Completion(start, len(before), tuple(out))


def _key_of(seg: re.Match[str]) -> str:
    name, index, dq, sq = seg.group("name", "index", "dq", "sq")
    found = (
        name if name is not None else index if index is not None else dq if dq is not None else sq
    )
    return str(found)


def _step(value: Any, seg: re.Match[str]) -> Any:
    name, index, dq, sq = seg.group("name", "index", "dq", "sq")
    key = name if name is not None else dq if dq is not None else sq
    if index is not None:
        if isinstance(value, list) and int(index) < len(value):
            return value[int(index)]
        if isinstance(value, Mapping):
            return value.get(index, _MISSING)
        return _MISSING
    if isinstance(value, Mapping):
        return value.get(key, _MISSING)
    return _MISSING


def _members(value: Any, dialect: str) -> list[str]:
    if isinstance(value, Mapping):
        return [str(k) for k in value]
    if dialect != "mj":
        return []
    if isinstance(value, list):
        return ["length", *ARRAY_METHODS]
    if isinstance(value, str):
        return ["length", *STRING_METHODS]
    return []


def _accessor(name: str, sep: str, dialect: str) -> str:
    ident = _IDENT_RE if dialect == "mj" else _PY_IDENT_RE
    if ident.match(name):
        return sep + name
    quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return ("?.[" if sep == "?." else "[") + quoted + "]"


def _top_level(scope: Mapping[str, Any], dialect: str) -> list[str]:
    names = [str(k) for k in scope]
    if dialect == "mj":
        extra = [*_MJ_WORDS, *NAMESPACES, *(g for g in GLOBALS if "." not in g)]
    else:
        extra = [*_PY_WORDS, *PY_FUNCTIONS]
    seen = dict.fromkeys(names)
    for word in extra:
        seen.setdefault(word, None)
    return list(seen)


def _ranked(names: list[str], partial: str) -> list[str]:
    """Names starting with ``partial`` (exact case first), keeping their order otherwise."""
    exact = [n for n in names if n.startswith(partial)]
    low = partial.lower()
    loose = [n for n in names if n not in exact and n.lower().startswith(low)]
    return exact + loose


def _preceded_by_member(before: str, start: int) -> bool:
    """A path right after ``)`` or ``]`` + ``.`` belongs to a call result we cannot see into."""
    return start > 0 and before[start - 1] in ".$\\"


def _inside_string(before: str) -> bool:
    quote: str | None = None
    escaped = False
    for ch in before:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif quote is not None:
            if ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
    return quote is not None
