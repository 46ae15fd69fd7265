"""A workspace snapshot of a git revision, read through git alone.

The revision's tree is listed with ``git ls-tree`` and its blobs read with ``git cat-file``;
the working tree, the index and the stash are never touched (review mode compares a revision
with what is on disk while the author keeps editing). The blobs are written into a private
temporary folder, the usual loader reads that folder into a ``WorkspaceSnapshot`` (so a
revision is read with exactly the checks of a folder), and the folder is removed: the snapshot
holds everything it needs. Paths inside it name that folder; ``revision`` names what was read.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path, PurePosixPath

from flowctx_core.model.profiles import RuntimeProfile, get_profile
from flowctx_core.model.workspace import load_profile
from flowctx_core.snapshot import WorkspaceSnapshot, load_snapshot

#: git object modes: a regular file, an executable one, a symbolic link
_BLOB_MODES = {"100644", "100755"}
_LINK_MODE = "120000"


class RevisionError(Exception):
    """The revision or the folder cannot be read from git; the message says why."""


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # a read must not take the index lock
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            input=data,
            capture_output=True,
            check=False,
            env=env,
        )
    except FileNotFoundError as exc:
        raise RevisionError("git is not installed") from exc
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(why[-1] if why else f"git {args[0]} failed")
    return done.stdout


def _entries(repo: Path, commit: str, subdir: str) -> list[tuple[str, str, str]]:
    """(mode, object id, path below ``subdir``) of every file under ``subdir`` at ``commit``."""
    spec = [subdir] if subdir else []
    out = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *spec)
    entries = []
    prefix = f"{subdir}/" if subdir else ""
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, name = record.partition(b"\t")
        mode, _kind, oid = meta.decode().split()
        path = name.decode("utf-8", "surrogateescape")
        if prefix and not path.startswith(prefix):
            continue
        entries.append((mode, oid, path[len(prefix) :]))
    return entries


def _blobs(repo: Path, oids: list[str]) -> dict[str, bytes]:
    """The content of each blob, in one ``git cat-file --batch`` run."""
    if not oids:
        return {}
    out = _git(repo, "cat-file", "--batch", data="".join(f"{o}\n" for o in oids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for oid in oids:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode().split()
        size = int(header[2])
        blobs[oid] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1  # the content is followed by a newline
    return blobs


def _write(folder: Path, entries: list[tuple[str, str, str]], blobs: Mapping[str, bytes]) -> None:
    for mode, oid, rel in entries:
        parts = PurePosixPath(rel).parts
        if not parts or any(p in ("", ".", "..") for p in parts):
            continue  # git never stores these; a crafted tree must not write outside the folder
        target = folder.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == _LINK_MODE:
            # kept as a link: the loaders' confinement refuses one that leaves the workspace
            os.symlink(blobs[oid].decode("utf-8", "surrogateescape"), target)
        elif mode in _BLOB_MODES:
            target.write_bytes(blobs[oid])


def load_snapshot_at(
    repo: Path,
    revision: str,
    env: Mapping[str, str],
    *,
    subdir: str = "",
    workflows: Iterable[str] | None = None,
    runtime: RuntimeProfile | None = None,
) -> WorkspaceSnapshot:
    """The workspace at ``subdir`` of ``repo`` as committed in ``revision``.

    The revision's own ``flowctx.yaml`` is its profile, and ``env`` (the process environment
    and the user's overrides) wins over the profile's, as for a folder. Raises
    ``RevisionError`` when git cannot read it.
    """
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except RevisionError as exc:
        raise RevisionError(f"{revision}: not a commit of {repo} ({exc})") from None
    commit_id = commit.decode().strip()
    subdir = PurePosixPath(subdir).as_posix().strip("/") if subdir not in ("", ".") else ""
    entries = _entries(repo, commit_id, subdir)
    if not entries:
        raise RevisionError(f"{revision}: no files under {subdir or 'the repository root'}")
    wanted = [oid for mode, oid, _ in entries if mode in _BLOB_MODES or mode == _LINK_MODE]
    blobs = _blobs(repo, list(dict.fromkeys(wanted)))
    with tempfile.TemporaryDirectory(prefix="flowctx-rev-") as tmp:
        root = Path(os.path.realpath(tmp))
        _write(root, entries, blobs)
        profile = load_profile(root)
        effective = {**profile.env, **env}
        chosen = runtime or get_profile(profile.runtime)
        snap = load_snapshot(root, effective, workflows=workflows, profile=profile, runtime=chosen)
    return replace(snap, revision=f"git:{commit_id}")
