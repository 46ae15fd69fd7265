"""MetadataSync metadata as a flowctx workspace: where it is, and every record it holds.

PATH may be an entity folder (its ``.mj-sync.json`` names an entity), any folder above one (a
repository root, the sync root ``metadata/``), or one record file (read with its entity
folder's configuration). Only entity folders of AI agents are read: they hold the agents with
their steps and paths nested.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.memberjunction.metadata.records import (
    AGENTS,
    Record,
    entity_key,
    read_record_file,
)
from flowctx_core.memberjunction.metadata.references import Resolver
from flowctx_core.memberjunction.metadata.syncconfig import (
    SYNC_FILE,
    EntityFolder,
    find_entity_folders,
    load_entity_folder,
    quiet_is_dir,
    quiet_is_file,
    record_files,
)


@dataclass
class Metadata:
    root: Path
    folders: list[EntityFolder]
    files: list[Path]
    records: list[Record]
    resolver: Resolver
    problems: list[Diagnostic] = field(default_factory=list)

    def all_problems(self) -> list[Diagnostic]:
        return self.problems + self.resolver.problems


def _entity_folder_of_file(path: Path) -> Path | None:
    d = path.parent
    for _ in range(8):
        if quiet_is_file(d / SYNC_FILE):
            return d
        if d.parent == d:
            break
        d = d.parent
    return None


#: a record file with no .mj-sync.json above it: read as agents when it plainly holds them
_LOOSE_MARKS = ('"MJ: AI Agent Steps"', '"AI Agent Steps"', "@lookup:MJ: AI Agent Types.")


def loose_agent_file(path: Path) -> bool:
    """A JSON file outside any entity folder whose records are plainly AI agents (steps
    nested, or a type looked up): read as the push would read it from an agents folder
    with no defaults."""
    if path.suffix != ".json" or _entity_folder_of_file(path) is not None:
        return False
    from flowctx_core.base.yamlmarks import read_text_file

    text, _ = read_text_file(path, str(path))
    return text is not None and any(m in text for m in _LOOSE_MARKS)


def agent_folders(path: Path, depth: int | None = None) -> list[Path]:
    """The agents' entity folders PATH names (empty: PATH holds no MJ agent metadata);
    ``depth``: how many folders below PATH to look (default: ``MAX_SEARCH_DEPTH``)."""
    if quiet_is_file(path):
        if path.name == SYNC_FILE:
            path = path.parent
        else:
            found = _entity_folder_of_file(path)
            if found is None and loose_agent_file(path):
                return [path.parent]
            return [found] if found is not None and _is_agents(found) else []
    if not quiet_is_dir(path):
        return []
    below = find_entity_folders(path) if depth is None else find_entity_folders(path, depth=depth)
    return [f for f, _ in below if _is_agents(f)]


def _is_agents(folder: Path) -> bool:
    from flowctx_core.memberjunction.metadata.syncconfig import entity_of, read_config

    node, _ = read_config(folder / SYNC_FILE, str(folder / SYNC_FILE))
    entity = entity_of(node)
    return entity is not None and entity_key(entity) == AGENTS


def is_metadata(path: Path, depth: int | None = None) -> bool:
    return bool(agent_folders(path, depth))


def _root_ignores(folder: Path) -> tuple[str, ...]:
    from flowctx_core.memberjunction.metadata.syncconfig import read_config

    parent = folder.parent / SYNC_FILE
    if not quiet_is_file(parent):
        return ()
    node, _ = read_config(parent, str(parent))
    ign = node.get("ignoreDirectories") if node is not None else None
    if ign is None or ign.kind != "array":
        return ()
    return tuple(n.value for n in ign.value if n.kind == "string")


def _folder_configs(folder: Path) -> list[Path]:
    """``.mj-folder.json`` files at or below an entity folder (a few levels)."""
    out: list[Path] = []

    def walk(d: Path, depth: int) -> None:
        if quiet_is_file(d / ".mj-folder.json"):
            out.append(d / ".mj-folder.json")
        if depth <= 0:
            return
        try:
            names = sorted(fsview.listdir(d))
        except OSError:
            return
        for name in names:
            if name not in ("node_modules", ".git") and quiet_is_dir(d / name):
                walk(d / name, depth - 1)

    walk(folder, 3)
    return out


def load_metadata(path: Path, env: Mapping[str, str] | None = None) -> Metadata:
    """Every record the push would read under PATH (or of the one file PATH names)."""
    path = Path(os.path.abspath(path))
    single = path if quiet_is_file(path) and path.name != SYNC_FILE else None
    root = path.parent if quiet_is_file(path) else path
    folders_found = agent_folders(path)
    if single is not None and folders_found:
        root = folders_found[0]

    def display_of(p: Path) -> str:
        try:
            return Path(os.path.relpath(p, root)).as_posix()
        except ValueError:
            return str(p)

    folders: list[EntityFolder] = []
    problems: list[Diagnostic] = []
    files: list[Path] = []
    records: list[Record] = []
    for f in folders_found:
        ef: EntityFolder | None
        if single is not None and not quiet_is_file(f / SYNC_FILE):
            # a loose record file: an agents folder of its own, with no defaults
            ef = EntityFolder(f, f / SYNC_FILE, "MJ: AI Agents", single.name, {}, ())
            problems.append(
                Diagnostic(
                    display_of(single),
                    1,
                    1,
                    "no .mj-sync.json names this "
                    "file's entity: read as MJ: AI Agents records with no "
                    "folder defaults",
                    "warning",
                )
            )
        else:
            ef = load_entity_folder(f, display_of(f / SYNC_FILE), _root_ignores(f))
        if ef is None:
            continue
        folders.append(ef)
        problems += ef.problems
        for folder_config in _folder_configs(ef.folder):
            problems.append(
                Diagnostic(
                    display_of(folder_config),
                    1,
                    1,
                    "MetadataSync's README "
                    "cascades .mj-folder.json defaults, but 5.51.3's push does "
                    "not find this file: only the entity folder's "
                    ".mj-sync.json defaults apply",
                    "warning",
                )
            )
        chosen = record_files(ef)
        if single is not None:
            if single not in chosen:
                problems.append(
                    Diagnostic(
                        display_of(single),
                        1,
                        1,
                        f"the folder's filePattern '{ef.file_pattern}' does not match this "
                        "file, so mj sync push never reads it; read anyway",
                        "warning",
                    )
                )
            chosen = [single]
        for file in chosen:
            files.append(file)
            read = read_record_file(file, ef, display_of, len(records))
            records += read.records
            problems += read.problems
    return Metadata(
        root, folders, files, records, Resolver(records, env or {}, display_of), problems
    )
