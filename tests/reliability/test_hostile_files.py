"""Hostile paths for ``file`` sources: symlink loops, symlinks out of the workspace at any
depth, ``..`` in every position, absolute paths, device files, FIFOs, huge and deeply nested
files, and unreadable ones.

What the user notices: a refusal or a problem on the variable's row (and in ``flowctx check``)
that names the path and says why; the workspace root is never left unless
CONTEXT_FILE_ALLOW_OUTSIDE_ROOT allows it; nothing blocks (a FIFO or /dev/zero is never read)
and every resolution stays within the bounds of one hostile input.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.base.nesting import MAX_NESTING
from flowctx_core.session import open_session
from flowctx_core.sources.file import MAX_FILE_BYTES
from tests.reliability.harness import (
    CPU_SECONDS,
    PEAK_MB,
    cost,
    flowctx_without_root_bypass,
    permissions_bite,
    run_cli,
)

ALLOW = "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT"
INSIDE = {"where": "inside"}
OUTSIDE = {"where": "outside"}
OUTSIDE_REFUSAL = "resolves outside the workspace root"


def contract(paths: dict[str, str], required: bool = False) -> str:
    lines = ["definitions:"]
    for name, path in paths.items():
        extra = ", required: true" if required else ", default: {fallback: true}"
        lines.append(f"  {name}: {{type: object, source: {{type: file, path: '{path}'{extra}}}}}")
    names = ", ".join(paths)
    lines.append(f"agents:\n  Agent: {{variables: [{names}]}}")
    return "\n".join(lines) + "\n"


def make_workspace(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace with data/in.json inside and a sibling folder outside with out.json."""
    root = tmp_path / "ws"
    (root / "workflows" / "W").mkdir(parents=True)
    (root / "data" / "a" / "b" / "c" / "d").mkdir(parents=True)
    (root / "data" / "in.json").write_text(json.dumps(INSIDE), encoding="utf-8")
    outside = tmp_path / "outside"
    (outside / "deeper").mkdir(parents=True)
    (outside / "out.json").write_text(json.dumps(OUTSIDE), encoding="utf-8")
    (outside / "deeper" / "out.json").write_text(json.dumps(OUTSIDE), encoding="utf-8")
    return root, outside


def rows(root: Path, paths: dict[str, str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """name -> (value, status, warnings) for each file variable, resolved in a forked child."""
    (root / "workflows" / "W" / "context_variables.yaml").write_text(
        contract(paths), encoding="utf-8"
    )

    def resolve() -> dict[str, Any]:
        matrix = open_session(root, env=env or {}).matrix("W")
        return {r.name: (r.value, r.status, r.warnings) for r in matrix.rows if r.name in paths}

    measured = cost(resolve, hang_seconds=30)
    print(f"[figure] resolving {len(paths)} hostile file sources: {measured}")
    assert measured.cpu_s < CPU_SECONDS and measured.peak_mb < PEAK_MB, measured
    return measured.result  # type: ignore[no-any-return]


def assert_refused_outside(result: tuple[Any, str, tuple[str, ...]], path: str) -> None:
    value, status, warnings = result
    assert value == {"fallback": True} and status == "default", result
    [warning] = warnings
    assert warning.startswith(f"{path}: refused: ") and OUTSIDE_REFUSAL in warning, warning
    assert f"set {ALLOW}=true to allow" in warning


# --- symlinks ---------------------------------------------------------------------------------


def test_symlink_loops_are_refusals_not_hangs(tmp_path: Path) -> None:
    root, _ = make_workspace(tmp_path)
    data = root / "data"
    (data / "self").symlink_to("self")
    (data / "ping").symlink_to("pong")
    (data / "pong").symlink_to("ping")
    (data / "dir_a").symlink_to("dir_b")
    (data / "dir_b").symlink_to("dir_a")
    # a directory that contains a link to itself is no loop for a finite path: it resolves
    (data / "a" / "again").symlink_to("..")
    paths = {
        "self_loop": "data/self",
        "two_link_loop": "data/ping",
        "loop_in_a_folder": "data/dir_a/in.json",
        "finite_cycle": "data/a/again/a/again/in.json",
    }
    got = rows(root, paths)
    for name in ("self_loop", "two_link_loop", "loop_in_a_folder"):
        value, status, warnings = got[name]
        assert status == "default" and value == {"fallback": True}
        assert warnings == (f"{paths[name]}: cannot read: Too many levels of symbolic links",)
    assert got["finite_cycle"][:2] == (INSIDE, "resolved")


@pytest.mark.parametrize("depth", [0, 1, 2, 3, 4, 5])
def test_a_symlink_out_of_the_workspace_is_refused_at_any_depth(tmp_path: Path, depth: int) -> None:
    root, outside = make_workspace(tmp_path)
    folder = root / "data" / "/".join("abcde"[:depth]) if depth else root / "data"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "escape").symlink_to(outside)  # a folder link
    (folder / "leak.json").symlink_to(outside / "out.json")  # a file link
    (folder / "chain.json").symlink_to(root / "data" / "hop.json")  # inside, then out
    (root / "data" / "hop.json").symlink_to(outside / "deeper" / "out.json")
    rel = folder.relative_to(root).as_posix()
    paths = {
        "through_a_folder_link": f"{rel}/escape/out.json",
        "through_a_file_link": f"{rel}/leak.json",
        "through_a_chain": f"{rel}/chain.json",
        "out_and_back_in": f"{rel}/escape/../ws/data/in.json",
    }
    got = rows(root, paths)
    for name in ("through_a_folder_link", "through_a_file_link", "through_a_chain"):
        assert_refused_outside(got[name], paths[name])
        assert "through a symlink" in got[name][2][0]
    # the OS resolves escape/.. to outside's parent, and ws/data/in.json from there is inside
    assert got["out_and_back_in"][:2] == (INSIDE, "resolved")

    # allowed outside: the very same paths read the outside file
    allowed = rows(root, paths, env={ALLOW: "true"})
    for name in ("through_a_folder_link", "through_a_file_link", "through_a_chain"):
        assert allowed[name][:2] == (OUTSIDE, "resolved"), name


DOT_DOT = {
    # path -> where it really lands: "in" (data/in.json), "dir" (a folder), "out" (outside)
    "../outside/out.json": "out",
    "data/../../outside/out.json": "out",
    "data/a/../../../outside/out.json": "out",
    "data/a/b/c/d/../../../../../../outside/out.json": "out",
    "..": "out",
    "data/..": "dir",
    "data/a/..": "dir",
    "data/in.json/..": "dir",
    "./data/./in.json": "in",
    "data//in.json": "in",
    "data/a/../in.json": "in",
    "data/a/b/c/d/../../../../in.json": "in",
    "data/../data/a/../in.json": "in",
    "data/../../ws/data/in.json": "in",  # out through the root's parent and back in
    "data/a/b/c/d/../../../../../../ws/data/in.json": "in",
}


def test_dot_dot_in_every_position(tmp_path: Path) -> None:
    root, _ = make_workspace(tmp_path)
    names = {f"p{i}": path for i, path in enumerate(DOT_DOT)}
    got = rows(root, names)
    for name, path in names.items():
        lands = DOT_DOT[path]
        value, status, warnings = got[name]
        if lands == "in":
            assert (value, status) == (INSIDE, "resolved"), path
        elif lands == "dir":
            assert status == "missing" and len(warnings) == 1, path
            assert warnings[0].endswith(": is a directory"), (path, warnings)
        else:
            assert_refused_outside(got[name], path)


def test_absolute_paths(tmp_path: Path) -> None:
    root, outside = make_workspace(tmp_path)
    paths = {
        "absolute_inside": str(root / "data" / "in.json"),
        "absolute_outside": str(outside / "out.json"),
        "system_file": "/etc/hostname",
        "home": "~/.profile",
    }
    got = rows(root, paths)
    assert got["absolute_inside"][:2] == (INSIDE, "resolved")
    for name in ("absolute_outside", "system_file", "home"):
        assert_refused_outside(got[name], paths[name])
    allowed = rows(root, paths, env={ALLOW: "true"})
    assert allowed["absolute_outside"][:2] == (OUTSIDE, "resolved")


# --- devices, FIFOs, huge and deeply nested files ---------------------------------------------

SPECIAL = "not a regular file (device, FIFO or socket): not read"
DEVICES = {
    "zero_link": "/dev/zero",
    "random_link": "/dev/random",
    "dev_zero": "/dev/zero",
    "dev_random": "/dev/random",
    "dev_urandom": "/dev/urandom",
}


def special_workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root, _ = make_workspace(tmp_path)
    data = root / "data"
    os.mkfifo(data / "pipe.json")
    (data / "pipe_link.json").symlink_to(data / "pipe.json")
    (data / "zero.json").symlink_to("/dev/zero")
    (data / "random.json").symlink_to("/dev/random")
    with (data / "sparse.json").open("wb") as f:  # claims 50 MB, costs nothing to make
        f.truncate(50 * 1024 * 1024)
    (data / "big.json").write_text("[" + "1," * (MAX_FILE_BYTES // 2) + "1]", encoding="utf-8")
    deep = MAX_NESTING * 8  # json.loads takes it; masking and output would not
    (data / "deep.json").write_text("[" * deep + "]" * deep, encoding="utf-8")
    paths = {
        "fifo": "data/pipe.json",
        "fifo_link": "data/pipe_link.json",
        "zero_link": "data/zero.json",
        "random_link": "data/random.json",
        "dev_zero": "/dev/zero",
        "dev_random": "/dev/random",
        "dev_urandom": "/dev/urandom",
        "sparse_50mb": "data/sparse.json",
        "big": "data/big.json",
        "deep": "data/deep.json",
    }
    return root, paths


def test_devices_fifos_and_huge_files_are_never_read(tmp_path: Path) -> None:
    root, paths = special_workspace(tmp_path)
    for env in ({}, {ALLOW: "true"}):
        got = rows(root, paths, env=env)
        # the link is followed and the message names what it points at
        for name in ("fifo", "fifo_link"):
            assert got[name][2] == (f"data/pipe.json: {SPECIAL}",), got[name]
        for name, device in DEVICES.items():
            value, status, warnings = got[name]
            assert value == {"fallback": True} and status == "default"
            if env:
                assert warnings == (f"{os.path.realpath(device)}: {SPECIAL}",), warnings
            else:
                assert_refused_outside(got[name], paths[name])
        assert got["sparse_50mb"][2] == (
            f"data/sparse.json: file is {50 * 1024 * 1024:,} bytes, "
            f"over the {MAX_FILE_BYTES:,}-byte limit",
        )
        assert "over the" in got["big"][2][0] and "-byte limit" in got["big"][2][0]
        assert got["deep"][2] == (
            # located at the bracket that opens one level too many
            f"data/deep.json: invalid JSON at 1:{MAX_NESTING + 1}: nested more than "
            f"{MAX_NESTING} levels deep",
        )


def test_a_required_special_file_is_a_warning_in_the_release_and_an_error_as_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, paths = special_workspace(tmp_path)
    (root / "workflows" / "W" / "context_variables.yaml").write_text(
        contract({"fifo": paths["fifo"], "deep": paths["deep"]}, required=True)
    )
    # mozaiks 0.2.0's loader catches a required file's failure (a warning, the value None);
    # the documented contract makes it an error
    code, out, _ = run_cli(["check", str(root)], capsys)
    assert code == 0
    assert f"definitions.fifo.source.path: required file: data/pipe.json: {SPECIAL}" in out
    code, out, _ = run_cli(["check", str(root), "--runtime", "spec"], capsys)
    assert code == 1
    assert "workflows/W/context_variables.yaml:2:" in out
    assert f"definitions.fifo.source.path: required file: data/pipe.json: {SPECIAL}" in out
    code, out, _ = run_cli(["matrix", str(root), "--format", "json", "--runtime", "spec"], capsys)
    assert code == 1
    errors = {v["name"]: v["error"] for v in json.loads(out)["variables"]}
    assert errors["fifo"] == f"required file: data/pipe.json: {SPECIAL}"
    assert errors["deep"] == (
        f"required file: data/deep.json: invalid JSON at 1:{MAX_NESTING + 1}: nested more than "
        f"{MAX_NESTING} levels deep"
    )


def test_the_real_command_never_blocks_on_special_files(tmp_path: Path) -> None:
    """The installed command, in its own process with a timeout: a FIFO that were opened
    would block it forever, /dev/zero that were read would exhaust its memory."""
    root, paths = special_workspace(tmp_path)
    (root / "workflows" / "W" / "context_variables.yaml").write_text(contract(paths))
    for allow in ("false", "true"):
        result = flowctx_without_root_bypass(
            ["matrix", str(root), "--format", "json", "--env", f"{ALLOW}={allow}"],
            cwd=tmp_path,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        shown = {v["name"]: v for v in json.loads(result.stdout)["variables"]}
        # refused or unreadable: the default; too deep to parse: the runtime's loader catches
        # the failure, so nothing answers (its default unused)
        statuses = {name: shown[name]["status"] for name in paths}
        assert statuses == {name: "missing" if name == "deep" else "default" for name in paths}


def test_unreadable_file_sources_say_so(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    why = permissions_bite(tmp_path)
    if why:
        pytest.skip(why)
    root, _ = make_workspace(tmp_path)
    (root / "data" / "locked.json").write_text("{}", encoding="utf-8")
    (root / "data" / "locked.json").chmod(0)
    (root / "data" / "a" / "b").chmod(0)
    (root / "data" / "a" / "b" / "c").mkdir(exist_ok=True)
    paths = {"locked": "data/locked.json", "locked_folder": "data/a/b/c/x.json"}
    (root / "workflows" / "W" / "context_variables.yaml").write_text(contract(paths))
    for folder in [tmp_path, *tmp_path.parents]:
        if folder == Path("/tmp"):
            break
        folder.chmod(folder.stat().st_mode | 0o755)
    result = flowctx_without_root_bypass(["matrix", str(root), "--format", "json"], cwd=tmp_path)
    (root / "data" / "a" / "b").chmod(0o755)  # so that tmp_path can be cleaned up
    assert result.returncode == 0, result.stderr
    shown = {v["name"]: v for v in json.loads(result.stdout)["variables"]}
    assert shown["locked"]["warnings"] == ["data/locked.json: cannot read: Permission denied"]
    [warning] = shown["locked_folder"]["warnings"]
    assert warning.startswith("data/a/b/c/x.json: ") and "Permission denied" in warning
    # messages name the path the user wrote, not the absolute one
    assert str(tmp_path) not in json.dumps([v["warnings"] for v in shown.values()])


def test_unreadable_folders_are_reported_not_tracebacks(tmp_path: Path) -> None:
    """A workflow folder, the workflows folder and a file source's folder that cannot be
    searched: ``Path.exists`` raises there, which ended every command in a traceback."""
    why = permissions_bite(tmp_path)
    if why:
        pytest.skip(why)
    root, _ = make_workspace(tmp_path)
    (root / "workflows" / "W" / "context_variables.yaml").write_text(
        contract({"locked_folder": "data/a/b/c/x.json"})
    )
    (root / "workflows" / "Shut").mkdir()
    (root / "workflows" / "Shut" / "context_variables.yaml").write_text(contract({}))
    for folder in [tmp_path, *tmp_path.parents]:
        if folder == Path("/tmp"):
            break
        folder.chmod(folder.stat().st_mode | 0o755)
    locked = [root / "workflows" / "Shut", root / "data" / "a" / "b"]
    for folder in locked:
        folder.chmod(0)
    try:
        check = flowctx_without_root_bypass(["check", str(root)], cwd=tmp_path)
        matrix = flowctx_without_root_bypass(["matrix", str(root), "-w", "Shut"], cwd=tmp_path)
        routes = flowctx_without_root_bypass(
            ["routes", str(root), "-w", "Shut", "--from", "Agent"], cwd=tmp_path
        )
        (root / "workflows").chmod(0)
        empty = flowctx_without_root_bypass(["check", str(root)], cwd=tmp_path)
    finally:
        for folder in [root / "workflows", *locked]:
            folder.chmod(0o755)
    for result in (check, matrix, routes, empty):
        assert "Traceback" not in result.stdout + result.stderr, result.stderr
    assert check.returncode == 1
    assert "workflows/Shut: cannot list this folder: Permission denied" in check.stdout
    assert "workflows/Shut/context_variables.yaml: cannot read: Permission denied" in check.stdout
    assert "workflows/Shut/context_variables.yaml: cannot read: Permission denied" in (
        matrix.stdout + matrix.stderr
    )
    assert routes.returncode == 2
    # the workflows folder itself: not "ok, 0 workflows"
    assert empty.returncode == 1
    assert "workflows: cannot list this folder: Permission denied" in empty.stdout
