"""Workspace-root confinement and secret-file refusal for files the runtime reads."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from flowctx_core.base import fsview

SECRET_SUFFIXES = (".pem", ".key", ".pfx", ".p12")


def looks_secret(path: Path, real: Path | None = None) -> bool:
    """Whether the name asked for, or the file it resolves to, looks like a secrets file."""
    return any(secret_file_reason(p) for p in (path, real) if p is not None)


def secret_file_reason(path: Path) -> str | None:
    name = path.name.lower()
    if name == ".env" or name.startswith(".env."):
        return f"refused: '{path.name}' is an environment secrets file"
    if name == ".envrc":
        # not on the runtime's list, which would read it; flowctx still will not show it
        return (
            f"refused by flowctx: '{path.name}' holds shell-exported secrets (direnv); the "
            "runtime refuses only .env, .env.* and key-file suffixes, so it would read this file"
        )
    for suffix in SECRET_SUFFIXES:
        if name.endswith(suffix):
            return f"refused: '{path.name}' has the secret-file suffix {suffix}"
    return None


def confine(
    root: Path, raw: str, *, allow_outside: bool, refuse_secrets: bool = True
) -> tuple[Path | None, str | None]:
    """Resolve ``raw`` against ``root`` (symlinks followed) and check it stays inside.

    Returns the real path, or a refusal reason. A symlink loop is a refusal, not a hang.
    ``refuse_secrets=False`` is for readers whose runtime has no secret-file denylist (build
    context assets): the caller then says the file is read and keeps its contents hidden.
    """
    if "\x00" in raw:
        # the runtime's open() raises ValueError on it; no file can have such a name
        return None, "refused: the path holds a NUL character"
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    reason = secret_file_reason(candidate) if refuse_secrets else None
    if reason:
        return None, reason
    try:
        real = fsview.realpath(candidate)
    except (OSError, RuntimeError, ValueError) as exc:
        return None, f"refused: cannot resolve {raw!r}: {exc}"
    reason = secret_file_reason(real) if refuse_secrets else None
    if reason:
        return None, reason + " (through a symlink)"
    if not allow_outside:
        try:
            real.relative_to(fsview.realpath(root))
        except ValueError:
            via = " through a symlink" if real != Path(os.path.abspath(candidate)) else ""
            return None, (
                f"refused: {raw!r} resolves outside the workspace root{via} "
                "(set CONTEXT_FILE_ALLOW_OUTSIDE_ROOT=true to allow)"
            )
    return real, None


def present(path: Path) -> bool:
    """Whether ``path`` exists, counting "cannot tell" as yes.

    ``Path.exists`` raises PermissionError for a name in a folder that cannot be searched
    (a traceback out of every command) and says False for a symlink loop ("not found"); with
    this the reader that follows reports the real reason instead.
    """
    mounted = fsview.exists(path)
    if mounted is not None:
        return mounted
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True


def read_regular_file(path: Path, limit: int) -> tuple[bytes | None, str | None]:
    """The bytes of the regular file at ``path`` if it holds at most ``limit``, else why not.

    A FIFO, device or socket is never opened: it is refused from ``stat`` (opening a device can
    have effects, and reading /dev/zero never ends). The file is then opened non-blocking and
    checked again on the open descriptor, so one swapped for a FIFO in between cannot block,
    and at most ``limit + 1`` bytes are read whatever size it claims (/proc files claim 0,
    and a file being appended to grows past its size).
    """
    mounted, data, why = fsview.read_mounted(path, limit)
    if mounted:  # a git revision's file: read from memory, never from disk
        return data, why
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            return None, "is a directory"
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file (device, FIFO or socket): not read"
        if st.st_size > limit:
            return None, f"file is {st.st_size:,} bytes, over the {limit:,}-byte limit"
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None, "file not found"
    except OSError as exc:
        # strerror, not str(exc): the latter repeats the absolute path the user never wrote
        return None, f"cannot read: {exc.strerror or exc.__class__.__name__}"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None, "not a regular file (device, FIFO or socket): not read"
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc.__class__.__name__}"
    finally:
        os.close(fd)
    if size > limit:
        return None, f"file is over the {limit:,}-byte limit (it grew while being read)"
    return b"".join(chunks), None
