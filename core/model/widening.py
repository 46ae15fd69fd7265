"""Environment variables that widen what flowctx reads, and who may set them.

A workspace is often someone else's (a branch under review, a folder sent over). Its files may
set environment values for flowctx (``flowctx.yaml``'s ``env``, a saved scenario's ``env``),
and so may the app's override editor, which a loaded scenario fills. None of those may let
flowctx read more of this machine than the workspace: a file source outside the root
(``/proc/self/environ``, ``~/.aws/credentials``), a registry root elsewhere, or a database
server of the file's choosing (whose queries would carry the filter's secrets to it). Only the
user's own environment and a value typed on the command line (``--env NAME=VALUE``) may widen
access, and the output then says which setting did.

This is the one list; every place that takes env values from a file asks ``refused_env``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from flowctx_core.model.database import URI_ENV
from flowctx_core.model.inputs import ALLOW_OUTSIDE_ENV

# the build-context names, spelled here because the workspace loader (which asks this module)
# is imported by flowctx_core.buildctx itself; tests/core/test_widening.py checks they match
PATH_ENV: Final = "MOZAIKS_BUILD_CONTEXT_PATH"
APP_WORKSPACE_ENV: Final = "MOZAIKS_APP_WORKSPACE_PATH"
OPTION_ENV: Final = "FLOWCTX_BUILD_CONTEXT"
FACTORY_APP_ENV: Final = "MOZAIKS_FACTORY_APP_PATH"
#: every env name that can widen what flowctx reads (which values do: ``widening_reason``)
WIDENING_ENV: Final = (
    ALLOW_OUTSIDE_ENV,
    URI_ENV,
    PATH_ENV,
    APP_WORKSPACE_ENV,
    OPTION_ENV,
    FACTORY_APP_ENV,
)
_FALSE = {"", "0", "false", "no", "off"}
#: ``FLOWCTX_BUILD_CONTEXT`` values that switch build context without naming a folder
_SWITCH = {"on", "off", "1", "0", "true", "false", "yes", "no"}


def _outside(value: str, root: Path | None) -> bool:
    """Does the folder ``value`` lie outside ``root``? With no root on disk (a revision read
    from git), only a relative path that never climbs (``..``) stays inside."""
    if root is None:
        return value.startswith(("/", "~", "\\")) or ".." in Path(value).parts
    path = Path(value).expanduser()
    path = path if path.is_absolute() else root / path
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return True
    except OSError:  # a loop of links: not followed, so not trusted either
        return True
    return False


def widening_reason(name: str, value: str, root: Path | None) -> str | None:
    """What ``name=value`` would let flowctx read beyond ``root``, or None when it does not."""
    text = str(value).strip()
    if name == ALLOW_OUTSIDE_ENV:
        return None if text.lower() in _FALSE else "lets file sources read outside the workspace"
    if name == URI_ENV:
        return "sends data_reference queries to a database server" if text else None
    names_folder = name in (PATH_ENV, APP_WORKSPACE_ENV) or (
        name == OPTION_ENV and text.lower() not in _SWITCH
    )
    if names_folder and text and _outside(text, root):
        return "puts the build-context registry root outside the workspace"
    if name == FACTORY_APP_ENV and text and _outside(text, root):
        return "reads the runtime's packaged factory_app (its build-context registries) there"
    return None


def refused_env(
    env: Mapping[str, str], root: Path | None, where: str
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """``env`` (values from ``where``, a file or the app) without the entries that widen
    access, and (name, message) for each one left out."""
    kept = dict(env)
    refused: list[tuple[str, str]] = []
    for name in WIDENING_ENV:
        if name not in kept:
            continue
        why = widening_reason(name, kept[name], root)
        if why is None:
            continue
        del kept[name]
        refused.append(
            (
                name,
                f"{name} is ignored in {where}: it {why}; only your own environment or "
                f"a typed --env {name}=... may do that",
            )
        )
    return kept, refused


def widened_by(env: Mapping[str, str], origins: Mapping[str, str], root: Path) -> list[str]:
    """One note per setting in force that widens access, naming where it came from, so the
    output says when flowctx reads beyond the workspace."""
    notes: list[str] = []
    for name in WIDENING_ENV:
        if name in env and (why := widening_reason(name, env[name], root)) is not None:
            origin = origins.get(name, "")
            notes.append(f"{name}{f' ({origin})' if origin else ''} {why}")
    return notes
