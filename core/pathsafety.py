"""Workspace-root confinement and secret-file refusal for files the runtime reads."""

from __future__ import annotations

import os
from pathlib import Path

SECRET_SUFFIXES = (".pem", ".key", ".pfx", ".p12")


def secret_file_reason(path: Path) -> str | None:
    name = path.name.lower()
    if name == ".env" or name.startswith(".env."):
        return f"refused: '{path.name}' is an environment secrets file"
    for suffix in SECRET_SUFFIXES:
        if name.endswith(suffix):
            return f"refused: '{path.name}' has the secret-file suffix {suffix}"
    return None


def confine(root: Path, raw: str, *, allow_outside: bool) -> tuple[Path | None, str | None]:
    """Resolve ``raw`` against ``root`` (symlinks followed) and check it stays inside.

    Returns the real path, or a refusal reason. A symlink loop is a refusal, not a hang.
    """
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = root / candidate
    reason = secret_file_reason(candidate)
    if reason:
        return None, reason
    try:
        real = Path(os.path.realpath(candidate, strict=False))
    except (OSError, RuntimeError) as exc:
        return None, f"refused: cannot resolve {raw!r}: {exc}"
    reason = secret_file_reason(real)
    if reason:
        return None, reason + " (through a symlink)"
    if not allow_outside:
        try:
            real.relative_to(Path(os.path.realpath(root)))
        except ValueError:
            via = " through a symlink" if real != Path(os.path.abspath(candidate)) else ""
            return None, (
                f"refused: {raw!r} resolves outside the workspace root{via} "
                "(set CONTEXT_FILE_ALLOW_OUTSIDE_ROOT=true to allow)"
            )
    return real, None
