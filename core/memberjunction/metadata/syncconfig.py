"""``.mj-sync.json``: which folders hold which entity, and which of their files a push reads.

MetadataSync 5.51.3's push lists an entity folder's record files with fast-glob: the folder's
``filePattern`` (default ``*.json``) from the folder, dot files included (``dot: true``), never
``**/node_modules/**`` or ``**/.mj-*.json``. ``ignoreDirectories`` (from the sync root's
``.mj-sync.json`` and the entity folder's, cumulative) leave out folders by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import read_text_file
from flowctx_core.memberjunction.metadata.jsontree import JsonTextError, Node, read_json_nodes


def quiet_is_dir(path: Path) -> bool:
    """``fsview.is_dir``, False where it cannot be told (a folder that cannot be searched):
    the search goes on, and the loader that reads the place reports why."""
    try:
        return fsview.is_dir(path)
    except OSError:
        return False


def quiet_is_file(path: Path) -> bool:
    try:
        return fsview.is_file(path)
    except OSError:
        return False


SYNC_FILE = ".mj-sync.json"
DEFAULT_PATTERN = "*.json"
#: what the push always leaves out, whatever the pattern says
_ALWAYS_IGNORED = ("**/node_modules/**", "**/.mj-*.json")
#: folders never searched for entity folders
_NEVER_SEARCHED = frozenset({".git", "node_modules", ".hg", ".svn", "__pycache__", ".venv"})
#: how deep below PATH entity folders are looked for (a repository root → metadata/ → agents/)
MAX_SEARCH_DEPTH = 6


@dataclass(frozen=True)
class EntityFolder:
    folder: Path
    config_file: Path
    entity: str
    file_pattern: str
    defaults: dict[str, Node]
    ignore_directories: tuple[str, ...]
    node: Node | None = None
    problems: tuple[Diagnostic, ...] = field(default_factory=tuple)


def read_config(path: Path, display: str) -> tuple[Node | None, list[Diagnostic]]:
    text, problem = read_text_file(path, display)
    if text is None:
        return None, [problem] if problem is not None else []
    try:
        node = read_json_nodes(text, display)
    except JsonTextError as exc:
        return None, [Diagnostic(display, exc.line, exc.column, f"{exc.reason} ({SYNC_FILE})")]
    if node.kind != "object":
        return None, [
            Diagnostic(
                display, node.loc.line, node.loc.column, f"{SYNC_FILE} must hold a JSON object"
            )
        ]
    return node, []


def _strings(node: Node | None) -> tuple[str, ...]:
    if node is None or node.kind != "array":
        return ()
    return tuple(n.value for n in node.value if n.kind == "string")


def entity_of(node: Node | None) -> str | None:
    e = node.get("entity") if node is not None else None
    return e.value if e is not None and e.kind == "string" else None


def load_entity_folder(
    folder: Path, display: str, inherited_ignores: tuple[str, ...] = ()
) -> EntityFolder | None:
    """The entity folder's configuration, or None when its ``.mj-sync.json`` names no entity."""
    node, problems = read_config(folder / SYNC_FILE, display)
    entity = entity_of(node)
    if entity is None:
        return None
    assert node is not None
    pattern_node = node.get("filePattern")
    pattern = (
        pattern_node.value
        if pattern_node is not None and pattern_node.kind == "string" and pattern_node.value
        else DEFAULT_PATTERN
    )
    defaults_node = node.get("defaults")
    defaults = dict(defaults_node.value) if defaults_node and defaults_node.kind == "object" else {}
    ignores = inherited_ignores + _strings(node.get("ignoreDirectories"))
    return EntityFolder(
        folder, folder / SYNC_FILE, entity, pattern, defaults, ignores, node, tuple(problems)
    )


def _brace_alternatives(pattern: str) -> list[str]:
    m = re.search(r"\{([^{}]*)\}", pattern)
    if m is None:
        return [pattern]
    out: list[str] = []
    for alt in m.group(1).split(","):
        out += _brace_alternatives(pattern[: m.start()] + alt + pattern[m.end() :])
    return out


def _segment_regex(seg: str) -> str:
    out, i = [], 0
    while i < len(seg):
        c = seg[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = seg.find("]", i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = seg[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """A fast-glob pattern (``dot: true``) as a regular expression over ``/``-separated paths
    relative to the folder: ``**`` spans any number of folders (none included), ``*`` and
    ``?`` stay within one name and match a leading dot, ``{a,b}`` and ``[...]`` as in globs."""
    alternatives = []
    for pat in _brace_alternatives(pattern.removeprefix("./")):
        parts = pat.split("/")
        rx = ""
        for n, part in enumerate(parts):
            last = n == len(parts) - 1
            if part == "**":
                rx += ".*" if last else "(?:[^/]+/)*"
            else:
                rx += _segment_regex(part) + ("" if last else "/")
        alternatives.append(rx)
    return re.compile("(?:" + "|".join(alternatives) + r")\Z")


def matches(pattern: str, relative: str) -> bool:
    return glob_regex(pattern).match(relative) is not None


def record_files(folder: EntityFolder) -> list[Path]:
    """The files the push reads in ``folder``, sorted as fast-glob lists them (by path)."""
    found: list[Path] = []
    ignored = set(folder.ignore_directories)

    def walk(d: Path, rel: str) -> None:
        try:
            names = sorted(fsview.listdir(d))
        except OSError:
            return
        for name in names:
            p = d / name
            r = f"{rel}{name}"
            if quiet_is_dir(p):
                if name == "node_modules" or name in ignored or r in ignored or name == ".git":
                    continue
                walk(p, r + "/")
            elif matches(folder.file_pattern, r) and not any(
                matches(x, r) for x in _ALWAYS_IGNORED
            ):
                found.append(p)

    walk(folder.folder, "")
    return found


def find_entity_folders(
    start: Path, *, depth: int = MAX_SEARCH_DEPTH, ignores: tuple[str, ...] = ()
) -> list[tuple[Path, tuple[str, ...]]]:
    """Folders at or below ``start`` whose ``.mj-sync.json`` names an entity, with the
    ``ignoreDirectories`` their sync roots add."""
    out: list[tuple[Path, tuple[str, ...]]] = []
    sync = start / SYNC_FILE
    here_ignores = ignores
    if quiet_is_file(sync):
        node, _ = read_config(sync, str(sync))
        if entity_of(node) is not None:
            return [(start, ignores)]
        here_ignores = ignores + _strings(node.get("ignoreDirectories") if node else None)
    if depth <= 0:
        return out
    try:
        names = sorted(fsview.listdir(start))
    except OSError:
        return out
    for name in names:
        if name in _NEVER_SEARCHED or name in here_ignores:
            continue
        p = start / name
        if quiet_is_dir(p):
            out += find_entity_folders(p, depth=depth - 1, ignores=here_ignores)
    return out


def plain_defaults(folder: EntityFolder) -> dict[str, Any]:
    return {k: v.plain() for k, v in folder.defaults.items()}
