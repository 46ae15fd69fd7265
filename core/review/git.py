"""Review mode's one home for git: reading a revision as data, with nothing executed.

A revision is data, never a file tree on disk. Its trees are read object by object with
``git cat-file`` (sizes first with ``--batch-check``, then contents with ``--batch``), checked
as git's own ``fsck`` would (no duplicate names, no name holding a slash, no '.', '..' or
empty name), and mounted in memory (``flowctx_core.base.fsview``) while the usual loaders read
them: a revision is read with exactly the checks of a folder, nothing is written anywhere, and
no symbolic link from the revision is followed (one is reported, never read). Only the folders
the loaders look into are listed, and only the blobs they read are read, each at most
``MAX_BLOB_BYTES``, all together at most ``MAX_REVISION_BYTES``; a revision whose listed
folders hold more than ``MAX_TREE_ENTRIES`` entries is refused. The working tree, the index
and the stash are never touched.

git runs so that nothing in the repository's configuration can execute a command: no system or
global configuration is read (only the user's ``safe.directory`` entries are carried over), no
transport is allowed (a promisor remote's ``ext::`` URL cannot run when an object is missing,
and no lazy fetch is attempted), and the settings that name a program (fsmonitor, pager,
external diff, hooks, ssh, askpass, credential helpers) are overridden on the command line,
which wins over the repository's own file.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import IO

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import MAX_YAML_BYTES
from flowctx_core.model.database import EmbeddedDatabase
from flowctx_core.model.filenames import SEED_DIR
from flowctx_core.model.profiles import RuntimeProfile, get_profile
from flowctx_core.model.scenarios import Scenario, saved_scenarios
from flowctx_core.model.workspace_root import find_root, load_profile
from flowctx_core.snapshot import WorkspaceSnapshot, load_snapshot
from flowctx_core.testing.model import TestFile

#: the largest blob read from a revision: the largest file any workspace loader accepts (the
#: contract, routing and registry YAML, file sources, the fallbacks file and seed files are
#: each bounded at 4 MiB), so a bigger one is refused from its size alone, never read
MAX_BLOB_BYTES = MAX_YAML_BYTES
#: the bytes all the blobs read from one revision may add up to, each read counted (fifty
#: names for one 4 MiB blob cost fifty reads, so they are counted fifty times)
MAX_REVISION_BYTES = 32 * 1024 * 1024
#: entries (files, links, folders) of the folders listed from one revision: the loaders list
#: ``workflows/``, each workflow's folder, ``build_context/``, ``seed/`` and the saved scenarios
MAX_TREE_ENTRIES = 10_000
#: the largest tree object (one folder's listing) read
MAX_TREE_BYTES = 4 * 1024 * 1024
#: the longest symbolic-link target shown when a link is reported (PATH_MAX)
MAX_LINK_TARGET = 4096
#: how many links, submodules and missing objects a revision reports one by one
MAX_REPORTED = 20

#: what a tree entry's mode says it is (git writes folders as "40000" in a tree object)
_FILE_MODES = {b"100644", b"100755", b"100664"}
_TREE_MODES = {b"40000", b"040000"}
_LINK_MODE = b"120000"
_GITLINK_MODE = b"160000"

#: one folder that names no real folder: a revision's tree is mounted there, in memory
VIRTUAL_ROOT = Path("/flowctx-git-revision")

#: environment variables that would change what git reads or runs, dropped from the
#: process environment before git starts (besides every ``GIT_*`` one)
_DROPPED_ENV = ("PAGER", "SSH_ASKPASS", "SSH_AUTH_SOCK", "EDITOR", "VISUAL")


class RevisionError(Exception):
    """The revision or the folder cannot be read from git; the message says why (one line)."""


# --- running git -----------------------------------------------------------------------------


@functools.cache
def _user_safe_directories() -> tuple[str, ...]:
    """The ``safe.directory`` entries of the user's own and the system configuration: git
    refuses a repository owned by someone else unless one allows it, and review mode reads no
    other setting from those files. Read once, outside any repository."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    out: list[str] = []
    for scope in ("--system", "--global"):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(
                ["git", "config", scope, "--get-all", "safe.directory"],
                capture_output=True,
                stdin=subprocess.DEVNULL,
                check=False,
                env=env,
                cwd="/",
                timeout=10,
            )
            out += [line for line in done.stdout.decode("utf-8", "replace").splitlines() if line]
    return tuple(dict.fromkeys(out))


def git_env() -> dict[str, str]:
    """The process environment git runs under: nothing of the caller's git setup, and every
    switch that keeps a read from running a program or reaching a remote."""
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k not in _DROPPED_ENV
    }
    env.update(
        {
            "GIT_CONFIG_NOSYSTEM": "1",  # no /etc/gitconfig
            "GIT_CONFIG_GLOBAL": os.devnull,  # no ~/.gitconfig nor ~/.config/git/config
            "GIT_ATTR_NOSYSTEM": "1",
            # a missing object is missing, never fetched (git 2.39.4, 2.40.2 ... and later)
            "GIT_NO_LAZY_FETCH": "1",
            # no transport at all: the lazy fetch of older gits (and any other fetch) finds
            # ext::, fd::, file, ssh and http refused, whatever protocol.*.allow the
            # repository sets (this list wins over the configuration)
            "GIT_ALLOW_PROTOCOL": "",
            "GIT_PROTOCOL_FROM_USER": "0",
            "GIT_TERMINAL_PROMPT": "0",
            "GIT_OPTIONAL_LOCKS": "0",  # a read must never take the index lock
            "GIT_NO_REPLACE_OBJECTS": "1",  # the objects as committed, not replace refs
            "GIT_PAGER": "cat",
            "GIT_EXTERNAL_DIFF": "",
        }
    )
    return env


def _config_args() -> list[str]:
    """``-c`` settings: the command line wins over the repository's own configuration."""
    settings = [
        "core.fsmonitor=false",
        "core.hooksPath=" + os.devnull,
        "core.pager=cat",
        "core.sshCommand=false",
        "core.askPass=",
        "core.gitProxy=",
        "core.alternateRefsCommand=",
        "core.untrackedCache=false",
        "credential.helper=",
        "diff.external=",
        "protocol.allow=never",
        "fetch.negotiationAlgorithm=noop",
    ]
    settings += [f"safe.directory={d}" for d in _user_safe_directories()]
    return [arg for s in settings for arg in ("-c", s)]


def git_command(repo: Path, *args: str) -> list[str]:
    """The argument list that runs ``git ARGS`` on ``repo`` the safe way."""
    return ["git", "--no-pager", "--no-replace-objects", *_config_args(), "-C", str(repo), *args]


def git(repo: Path, *args: str) -> bytes:
    """``git ARGS`` in ``repo``: its output, or RevisionError with git's last line."""
    try:
        done = subprocess.run(
            git_command(repo, *args),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
            env=git_env(),
        )
    except FileNotFoundError as exc:
        raise RevisionError("git is not installed") from exc
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise RevisionError(_one_line(why[-1]) if why else f"git {args[0]} failed")
    return done.stdout


def _one_line(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


def commit_of(repo: Path, revision: str) -> str | None:
    """The commit id ``revision`` names in ``repo``, or None when it names none."""
    if not revision or revision.startswith("-"):
        return None  # never an option to git
    try:
        out = git(
            repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}"
        )
    except RevisionError:
        return None
    return out.decode("ascii", "replace").strip() or None


def repository_of(path: Path) -> tuple[Path, str] | None:
    """The git work tree holding the workspace at ``path``, and the workspace's folder inside
    it (POSIX, '' for the top); None when the workspace is not in a git work tree."""
    try:
        root, _selected = find_root(path)
    except Exception:
        return None
    try:
        top = git(root, "rev-parse", "--show-toplevel").decode("utf-8", "surrogateescape").strip()
    except RevisionError:
        return None
    top_path = Path(os.path.realpath(top))
    try:
        rel = Path(os.path.realpath(root)).relative_to(top_path)
    except ValueError:
        return None
    return top_path, PurePosixPath(*rel.parts).as_posix() if rel.parts else ""


# --- reading objects -------------------------------------------------------------------------


class _Objects:
    """Two long-running ``git cat-file`` processes: ``--batch-check`` says an object's type
    and size, ``--batch`` hands over its content, which is asked for only once the size is
    known to be within bounds (``--batch`` prints whatever it is asked for, whole)."""

    def __init__(self, repo: Path) -> None:
        self._lock = threading.Lock()
        self._check = self._start(repo, "--batch-check")
        try:
            self._batch = self._start(repo, "--batch")
        except BaseException:
            self._stop(self._check)
            raise

    @staticmethod
    def _start(repo: Path, mode: str) -> subprocess.Popen[bytes]:
        try:
            return subprocess.Popen(
                git_command(repo, "cat-file", mode),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # never read: a full pipe would stall git
                env=git_env(),
            )
        except FileNotFoundError as exc:
            raise RevisionError("git is not installed") from exc

    @staticmethod
    def _ask(proc: subprocess.Popen[bytes], oid: str) -> bytes:
        stdin: IO[bytes] | None = proc.stdin
        stdout: IO[bytes] | None = proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(oid.encode("ascii") + b"\n")
            stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise RevisionError("git cat-file stopped answering") from exc
        line = stdout.readline()
        if not line.endswith(b"\n"):
            raise RevisionError("git cat-file stopped answering")
        return line

    def info(self, oid: str) -> tuple[str, int] | None:
        """(type, size) of the object ``oid``; None when the repository does not have it."""
        with self._lock:
            parts = self._ask(self._check, oid).split()
        if len(parts) != 3:
            return None  # "<oid> missing" (or ambiguous)
        return parts[1].decode("ascii", "replace"), int(parts[2])

    def contents(self, oid: str, size: int) -> bytes:
        """The content of ``oid``, whose size ``info`` said is ``size``."""
        with self._lock:
            header = self._ask(self._batch, oid).split()
            if len(header) != 3 or int(header[2]) != size:
                raise RevisionError(f"git object {oid} changed or vanished while being read")
            stdout = self._batch.stdout
            assert stdout is not None
            data = stdout.read(size + 1)  # the content, then a newline
        if len(data) != size + 1:
            raise RevisionError("git cat-file stopped answering")
        return data[:size]

    def close(self) -> None:
        for proc in (self._check, self._batch):
            self._stop(proc)

    @staticmethod
    def _stop(proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(OSError):
            if proc.stdin is not None:
                proc.stdin.close()  # end of input: cat-file exits
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def _entries(data: bytes, hash_len: int) -> Iterator[tuple[bytes, bytes, str]]:
    """(mode, raw name, object id) of each entry of a tree object, as stored."""
    pos = 0
    while pos < len(data):
        space = data.find(b" ", pos)
        nul = data.find(b"\0", space + 1)
        if space < 0 or nul < 0 or nul + 1 + hash_len > len(data):
            raise ValueError("truncated tree object")
        yield data[pos:space], data[space + 1 : nul], data[nul + 1 : nul + 1 + hash_len].hex()
        pos = nul + 1 + hash_len


def _missing_tree(where: str, oid: str) -> str:
    return (
        f"{where}: its git tree object {oid} is missing from the repository (a partial or "
        "shallow clone?): not read"
    )


class RevisionTree(fsview.MemoryTree):
    """One revision's workspace folder as a read-only tree in memory, listed folder by folder
    as the loaders look into it (a folder no loader opens costs nothing, however large), each
    file sized with ``--batch-check`` when first looked at and read only when a loader reads
    it, within the bounds above."""

    def __init__(self, objects: _Objects, commit: str, subdir: str, top: str) -> None:
        super().__init__({"": fsview.Node("dir", key=top)}, self._read)
        self.objects = objects
        self.commit = commit
        self.label = f"git:{commit[:12]}"
        self.subdir = subdir
        self.hash_len = len(commit) // 2
        self.count = 0
        #: links, submodules and missing objects met so far, reported with the snapshot
        self.notes: list[Diagnostic] = []
        self._listed: set[str] = set()
        self._used = 0
        self._lock = threading.RLock()
        self._cache: dict[str, bytes] = {}

    def where(self, rel: str) -> str:
        """``git:<id>:<path>`` as git spells a path in a revision (from the repository's top),
        on one line whatever the names hold."""
        path = "/".join(p for p in (self.subdir, rel) if p)
        return _one_line(f"{self.label}:{path}" if path else self.label)

    # -- the tree, listed on demand

    def node(self, rel: str) -> fsview.Node | None:
        with self._lock:
            if rel and rel not in self.nodes:
                parent = self.node(rel.rpartition("/")[0])
                if parent is None or parent.kind != "dir":
                    return None
            found = self.nodes.get(rel)
            if found is not None and found.kind == "dir":
                self._list(rel, found)
                found = self.nodes.get(rel)
            elif found is not None and found.kind == "file" and found.size < 0:
                found = self._sized(rel, found)
            return found

    def children(self, rel: str) -> list[str]:
        found = self.node(rel)
        return super().children(rel) if found is not None and found.kind == "dir" else []

    def _list(self, rel: str, folder: fsview.Node) -> None:
        if rel in self._listed:
            return
        self._listed.add(rel)
        entries = self.entries(folder.key, rel)
        if entries is None:
            if not rel:
                raise RevisionError(_missing_tree(self.where(rel), folder.key))
            why = self._note(
                rel,
                f"the folder's git tree object {folder.key} is missing from the repository (a "
                "partial or shallow clone?): read as empty",
            )
            self.nodes[rel] = fsview.Node("other", note=why)
            return
        names = self._children.setdefault(rel, [])
        for mode, name, child in entries:
            path = f"{rel}/{name}" if rel else name
            self.count += 1
            if self.count > MAX_TREE_ENTRIES:
                raise RevisionError(
                    f"{self.where(rel)}: more than {MAX_TREE_ENTRIES:,} files and folders "
                    "listed in the workspace at that revision (the most review mode reads): "
                    "not read"
                )
            if mode in _TREE_MODES:
                node = fsview.Node("dir", key=child)
            elif mode in _FILE_MODES:
                node = fsview.Node("file", size=-1, key=child)  # sized when looked at
            elif mode == _LINK_MODE:
                why = self._note(
                    path,
                    f"a symbolic link in the revision (to {self._target(child)}): not followed; "
                    "review mode reads only files stored in git",
                )
                node = fsview.Node("link", note=why)
            elif mode == _GITLINK_MODE:
                why = self._note(path, "a submodule: its files are not in this repository")
                node = fsview.Node("other", note=why)
            else:
                why = self._note(path, f"a tree entry of unknown mode {mode!r}: not read")
                node = fsview.Node("other", note=why)
            self.nodes[path] = node
            names.append(name)

    def _sized(self, rel: str, file: fsview.Node) -> fsview.Node:
        info = self.objects.info(file.key)
        if info is None:
            why = self._note(
                rel,
                "its git object is missing from the repository (a partial or shallow "
                "clone?): not read",
            )
            node = fsview.Node("other", note=why)
        elif info[0] != "blob":
            node = fsview.Node("other", note=f"a git {info[0]} where a file should be: not read")
        else:
            node = fsview.Node("file", size=info[1], key=file.key)
        self.nodes[rel] = node
        return node

    def entries(self, oid: str, rel: str) -> list[tuple[bytes, str, str]] | None:
        """(mode, name, object id) of each entry of the tree ``oid`` at ``rel``; None when the
        object is missing. A crafted tree refuses the whole revision."""
        info = self.objects.info(oid)
        if info is None:
            return None
        kind, size = info
        if kind != "tree":
            raise RevisionError(f"{self.where(rel)}: a {kind} where git names a folder: not read")
        if size > MAX_TREE_BYTES:
            raise RevisionError(
                f"{self.where(rel)}: the folder's listing is {size:,} bytes, over the "
                f"{MAX_TREE_BYTES:,}-byte limit review mode reads: not read"
            )
        data = self.objects.contents(oid, size)
        out: list[tuple[bytes, str, str]] = []
        seen: set[str] = set()
        try:
            for mode, raw, child in _entries(data, self.hash_len):
                name = raw.decode("utf-8", "replace")
                shown = f"{rel}/{name}" if rel else name
                if name in ("", ".", "..") or "/" in name:
                    raise RevisionError(
                        f"{self.where(shown)}: a tree entry named {name!r} (git never writes "
                        "one; the tree was crafted): the revision is not read"
                    )
                if name in seen:
                    raise RevisionError(
                        f"{self.where(shown)}: two entries of one folder have this name (git "
                        "never writes that; the tree was crafted): the revision is not read"
                    )
                seen.add(name)
                out.append((mode, name, child))
        except ValueError:
            raise RevisionError(f"{self.where(rel)}: a malformed tree object: not read") from None
        return out

    def _note(self, rel: str, message: str) -> str:
        if len(self.notes) < MAX_REPORTED:
            self.notes.append(Diagnostic(rel, 0, 0, message, severity="warning"))
        elif len(self.notes) == MAX_REPORTED:
            more = "and more entries review mode does not read"
            self.notes.append(Diagnostic(rel, 0, 0, more, severity="warning"))
        return message

    def _target(self, oid: str) -> str:
        """A link's target as shown (on one line), never followed."""
        info = self.objects.info(oid)
        if info is None:
            return "a target whose object is missing"
        kind, size = info
        if kind != "blob" or size > MAX_LINK_TARGET:
            return f"a target of {size:,} bytes, not shown"
        target = self.objects.contents(oid, size)
        if not target:
            return "(an empty target)"
        return repr(target.decode("utf-8", "replace"))

    # -- reading

    def _read(self, oid: str, size: int) -> bytes:
        """A blob's bytes for one loader, counted against the revision's budget."""
        if size > MAX_BLOB_BYTES:
            raise OSError(0, f"file is {size:,} bytes, over the {MAX_BLOB_BYTES:,}-byte limit")
        with self._lock:
            if self._used + size > MAX_REVISION_BYTES:
                raise OSError(
                    0,
                    f"not read: the files read from this revision would exceed "
                    f"{MAX_REVISION_BYTES:,} bytes in all (the most review mode reads)",
                )
            self._used += size
            data = self._cache.get(oid)
            if data is None:
                try:
                    data = self.objects.contents(oid, size)
                except RevisionError as exc:
                    raise OSError(0, str(exc)) from None
                self._cache[oid] = data
            return data

    def descend(self, root_tree: str, subdir: str) -> str | None:
        """The tree id of ``subdir`` below the root tree; None when it is not there."""
        saved, self.subdir = self.subdir, ""  # paths on the way are said from the top
        try:
            tree, rel = root_tree, ""
            for part in PurePosixPath(subdir).parts if subdir else ():
                entries = self.entries(tree, rel)
                if entries is None:
                    raise RevisionError(_missing_tree(self.where(rel), tree))
                rel = f"{rel}/{part}" if rel else part
                found = [(m, c) for m, n, c in entries if n == part]
                if not found:
                    return None
                mode, tree = found[0]
                if mode not in _TREE_MODES:
                    raise RevisionError(f"{self.where(rel)}: not a folder at that revision")
            return tree
        finally:
            self.subdir = saved


@contextlib.contextmanager
def opened_revision(
    repo: Path, commit: str, subdir: str = ""
) -> Iterator[tuple[Path, RevisionTree] | None]:
    """The workspace folder ``subdir`` of ``commit`` mounted in memory for the block:
    (the folder's path, the tree), or None when the revision has no such folder or it is
    empty. Raises RevisionError for a crafted, partial or oversized tree."""
    objects = _Objects(repo)
    try:
        root_tree = git(repo, "rev-parse", "--verify", "--quiet", f"{commit}^{{tree}}")
        tree = RevisionTree(objects, commit, subdir, "")
        top = tree.descend(root_tree.decode("ascii", "replace").strip(), subdir)
        if top is None:
            yield None
            return
        tree.nodes[""] = fsview.Node("dir", key=top)
        if not tree.children(""):
            yield None
            return
        path = VIRTUAL_ROOT.joinpath(commit[:12], *PurePosixPath(subdir).parts)
        with fsview.mounted(path, tree) as root:
            yield root, tree
    finally:
        objects.close()


# --- a revision's workspace ------------------------------------------------------------------


def _load(
    root: Path,
    tree: RevisionTree,
    env: Mapping[str, str],
    workflows: Iterable[str] | None,
    runtime: RuntimeProfile | None,
) -> WorkspaceSnapshot:
    profile = load_profile(root)
    effective = {**profile.env, **env}
    chosen = runtime or get_profile(profile.runtime)
    snap = load_snapshot(root, effective, workflows=workflows, profile=profile, runtime=chosen)
    return replace(
        snap,
        revision=f"git:{tree.commit}",
        folder_problems=(*snap.folder_problems, *tree.notes),
    )


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
    commit = commit_of(repo, revision)
    if commit is None:
        raise RevisionError(f"{revision}: not a commit of {repo}")
    subdir = PurePosixPath(subdir).as_posix().strip("/") if subdir not in ("", ".") else ""
    with opened_revision(repo, commit, subdir) as found:
        if found is None:
            raise RevisionError(f"{revision}: no files under {subdir or 'the repository root'}")
        root, tree = found
        return _load(root, tree, env, workflows, runtime)


@dataclass(frozen=True)
class RevisionWorkspace:
    """Everything review mode reads from one revision, read in one pass over its tree."""

    snapshot: WorkspaceSnapshot
    #: the embedded database loaded from the revision's own seed files (in memory)
    database: EmbeddedDatabase
    database_problems: tuple[Diagnostic, ...]
    #: saved scenarios by workflow, then by name
    scenarios: Mapping[str, Mapping[str, Scenario]]
    #: ``flowctx test``'s files as committed (``.flowctx/tests/*.yaml``)
    tests: tuple[TestFile, ...] = ()


def read_revision(
    repo: Path,
    commit: str,
    subdir: str,
    env: Mapping[str, str],
    *,
    runtime: RuntimeProfile | None = None,
) -> RevisionWorkspace | None:
    """The workspace at ``subdir`` of ``commit``: its snapshot, its seed database and its
    saved scenarios; None when the revision has no files there."""
    with opened_revision(repo, commit, subdir) as found:
        if found is None:
            return None
        root, tree = found
        # seeds first: what their folder holds that is not read is reported with the
        # snapshot's folder problems
        database = EmbeddedDatabase(root, repository=f":memory:{repo}@{commit}/{subdir}")
        problems = database.load_seeds() if fsview.is_dir(root / SEED_DIR) else []
        tests = _tests(root)
        snap = _load(root, tree, env, None, runtime)
        scenarios = saved_scenarios(root, snap.workflows)
        return RevisionWorkspace(snap, database, tuple(problems), scenarios, tests)


def _tests(root: Path) -> tuple[TestFile, ...]:
    """The test files of a mounted revision, read as a folder's are
    (``workspace_test_files``)."""
    from flowctx_core.testing.model import workspace_test_files

    return tuple(workspace_test_files(root))


__all__ = [
    "MAX_BLOB_BYTES",
    "MAX_REVISION_BYTES",
    "MAX_TREE_BYTES",
    "MAX_TREE_ENTRIES",
    "RevisionError",
    "RevisionWorkspace",
    "commit_of",
    "git",
    "git_command",
    "git_env",
    "load_snapshot_at",
    "opened_revision",
    "read_revision",
    "repository_of",
]
