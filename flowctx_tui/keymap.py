"""User key maps: ``{binding_id: keys}`` in a JSON or YAML file, applied with App.set_keymap.

Every binding the app defines carries an ``id`` (``app.*``, ``matrix.*``, ...). A typo in a
key map is reported with file:line:col and a did-you-mean rather than silently ignored.

So is a key moved onto one that is already bound where both would be active (in the same
view, or an app key and a view's): Textual would silently keep one of the two (with
``matrix.next_error: d``, Detail stopped working). Such a key map is refused, naming both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from flowctx_core.base.diagnostics import Diagnostic, did_you_mean
from flowctx_core.base.yamlmarks import load_yaml_file


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


@dataclass(frozen=True)
class BoundKey:
    """One binding id: its default keys and where it is active."""

    id: str
    keys: str
    description: str
    #: the classes whose bindings include it (a class's BINDINGS merged over its bases)
    owners: frozenset[str]
    on_app: bool  # declared on the App: active wherever no focused widget shadows it
    on_screen: bool  # declared on a screen (a dialog): active only there
    priority: bool  # runs before any widget sees the key, everywhere


def bound_keys(classes: Iterable[type]) -> dict[str, BoundKey]:
    """``{id: BoundKey}`` for every binding with an id declared on ``classes``."""
    from textual.app import App
    from textual.binding import Binding
    from textual.screen import Screen

    owners: dict[str, set[str]] = {}
    first: dict[str, tuple[Binding, type]] = {}
    for cls in classes:
        for klass in cls.__mro__:
            for b in klass.__dict__.get("BINDINGS", ()):
                if isinstance(b, Binding) and b.id:
                    owners.setdefault(b.id, set()).add(cls.__qualname__)
                    first.setdefault(b.id, (b, klass))
    return {
        bid: BoundKey(
            bid,
            b.key,
            b.description or b.action,
            frozenset(owners[bid]),
            issubclass(klass, App),
            issubclass(klass, Screen),
            b.priority,
        )
        for bid, (b, klass) in first.items()
    }


def _key_set(keys: str) -> set[str]:
    from textual.keys import _normalize_key_list

    return {k for k in _normalize_key_list(keys).split(",") if k}


def _active_together(a: BoundKey, b: BoundKey) -> bool:
    if a.owners & b.owners:
        return True  # one class's bindings: Textual keeps one binding per key
    if (a.priority and a.on_app) or (b.priority and b.on_app):
        return True  # an app priority key runs before any widget, on every screen
    if a.on_screen or b.on_screen:
        return False  # a dialog's keys are active only in that dialog (it is modal)
    # an app key and a key of a widget on the main screen: the widget's wins while focused
    return a.on_app != b.on_app


def _clashes(bound: Mapping[str, BoundKey], keymap: Mapping[str, str]) -> set[tuple[str, str]]:
    """``(id, other_id)`` pairs, ``id`` remapped, whose keys meet where both are active."""
    keys = {bid: _key_set(keymap.get(bid, b.keys)) for bid, b in bound.items()}
    out = set()
    for bid in keymap:
        if bid not in bound:
            continue
        for other, spec in bound.items():
            if other != bid and keys[bid] & keys[other] and _active_together(bound[bid], spec):
                out.add((bid, other))
    return out


def keymap_conflicts(
    bound: Mapping[str, BoundKey], keymap: Mapping[str, str]
) -> list[tuple[str, str, str]]:
    """``(id, key, other_id)`` for each key the key map puts where another binding is.

    Clashes the app has without any key map are not the key map's doing and not reported.
    """
    before = _clashes(bound, {})
    found = []
    for bid, other in sorted(_clashes(bound, keymap) - before):
        mine = _key_set(keymap[bid])
        theirs = _key_set(keymap.get(other, bound[other].keys))
        for key in sorted(mine & theirs):
            found.append((bid, key, other))
    return found


def load_keymap(
    path: Path,
    known: Iterable[str],
    bound: Mapping[str, BoundKey] | None = None,
    *,
    under: str | None = None,
) -> dict[str, str]:
    """Read and check a key map; raises KeymapError listing every problem.

    With ``bound`` (see ``bound_keys``), a key moved onto another binding's key where both
    are active is an error too, located at the remapped id. ``under``: the key map is the
    value of that top-level key (the user's settings file, ``keymap:``), not the whole file.
    """
    at: tuple[str, ...] = (under,) if under else ()
    display = str(path)
    if not path.is_file():
        raise KeymapError(f"{display}: key map file not found")
    doc, problems = load_yaml_file(path, display)
    errors: list[Diagnostic] = [p for p in problems if p.severity == "error"]
    keymap: dict[str, str] = {}
    known_ids = sorted(set(known))
    if doc is not None:
        data = doc.data
        if under and isinstance(data, dict):
            data = data.get(under)
        if data is None:
            data = {}
        if not isinstance(data, dict):
            errors.append(doc.diag(at, "a key map must be a mapping of binding id to keys"))
            data = {}
        for bid, keys in data.items():
            if not isinstance(bid, str) or bid not in known_ids:
                hint = did_you_mean(str(bid), known_ids)
                errors.append(doc.diag((*at, bid), f"unknown binding id {bid!r}{hint}"))
                continue
            if isinstance(keys, list) and keys and all(isinstance(k, str) for k in keys):
                keys = ",".join(keys)
            if not isinstance(keys, str) or not keys.strip():
                errors.append(
                    doc.diag(
                        (*at, bid), "keys must be a string such as 'f5' or 'ctrl+r,f5'", key=False
                    )
                )
                continue
            keymap[bid] = ",".join(k.strip() for k in keys.split(",") if k.strip())
    if bound is not None and doc is not None:
        from textual.keys import format_key

        for bid, key, other in keymap_conflicts(bound, keymap):
            spec = bound[other]
            how = f"remapped here to {keymap[other]!r}" if other in keymap else "by default"
            errors.append(
                doc.diag(
                    (*at, bid),
                    f"{format_key(key)!r} is already the key of {other} ({spec.description}, "
                    f"{how}); only one of them would work. Give {other} another key as "
                    "well, or choose a free key for "
                    f"{bid}",
                    key=False,
                )
            )
    if errors:
        lines = [d.format() for d in errors]
        lines.append("binding ids: " + ", ".join(known_ids))
        raise KeymapError("\n".join(lines))
    return keymap
