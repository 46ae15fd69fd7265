"""The file-system calls the workspace loaders make, answered from disk or from memory.

A folder is read from disk. A git revision is data, never a file tree on disk: review mode
lists its tree and mounts it here, in memory, at a path that names no folder, for as long as
the loaders read it (``mounted``). Every loader asks this module (``is_dir``, ``listdir``,
``realpath``, ``read_regular``...) instead of the OS, so a revision is read with exactly the
checks of a folder while nothing is written and no symbolic link from the revision is
followed: a link in a mounted tree exists, is neither a file nor a folder, and reading it says
why it was not read.

Paths outside every mounted tree go to the OS exactly as before (the same ``Path`` methods),
so folders behave as they always did.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Kind = Literal["file", "dir", "link", "other"]


@dataclass(frozen=True)
class Node:
    """One entry of a tree in memory."""

    kind: Kind
    #: the content's size in bytes (files), known before anything is read
    size: int = 0
    #: an opaque key the tree's reader is given (a git object id)
    key: str = ""
    #: why the entry is not a regular file or folder (links, submodules), shown when read
    note: str = ""


class MemoryTree:
    """A read-only folder tree: nodes by path relative to its root (POSIX, '' the root).

    ``read(key, size)`` returns a file's bytes, or raises ``OSError`` with the reason (the
    reader enforces its own budget); it is only called for a size the caller accepted. A
    subclass may list its folders only when asked (``node`` and ``children``).
    """

    def __init__(self, nodes: dict[str, Node], read: Callable[[str, int], bytes]) -> None:
        self.nodes = dict(nodes)
        self.nodes.setdefault("", Node("dir"))
        self.read = read
        self._children: dict[str, list[str]] = {}
        for rel in self.nodes:
            if rel:
                parent, _, name = rel.rpartition("/")
                self._children.setdefault(parent, []).append(name)

    def node(self, rel: str) -> Node | None:
        return self.nodes.get(rel)

    def children(self, rel: str) -> list[str]:
        return list(self._children.get(rel, ()))


_lock = threading.Lock()
#: mounted trees by root; a root mounted twice (the app re-reading a revision while it is
#: compared) answers from the latest mount until that one ends
_mounts: dict[str, list[MemoryTree]] = {}


@contextlib.contextmanager
def mounted(root: Path, tree: MemoryTree) -> Iterator[Path]:
    """Answer every call for a path under ``root`` from ``tree`` inside the block."""
    key = posixpath.normpath(str(root))
    with _lock:
        _mounts.setdefault(key, []).append(tree)
    try:
        yield Path(key)
    finally:
        with _lock:
            stack = _mounts.get(key, [])
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] is tree:
                    del stack[i]
                    break
            if not stack:
                _mounts.pop(key, None)


def _find(path: Path | str) -> tuple[MemoryTree, str] | None:
    """The mounted tree holding ``path`` and the path inside it; None for the disk."""
    if not _mounts:  # the usual case: nothing mounted, one dict lookup
        return None
    text = posixpath.normpath(os.fspath(path))
    best: tuple[MemoryTree, str] | None = None
    longest = -1
    with _lock:
        for root, stack in _mounts.items():
            if len(root) > longest and (text == root or text.startswith(root.rstrip("/") + "/")):
                best, longest = (stack[-1], text[len(root) :].lstrip("/")), len(root)
    return best


# --- editors' unsaved buffers ------------------------------------------------------------------
#
# The language server checks what the author sees in the editor, saved or not: while a check
# runs under ``buffers(...)``, reading one of those files answers the buffer's text instead of
# the disk's. Only the thread that entered the block sees them (the server checks in a worker
# thread while it keeps answering), and nothing else about the disk changes.

_local = threading.local()


@contextlib.contextmanager
def buffers(files: Mapping[Path, str]) -> Iterator[None]:
    """Inside the block, in this thread, reading a file of ``files`` gives its text."""
    previous: dict[str, bytes] | None = getattr(_local, "buffers", None)
    current = dict(previous or {})
    current.update({os.path.normpath(os.fspath(p)): t.encode("utf-8") for p, t in files.items()})
    _local.buffers = current
    try:
        yield
    finally:
        _local.buffers = previous


def _buffer(path: Path | str) -> bytes | None:
    held: dict[str, bytes] | None = getattr(_local, "buffers", None)
    if not held:
        return None
    return held.get(os.path.normpath(os.fspath(path)))


def _node(path: Path | str) -> tuple[bool, Node | None, MemoryTree | None, str]:
    found = _find(path)
    if found is None:
        return False, None, None, ""
    tree, rel = found
    return True, tree.node(rel), tree, rel


def is_mounted(path: Path | str) -> bool:
    return _find(path) is not None


def is_dir(path: Path) -> bool:
    inside, node, _tree, _rel = _node(path)
    return node is not None and node.kind == "dir" if inside else path.is_dir()


def is_file(path: Path) -> bool:
    if _buffer(path) is not None:
        return True
    inside, node, _tree, _rel = _node(path)
    return node is not None and node.kind == "file" if inside else path.is_file()


def is_symlink(path: Path) -> bool:
    inside, node, _tree, _rel = _node(path)
    return node is not None and node.kind == "link" if inside else path.is_symlink()


def exists(path: Path) -> bool | None:
    """Whether a mounted ``path`` (or an editor's buffer) exists; None when ``path`` is on
    disk (ask the OS)."""
    if _buffer(path) is not None:
        return True
    inside, node, _tree, _rel = _node(path)
    return node is not None if inside else None


def listdir(path: Path) -> list[str]:
    """``os.listdir``: the names in a folder, OSError when it is not one."""
    inside, node, tree, rel = _node(path)
    if not inside:
        return os.listdir(path)
    if node is None or tree is None:
        raise FileNotFoundError(2, "No such file or directory")
    if node.kind != "dir":
        raise NotADirectoryError(20, "Not a directory")
    return tree.children(rel)


def iterdir(path: Path) -> list[Path]:
    """``Path.iterdir``, listed at once."""
    if not is_mounted(path):
        return list(path.iterdir())
    return [path / name for name in listdir(path)]


def realpath(path: Path | str) -> Path:
    """``os.path.realpath``; a mounted tree has no links to follow, so it is only tidied (a
    path that climbs out of it with ``..`` leaves it, as on disk)."""
    text = os.fspath(path)
    if is_mounted(text):
        return Path(posixpath.normpath(text))
    return Path(os.path.realpath(text))


def read_mounted(path: Path, limit: int) -> tuple[bool, bytes | None, str | None]:
    """(mounted, bytes, why not) for ``path``: ``mounted`` is False for a path on disk (the
    caller reads it); otherwise the answers of ``pathsafety.read_regular_file``. An editor's
    buffer (``buffers``) is read instead of its file."""
    held = _buffer(path)
    if held is not None:
        if len(held) > limit:
            return True, None, f"file is {len(held):,} bytes, over the {limit:,}-byte limit"
        return True, held, None
    inside, node, tree, _rel = _node(path)
    if not inside:
        return False, None, None
    if node is None or tree is None:
        return True, None, "file not found"
    if node.kind == "dir":
        return True, None, "is a directory"
    if node.kind != "file":
        return True, None, node.note or "not a regular file: not read"
    if node.size > limit:
        return True, None, f"file is {node.size:,} bytes, over the {limit:,}-byte limit"
    try:
        return True, tree.read(node.key, node.size), None
    except OSError as exc:
        return True, None, exc.strerror or str(exc)


__all__ = [
    "MemoryTree",
    "Node",
    "buffers",
    "exists",
    "is_dir",
    "is_file",
    "is_mounted",
    "is_symlink",
    "iterdir",
    "listdir",
    "mounted",
    "read_mounted",
    "realpath",
]
