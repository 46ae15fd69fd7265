"""User key maps: ``{binding_id: keys}`` in a JSON or YAML file, applied with App.set_keymap.

Every binding the app defines carries an ``id`` (``app.*``, ``matrix.*``, ...). A typo in a
key map is reported with file:line:col and a did-you-mean rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from core.diagnostics import Diagnostic, did_you_mean
from core.yamlmarks import load_yaml_file


class KeymapError(Exception):
    """The key map file cannot be used; the message names file:line:col."""


def binding_ids(classes: Iterable[type]) -> dict[str, str]:
    """``{id: description}`` for every binding with an id declared on ``classes``."""
    from textual.binding import Binding

    out: dict[str, str] = {}
    for cls in classes:
        for klass in cls.__mro__:
            for b in klass.__dict__.get("BINDINGS", ()):
                if isinstance(b, Binding) and b.id:
                    out.setdefault(b.id, b.description or b.action)
    return out


def load_keymap(path: Path, known: Iterable[str]) -> dict[str, str]:
    """Read and check a key map; raises KeymapError listing every problem."""
    display = str(path)
    if not path.is_file():
        raise KeymapError(f"{display}: key map file not found")
    doc, problems = load_yaml_file(path, display)
    errors: list[Diagnostic] = [p for p in problems if p.severity == "error"]
    keymap: dict[str, str] = {}
    known_ids = sorted(set(known))
    if doc is not None:
        data = doc.data
        if data is None:
            data = {}
        if not isinstance(data, dict):
            errors.append(doc.diag((), "a key map must be a mapping of binding id to keys"))
            data = {}
        for bid, keys in data.items():
            if not isinstance(bid, str) or bid not in known_ids:
                hint = did_you_mean(str(bid), known_ids)
                errors.append(doc.diag((bid,), f"unknown binding id {bid!r}{hint}"))
                continue
            if isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys):
                keys = ",".join(keys)
            if not isinstance(keys, str) or not keys.strip():
                errors.append(
                    doc.diag((bid,), "keys must be a string such as 'f5' or 'ctrl+r,f5'", key=False)
                )
                continue
            keymap[bid] = ",".join(k.strip() for k in keys.split(",") if k.strip())
    if errors:
        lines = [d.format() for d in errors]
        lines.append("binding ids: " + ", ".join(known_ids))
        raise KeymapError("\n".join(lines))
    return keymap
