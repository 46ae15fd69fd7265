"""What an Action step hands its action and what its outputs do to the payload (5.51.3).

``ActionInputMapping`` (an object, or JSON text of one; resolved recursively through objects
and arrays): a string value, trimmed and matched case-insensitively, is ``static:`` (the rest
after the first colon), ``payload.a.b[0]``, ``data.…`` or ``context.…`` (only when the run has
data or context: otherwise the literal text is passed), a ``conversation.`` reference (the
run's messages, which flowctx does not have), else the literal; a missing path is undefined.
``ActionOutputMapping`` maps output parameters (case-insensitive, dotted, ``*`` for all) to
payload paths (dotted, ``key[]`` appends) or ``$message``/``$reasoning``/``$confidence``.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from flowctx_core.expressions.js.values import truthy

#: what flowctx shows for a value it cannot know (a conversation reference, an undefined path)
UNDEFINED: Final = {"$undefined": True}
_INDEXED = re.compile(r"^([^\[]+)\[(\d+)\]$")
_CONVERSATION = re.compile(r"^conversation\.(all|user|assistant|ai|system)\b", re.I)


def _path(obj: Any, path: str) -> Any:
    cur = obj
    for part in path.split("."):
        if not part:
            continue
        m = _INDEXED.match(part)
        if m is not None:
            name, index = m.group(1), int(m.group(2))
            if isinstance(cur, Mapping) and name in cur:
                cur = cur[name]
                if isinstance(cur, list) and 0 <= index < len(cur):
                    cur = cur[index]
                else:
                    return UNDEFINED
            else:
                return UNDEFINED
        elif isinstance(cur, Mapping) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return UNDEFINED
    return cur


def resolve_input(value: Any, payload: Any, data: Any, context: Any) -> Any:
    if isinstance(value, str):
        t = value.strip()
        low = t.lower()
        if _CONVERSATION.match(t):
            return {"$conversation": t}
        if low.startswith("static:"):
            return value[value.index(":") + 1 :]
        if low.startswith("payload."):
            return _path(payload, value[value.index(".") + 1 :])
        if low.startswith("data.") and truthy(data):
            return _path(data, value[value.index(".") + 1 :])
        if low.startswith("context.") and truthy(context):
            return _path(context, value[value.index(".") + 1 :])
        return value
    if isinstance(value, list):
        return [resolve_input(v, payload, data, context) for v in value]
    if isinstance(value, Mapping):
        return {k: resolve_input(v, payload, data, context) for k, v in value.items()}
    return value


def action_params(mapping: str | None, payload: Any, data: Any, context: Any) -> Any:
    """The params the action receives, or None when the step maps none (or the mapping is
    not JSON: 5.51.3 logs it and passes none)."""
    if not mapping:
        return None
    try:
        parsed = json.loads(mapping)
    except ValueError:
        return None
    if not isinstance(parsed, Mapping):
        return None
    return {k: resolve_input(v, payload, data, context) for k, v in parsed.items()}


def _find(obj: Mapping[str, Any], key: str) -> Any:
    for k in obj:
        if k.lower() == key.lower():
            return obj[k]
    return UNDEFINED


def output_changes(outputs: Mapping[str, Any], mapping: str | None) -> tuple[dict, dict]:
    """(payload update, special fields) from an action's output parameters."""
    update: dict[str, Any] = {}
    special: dict[str, Any] = {}
    if not mapping:
        return update, special
    try:
        parsed = json.loads(mapping)
    except ValueError:
        return update, special
    if not isinstance(parsed, Mapping):
        return update, special
    for out_param, target in parsed.items():
        if out_param == "*":
            value: Any = dict(outputs)
        elif "." in out_param:
            value = outputs
            for part in out_param.split("."):
                value = _find(value, part) if isinstance(value, Mapping) else UNDEFINED
        else:
            value = _find(outputs, out_param)
        if value is UNDEFINED or not isinstance(target, str):
            continue
        if target.startswith("$"):
            name = target[1:].lower()
            if (name in ("message", "reasoning") and isinstance(value, str)) or (
                name == "confidence" and isinstance(value, (int, float))
            ):
                special[name] = value
            continue
        parts = target.split(".")
        cur = update
        for part in parts[:-1]:
            clean = part[:-2] if part.endswith("[]") else part
            cur = cur.setdefault(clean, {})
        last = parts[-1]
        if last.endswith("[]"):
            cur.setdefault(last[:-2], []).append(copy.deepcopy(value))
        else:
            cur[last] = copy.deepcopy(value)
    return update, special
