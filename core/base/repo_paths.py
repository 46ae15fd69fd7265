"""Where a problem's file is, as a code host names it: relative to the repository root.

``flowctx check`` locates problems relative to the workspace root; CI annotations and SARIF
name files relative to the repository the workspace sits in (GitHub resolves both against the
checkout's root). A problem whose "file" is not a file (an environment variable, a folder that
does not exist) has no place in the repository, and says so with ``None``.
"""

from __future__ import annotations

from pathlib import Path


def repository_root(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` holding ``.git`` (a folder, or the file a
    worktree or submodule has), as git finds its repository; None outside any."""
    probe = start.expanduser().resolve()
    for folder in (probe, *probe.parents):
        if (folder / ".git").exists():
            return folder
    return None


def report_base(workspace: Path) -> Path:
    """What report paths are relative to: the repository root, else the workspace root."""
    return repository_root(workspace) or workspace.expanduser().resolve()


def located_file(file: str, workspace: Path, base: Path) -> str | None:
    """``file`` (as a problem names it: relative to ``workspace`` or absolute) relative to
    ``base`` in POSIX form; absolute when outside ``base``; None when it is no file."""
    if not file:
        return None
    path = Path(file)
    if not path.is_absolute():
        path = workspace / path
    try:
        if not path.is_file():
            return None
    except OSError:  # a folder that cannot be searched: the file cannot be shown either
        return None
    path = path.resolve()
    try:
        return path.relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
