"""Review mode on a hostile repository: a branch or pull request the reviewer runs
``flowctx diff --base REV`` or ``flowctx --base REV`` on.

Each test builds its repository with real git, crafting what git itself never writes with its
plumbing (``git mktree --missing``, ``git hash-object -t tree --literally``, ``git commit-tree``),
and drives the command a reviewer types. The promises: nothing is written anywhere (an audit
hook sees every file the process opens for writing, and the folders around are compared
before and after), nothing from the repository's or the user's git configuration runs (each
trap is first shown to fire under plain git, then shown not to fire), problems are one
located line, never a traceback, and memory stays bounded (peak resident set growth in a
forked child, never time).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.review.git import (
    MAX_BLOB_BYTES,
    MAX_REVISION_BYTES,
    MAX_TREE_ENTRIES,
    git_command,
    git_env,
)
from flowctx_tui.cli import main
from tests.conftest import write_tree
from tests.reliability.harness import cost, run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

CONTRACT = b"""definitions:
  region: {type: string, source: {type: config, default: eu}}
agents:
  Planner: {variables: [region]}
"""

# --- building repositories -------------------------------------------------------------------


def run_git(
    repo: Path, *args: str, data: bytes | None = None, env: dict[str, str] | None = None
) -> str:
    base = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        input=data,
        capture_output=True,
        check=True,
        env={**base, **(env or {})},
    )
    return done.stdout.decode().strip()


@dataclass(frozen=True)
class Link:
    target: bytes


@dataclass(frozen=True)
class Raw:
    """An entry naming an object as is (a missing one, or one shared by many names)."""

    mode: bytes
    oid: str


Entry = tuple[bytes, Any]  # (name, bytes | list[Entry] | Link | Raw)


def blob(repo: Path, data: bytes) -> str:
    return run_git(repo, "hash-object", "-w", "--stdin", data=data)


def tree(repo: Path, entries: list[Entry]) -> str:
    """A tree object holding ``entries`` exactly as given: duplicates, slashes and all (git's
    own ``mktree`` refuses a slash; ``--literally`` writes whatever it is handed)."""
    raw = b""
    for name, value in entries:
        if isinstance(value, bytes):
            mode, oid = b"100644", blob(repo, value)
        elif isinstance(value, list):
            mode, oid = b"40000", tree(repo, value)
        elif isinstance(value, Link):
            mode, oid = b"120000", blob(repo, value.target)
        else:
            mode, oid = value.mode, value.oid
        raw += mode + b" " + name + b"\0" + bytes.fromhex(oid)
    return run_git(repo, "hash-object", "-t", "tree", "-w", "--literally", "--stdin", data=raw)


def commit(repo: Path, entries: list[Entry]) -> str:
    return run_git(repo, "commit-tree", tree(repo, entries), "-m", "hostile")


def workspace(*extra_in_w: Entry, extra_workflows: tuple[Entry, ...] = ()) -> list[Entry]:
    """A one-workflow workspace at the repository's top, with more entries where asked."""
    w: list[Entry] = [(b"context_variables.yaml", CONTRACT), *extra_in_w]
    return [(b"workflows", [(b"W", w), *extra_workflows])]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose work tree (the head) is a small valid workspace, committed once."""
    ws = tmp_path / "repo"
    write_tree(ws, {"workflows/W/context_variables.yaml": CONTRACT.decode()})
    run_git(ws, "init", "-q")
    run_git(ws, "add", "-A")
    run_git(ws, "commit", "-q", "-m", "base")
    return ws


# --- watching for writes ---------------------------------------------------------------------

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_WRITE_EVENTS = {
    "os.mkdir",
    "os.symlink",
    "os.link",
    "os.rename",
    "os.replace",
    "os.remove",
    "os.rmdir",
    "os.truncate",
    "os.chmod",
    "os.utime",
    "shutil.rmtree",
    "shutil.copyfile",
    "tempfile.mkdtemp",
    "tempfile.mkstemp",
}
_seen: list[str] | None = None
_hooked = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _seen is None:
        return
    if event == "open":
        path, _mode, flags = (*args, None, None, None)[:3]
        if not isinstance(path, str | bytes | os.PathLike) or not isinstance(flags, int):
            return
        text = os.fsdecode(path)
        if flags & _WRITE_FLAGS and text != os.devnull and "__pycache__" not in text:
            _seen.append(f"open for writing: {text}")
    elif event in _WRITE_EVENTS:
        text = " ".join(os.fsdecode(a) for a in args if isinstance(a, str | bytes | os.PathLike))
        if "__pycache__" not in text:
            _seen.append(f"{event}: {text}")


def _listing(folder: Path) -> dict[str, tuple[int, int, int]]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            out[path] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


@contextlib.contextmanager
def no_writes(*watched: Path) -> Iterator[list[str]]:
    """Every write this process attempts inside the block (anywhere, temporary folders
    included), and then a check that the ``watched`` folders (the repository, the folders a
    link points at) did not change. (The shared temporary folder is not listed: other
    processes on the machine write there.)"""
    global _seen, _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    before = {str(w): _listing(w) for w in watched}
    found: list[str] = []
    _seen = found
    try:
        yield found
    finally:
        _seen = None
    assert found == [], found
    for w in watched:
        assert _listing(w) == before[str(w)], f"{w} changed"


def one_line_error(err: str) -> str:
    """The error a refused base prints: one line, no traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err and len(lines) == 1, err
    return lines[0]


def diff(
    repo: Path, base: str, capsys: pytest.CaptureFixture[str], *more: str
) -> tuple[int, str, str]:
    code, out, err = run_cli(["diff", str(repo), "--base", base, *more], capsys)
    assert "Traceback" not in out + err, out + err
    return code, out, err


def app_base(repo: Path, base: str) -> Any:
    """``flowctx REPO --base BASE`` up to the moment the app would start: the app, or the
    UsageError its command raises."""
    from flowctx_tui.cli import app_cmd
    from flowctx_tui.cli.common import UsageError

    parser = argparse.ArgumentParser()
    app_cmd.configure(parser)
    parser.add_argument("--runtime")
    try:
        return app_cmd.build_app(parser.parse_args([str(repo), "--base", base, "--no-watch"]))
    except UsageError as exc:
        return exc


# --- 1. crafted trees: never written, never followed -------------------------------------------


def test_a_link_and_a_folder_of_one_name_write_nothing_anywhere(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 1: ``evil -> /some/dir`` plus ``evil/pwned.txt``, as two entries of one name
    (a duplicate) or as one entry whose name holds a slash; and ``..`` entries."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "pwned.txt").write_text("original\n")
    link = Link(str(victim).encode())
    crafted = {
        "duplicate": workspace((b"evil", link), (b"evil", [(b"pwned.txt", b"overwritten\n")])),
        "slash": workspace((b"evil", link), (b"evil/pwned.txt", b"overwritten\n")),
        "dotdot": workspace((b"..", [(b"pwned.txt", b"overwritten\n")])),
        "dot": workspace((b".", [(b"x", b"y")])),
        "empty-name": workspace((b"", b"x")),
        "file-and-folder": workspace((b"data", b"a file"), (b"data", [(b"x.json", b"{}")])),
    }
    for kind, entries in crafted.items():
        rev = commit(repo, entries)
        with no_writes(repo, victim):
            code, out, err = diff(repo, rev, capsys)
        assert code == 2, (kind, out, err)
        line = one_line_error(err)
        # located at the entry, in the revision
        assert f"git:{rev[:12]}:workflows/W/" in line and "crafted" in line, (kind, line)
        assert (victim / "pwned.txt").read_text() == "original\n"
        with no_writes(repo, victim):
            refused = app_base(repo, rev)
        assert "--base:" in str(refused) and "crafted" in str(refused), kind


def test_a_symbolic_link_in_a_revision_is_reported_never_read(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A linked contract, a linked workflow folder (``workflows/Stolen -> /elsewhere``, finding
    14), a link with a NUL and an empty link: each said once, none followed."""
    elsewhere = tmp_path / "elsewhere"
    marker = "planted-outside-7f3a9c"
    write_tree(
        elsewhere,
        {
            "context_variables.yaml": (
                f"definitions:\n  {marker}: {{type: string, source: {{type: config, "
                f"default: {marker}}}}}\nagents:\n  P: {{variables: [{marker}]}}\n"
            ),
            "orchestrator.yaml": "agents: []\n",
        },
    )
    rev = commit(
        repo,
        [
            (
                b"workflows",
                [
                    (b"Stolen", Link(str(elsewhere).encode())),
                    (
                        b"V",
                        [
                            (
                                b"context_variables.yaml",
                                Link(str(elsewhere / "context_variables.yaml").encode()),
                            )
                        ],
                    ),
                    (
                        b"W",
                        [
                            (b"context_variables.yaml", CONTRACT),
                            (b"nul", Link(b"a\0b")),
                            (b"empty", Link(b"")),
                        ],
                    ),
                ],
            )
        ],
    )
    for fmt in ("text", "json", "markdown"):
        with no_writes(repo, elsewhere):
            code, out, err = diff(repo, rev, capsys, "--format", fmt, "--width", "400")
        assert code == 0, err
        assert marker not in out + err
        assert "symbolic link in the revision" in out
        if fmt == "text":
            assert "workflows/Stolen" in out and "not followed" in out
            assert "workflows/V/context_variables.yaml" in out
            assert "'a\\x00b'" in out and "(an empty target)" in out
            # every problem stays on its own line
            assert all("\0" not in line for line in out.splitlines())
    with no_writes(repo, elsewhere):
        app = app_base(repo, rev)
    assert app.base is not None and "Stolen" not in app.base.snapshot.names
    assert app.base.snapshot.workflows["V"].variables == ()


def test_a_workspace_folder_never_reads_yaml_through_a_link_that_leaves_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 14 in folders: ``workflows/Stolen -> /elsewhere`` and a contract or routing
    file linked out of the workspace are located problems, never read."""
    elsewhere = tmp_path / "elsewhere"
    marker = "planted-outside-51e0b2"
    stolen = (
        f"definitions:\n  {marker}: {{type: string, source: {{type: config, default: x}}}}\n"
        "agents: {}\n"
    )
    write_tree(
        elsewhere, {"context_variables.yaml": stolen, "transition_graph.yaml": f"# {marker}\n["}
    )
    ws = tmp_path / "ws"
    write_tree(ws, {"workflows/W/context_variables.yaml": CONTRACT.decode(), "workflows/L/x": ""})
    (ws / "workflows/Stolen").symlink_to(elsewhere, target_is_directory=True)
    (ws / "workflows/L/context_variables.yaml").symlink_to(elsewhere / "context_variables.yaml")
    (ws / "workflows/W/transition_graph.yaml").symlink_to(elsewhere / "transition_graph.yaml")
    (ws / "flowctx.yaml").symlink_to(elsewhere / "context_variables.yaml")
    for argv in (
        ["check", str(ws)],
        ["matrix", str(ws), "-w", "Stolen"],
        ["diff", str(ws), "--base", str(ws)],
    ):
        _code, out, err = run_cli(argv, capsys)
        assert marker not in out + err, argv
        assert "Traceback" not in out + err
    _code, out, _err = run_cli(["check", str(ws), "--format", "json"], capsys)
    assert "resolves outside the workspace through a symbolic link" in out
    for shown in (
        "workflows/Stolen/context_variables.yaml",
        "workflows/L/context_variables.yaml",
        "workflows/W/transition_graph.yaml",
        "flowctx.yaml",
    ):
        assert f'"file": "{shown}"' in out, shown


# --- 2. nothing in a configuration runs --------------------------------------------------------


def _evil_script(tmp_path: Path) -> tuple[Path, Path]:
    canary = tmp_path / "canary"
    script = tmp_path / "evil.sh"
    script.write_text(f'#!/bin/sh\necho "ran: $0 $*" >> "{canary}"\nexit 1\n')
    script.chmod(0o755)
    return script, canary


def _armed(repo: Path, canary: Path, *args: str, env: dict[str, str] | None = None) -> None:
    """The trap fires under plain git: the test would fail if flowctx ran git that way."""
    subprocess.run(
        ["git", "-C", str(repo), *args],
        capture_output=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    assert canary.exists(), f"the trap did not fire under plain git {args}"
    canary.unlink()


def test_nothing_in_the_repository_or_user_configuration_runs(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 8: a promisor remote with an ``ext::`` URL and a missing blob (git's lazy fetch
    would run it), fsmonitor, pager, external diff, textconv, filters, hooks, ssh; the same in
    the user's global configuration, and git variables in the environment."""
    script, canary = _evil_script(tmp_path)
    missing = "0123456789abcdef0123456789abcdef01234567"
    rev = commit(
        repo,
        [
            (b".gitattributes", b"* diff=evil filter=evil\n"),
            (b"workflows", [(b"W", [(b"context_variables.yaml", Raw(b"100644", missing))])]),
        ],
    )
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "pre-commit", "post-index-change", "reference-transaction"):
        (hooks / hook).symlink_to(script)
    for key, value in {
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::{script}",
        "remote.origin.promisor": "true",
        "remote.origin.partialclonefilter": "blob:none",
        "protocol.ext.allow": "always",
        "protocol.allow": "always",
        "core.fsmonitor": str(script),
        "core.pager": str(script),
        "pager.cat-file": str(script),
        "core.hooksPath": str(hooks),
        "core.sshCommand": str(script),
        "diff.external": str(script),
        "diff.evil.textconv": str(script),
        "filter.evil.clean": str(script),
        "filter.evil.smudge": str(script),
        "filter.evil.process": str(script),
        "core.askPass": str(script),
        "credential.helper": f"!{script}",
    }.items():
        run_git(repo, "config", key, value)
    _armed(repo, canary, "cat-file", "blob", missing)  # the lazy fetch runs ext::
    _armed(repo, canary, "status")  # fsmonitor
    # the user's own configuration: a trap there must not run either
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(f"[core]\n\tfsmonitor = {script}\n\tpager = {script}\n")
    other = tmp_path / "other"
    run_git(tmp_path, "init", "-q", str(other))
    _armed(other, canary, "status", env={"HOME": str(home), "XDG_CONFIG_HOME": str(home)})
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='{script}'")
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(script))
    monkeypatch.setenv("GIT_PAGER", str(script))
    monkeypatch.setenv("PAGER", str(script))
    monkeypatch.setenv("GIT_SSH_COMMAND", str(script))
    for fmt in ("text", "json", "markdown"):
        with no_writes(repo):
            code, out, err = diff(repo, rev, capsys, "--format", fmt)
        assert not canary.exists(), canary.read_text()
        assert code == 0, err
        if fmt == "text":
            assert (
                "workflows/W/context_variables.yaml" in out and "missing from the repository" in out
            )
    with no_writes(repo):
        app = app_base(repo, rev)
    assert app.base is not None and not canary.exists()
    # the settings flowctx runs git with, as a reader of this test can check them
    env = git_env()
    assert env["GIT_ALLOW_PROTOCOL"] == "" and env["GIT_NO_LAZY_FETCH"] == "1"
    assert env["GIT_CONFIG_NOSYSTEM"] == "1" and env["GIT_CONFIG_GLOBAL"] == os.devnull
    assert not any(k in env for k in ("GIT_CONFIG_PARAMETERS", "GIT_SSH_COMMAND", "PAGER"))
    assert "core.fsmonitor=false" in git_command(repo, "x")


# --- 3. bounds ---------------------------------------------------------------------------------


def _measured_diff(repo: Path, base: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["diff", str(repo), "--base", base, "--width", "400"])
    return code, out.getvalue(), err.getvalue()


def test_a_300_mb_blob_is_refused_from_its_size(repo: Path, tmp_path: Path) -> None:
    """Finding 11: the blob's size is asked first (``cat-file --batch-check``); it is never read."""
    big = (
        subprocess.run(
            f"head -c 300000000 /dev/zero | git -C '{repo}' hash-object -w --stdin",
            shell=True,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    rev = commit(
        repo, [(b"workflows", [(b"W", [(b"context_variables.yaml", Raw(b"100644", big))])])]
    )
    with no_writes(repo):
        measured = cost(lambda: _measured_diff(repo, rev))
    code, out, err = measured.result
    assert code == 0 and "Traceback" not in out + err, err
    assert "workflows/W/context_variables.yaml" in out and "300,000,000 bytes" in out
    assert f"{MAX_BLOB_BYTES:,}-byte limit" in out
    # the blob whole would be 300 MB; reading nothing of it keeps the growth small
    assert measured.peak_mb < 60, str(measured)


def _many_names(repo: Path, size: int, count: int = 50) -> str:
    """``count`` data files naming one blob of ``size`` bytes (a JSON string), each a file
    source of the contract."""
    one = blob(repo, b'"' + b"a" * (size - 2) + b'"')
    names = [f"d{i:02d}.json".encode() for i in range(count)]
    contract = b"definitions:\n" + b"".join(
        b"  v%d: {type: string, source: {type: file, path: data/%s, format: json}}\n" % (i, n)
        for i, n in enumerate(names)
    )
    contract += (
        b"agents:\n  P: {variables: [" + b", ".join(b"v%d" % i for i in range(count)) + b"]}\n"
    )
    data = [(n, Raw(b"100644", one)) for n in names]
    w: list[Entry] = [(b"context_variables.yaml", contract)]
    return commit(repo, [(b"data", data), (b"workflows", [(b"W", w)])])


def test_fifty_names_for_one_20_mb_blob_cost_nothing(repo: Path) -> None:
    """Finding 11: fifty entries naming one 20 MB blob wrote 1.0 GB; each is refused from its
    size now, and nothing is written."""
    rev = _many_names(repo, 20_000_000)
    with no_writes(repo):
        measured = cost(lambda: _measured_diff(repo, rev))
    code, out, err = measured.result
    assert code == 0 and "Traceback" not in out + err, err
    assert out.count("20,000,000 bytes, over the") >= 1
    assert measured.peak_mb < 60, str(measured)


def test_fifty_names_for_one_large_blob_stop_at_the_revision_budget(repo: Path) -> None:
    """Under the per-blob bound, each read still counts: fifty reads of one 3.5 MB blob (175 MB
    of values) stop at the revision's budget with a located message."""
    rev = _many_names(repo, 3_500_000)
    with no_writes(repo):
        measured = cost(lambda: _measured_diff(repo, rev))
    code, out, err = measured.result
    assert code == 0 and "Traceback" not in out + err, err
    assert f"would exceed {MAX_REVISION_BYTES:,} bytes" in out
    # at most the budget's worth of values is held (a file value is its text and its string)
    assert measured.peak_mb < 3 * MAX_REVISION_BYTES / 2**20, str(measured)


def _fifty_thousand(repo: Path) -> str:
    one = blob(repo, b"{}")
    listing = "".join(f"100644 blob {one}\tf{i:05d}.json\n" for i in range(50_000))
    return run_git(repo, "mktree", data=listing.encode())


def test_fifty_thousand_files_where_a_loader_looks_are_refused_by_count(repo: Path) -> None:
    """Finding 11: 50,000 files took 9.5 s CPU. In ``workflows/`` (listed to find the
    workflows) they are refused by count, in one located line."""
    many = _fifty_thousand(repo)
    rev = commit(repo, [(b"workflows", Raw(b"40000", many))])
    with no_writes(repo):
        measured = cost(lambda: _measured_diff(repo, rev))
    code, _out, err = measured.result
    assert code == 2
    line = one_line_error(err)
    assert f"git:{rev[:12]}:workflows: more than {MAX_TREE_ENTRIES:,} files and folders" in line
    assert measured.peak_mb < 60, str(measured)


def test_fifty_thousand_files_no_loader_opens_cost_nothing(repo: Path) -> None:
    """A workspace at the top of a large repository: a folder no loader opens is never
    listed, so its size neither costs nor refuses anything."""
    many = _fifty_thousand(repo)
    rev = commit(repo, [(b"node_modules", Raw(b"40000", many)), *workspace()])
    with no_writes(repo):
        measured = cost(lambda: _measured_diff(repo, rev))
    code, out, err = measured.result
    assert code == 0 and "nothing changed" in out, out + err
    assert measured.peak_mb < 30, str(measured)


# --- 4. partial and odd repositories: said, never a traceback ----------------------------------


def test_partial_and_odd_revisions_are_located_lines(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The five tracebacks of the third security round: a missing object, a file/folder name
    clash, a 300-byte file name, a link target holding NUL, an empty link target."""
    missing = "fedcba9876543210fedcba9876543210fedcba98"
    cases: dict[str, tuple[list[Entry], int, str]] = {
        "missing blob": (
            [(b"workflows", [(b"W", [(b"context_variables.yaml", Raw(b"100644", missing))])])],
            0,
            "workflows/W/context_variables.yaml",
        ),
        "missing tree": (
            [*workspace(), (b"seed", Raw(b"40000", missing))],
            0,
            "the folder's git tree object",
        ),
        "clash": (workspace((b"x", b"file"), (b"x", [(b"y", b"")])), 2, "two entries"),
        "long name": (workspace((b"n" * 300 + b".json", b"{}")), 0, ""),
        "NUL link": (workspace((b"l", Link(b"../\0/etc"))), 0, "'../\\x00/etc'"),
        "empty link": (workspace((b"l", Link(b""))), 0, "(an empty target)"),
        "submodule": (workspace((b"sub", Raw(b"160000", missing))), 0, "a submodule"),
    }
    for kind, (entries, expected, said) in cases.items():
        rev = commit(repo, entries)
        with no_writes(repo):
            code, out, err = diff(repo, rev, capsys)
        assert code == expected, (kind, out, err)
        if expected == 2:
            assert said in one_line_error(err), kind
        else:
            assert said in out, (kind, out)
        with no_writes(repo):
            app = app_base(repo, rev)
        assert (app.base is not None) if expected == 0 else ("--base:" in str(app)), kind


def test_a_revision_is_never_materialised(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A valid revision with seeds and saved scenarios is compared with no temporary folder:
    making one fails the run."""
    files = [
        (b"seed", [(b"default", [(b"accounts.json", b'[{"name": "a"}]')])]),
        (b".flowctx", [(b"scenarios", [(b"W", [(b"s.json", b'{"data": {}}')])])]),
    ]
    rev = commit(repo, [*workspace(), *files])

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a temporary folder was made")

    import tempfile

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with no_writes(repo):
        code, out, err = diff(repo, rev, capsys, "--format", "json")
    assert code == 0, err
    assert '"scenarios": [\n        "default",\n        "s"' in out or '"s"' in out
    assert stat.S_ISDIR(os.stat(repo).st_mode)


@pytest.mark.parametrize(
    ("dropped", "fires"),
    [
        (("GIT_NO_LAZY_FETCH",), False),
        (("GIT_ALLOW_PROTOCOL",), False),
        (("GIT_NO_LAZY_FETCH", "GIT_ALLOW_PROTOCOL"), True),
    ],
)
def test_either_switch_alone_stops_the_lazy_fetch(
    repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    dropped: tuple[str, ...],
    fires: bool,
) -> None:
    """Two independent switches keep a missing object from running a promisor's ``ext::``
    URL: no lazy fetch, and no transport allowed. Either holds alone; without both the trap
    fires (so this test can tell)."""
    from flowctx_core.review import git as review_git

    script, canary = _evil_script(tmp_path)
    missing = "0123456789abcdef0123456789abcdef01234567"
    rev = commit(
        repo, [(b"workflows", [(b"W", [(b"context_variables.yaml", Raw(b"100644", missing))])])]
    )
    for key, value in {
        "core.repositoryformatversion": "1",
        "extensions.partialClone": "origin",
        "remote.origin.url": f"ext::{script}",
        "remote.origin.promisor": "true",
        "protocol.ext.allow": "always",
    }.items():
        run_git(repo, "config", key, value)
    safe = review_git.git_env

    def weakened() -> dict[str, str]:
        return {k: v for k, v in safe().items() if k not in dropped}

    monkeypatch.setattr(review_git, "git_env", weakened)
    snap = review_git.load_snapshot_at(repo, rev, {})
    assert "missing from the repository" in snap.workflow("W").diagnostics[0].message
    assert canary.exists() is fires


def test_a_crafted_name_in_a_workspace_below_the_top_is_one_line_located_from_the_top(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A workspace in ``ws/`` of its repository: the refused entry is named as git names a
    path in a revision (from the repository's top), and a newline in it cannot start a line."""
    repo = tmp_path / "repo"
    write_tree(repo, {"ws/workflows/W/context_variables.yaml": CONTRACT.decode()})
    run_git(repo, "init", "-q")
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "base")
    rev = commit(repo, [(b"ws", workspace((b"a\nb", b"1"), (b"a\nb", b"2")))])
    with no_writes(repo):
        code, _out, err = diff(repo / "ws", rev, capsys)
    assert code == 2
    line = one_line_error(err)
    assert f"git:{rev[:12]}:ws/workflows/W/a\\x0ab: two entries" in line, line
    # the workspace's own folder missing from the repository: said, not an empty workspace
    gone = commit(repo, [(b"ws", Raw(b"40000", "fedcba9876543210fedcba9876543210fedcba98"))])
    with no_writes(repo):
        code, _out, err = diff(repo / "ws", gone, capsys)
    assert code == 2
    assert f"git:{gone[:12]}:ws: its git tree object" in one_line_error(err)


def test_a_revision_is_judged_as_it_was_read(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The runtime's discovery of a revision's workflows is decided while the revision is
    read (its folders exist nowhere afterwards): a workflow without a marker beside one with a
    marker is the same warning on both sides, not a problem the head added."""
    write_tree(
        repo,
        {
            "workflows/W/orchestrator.yaml": "agents: []\n",
            "workflows/X/context_variables.yaml": CONTRACT.decode(),
        },
    )
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", "two workflows")
    code, out, _err = diff(repo, "HEAD", capsys)
    assert code == 0 and "nothing changed" in out, out
    code, out, _err = run_cli(["check", str(repo)], capsys)
    assert "does not discover 'X'" in out


def test_saved_scenarios_are_read_bounded_on_both_sides(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review mode applies every saved scenario unasked: in the head folder, one that is a FIFO
    or a link to /dev/zero is a located problem for the scratchpad, not a read that never ends;
    in the revision, a scenario over the bound is not read either."""
    folder = repo / ".flowctx" / "scenarios" / "W"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "fifo.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "good.json").write_text('{"data": {}}')
    big = b'{"data": {"x": "' + b"a" * (5 * 1024 * 1024) + b'"}}'
    rev = commit(
        repo, [*workspace(), (b".flowctx", [(b"scenarios", [(b"W", [(b"big.json", big)])])])]
    )
    with no_writes(repo):
        code, out, err = diff(repo, rev, capsys, "--format", "json")
    assert code == 0, err
    assert '"good"' in out and '"big"' not in out and '"fifo"' not in out
    from flowctx_core.model.scenarios import load_scenario

    # a FIFO in the folder is refused from stat; a link to /dev/zero already by where it leads
    for name, why in (("fifo", "not a regular file"), ("zero", "outside the workspace")):
        scenario, problems = load_scenario(repo, "W", name)
        assert scenario is None and why in problems[0].message, name
