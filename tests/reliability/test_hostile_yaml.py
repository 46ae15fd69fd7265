"""Hostile YAML in a workspace: alias bombs, deep nesting, huge, binary and non-UTF-8 files,
duplicate keys, tabs, a directory where a file should be, unreadable files.

Each gives one clear error with the file and a position, within the bounds docs/reliability.md
states for any single file (``CPU_SECONDS`` of CPU and ``PEAK_MB`` of traced memory, measured here),
never a hang or a traceback, in the core, in ``flowctx check`` and in the other commands.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from flowctx_core.base.diagnostics import Diagnostic, location
from flowctx_core.base.yamlmarks import MAX_DEPTH, MAX_YAML_BYTES, MAX_YAML_NODES
from flowctx_core.model.workspace import load_workflow
from tests.conftest import WriteWorkspace
from tests.reliability.harness import (
    CPU_SECONDS,
    PEAK_MB,
    cost,
    flowctx_without_root_bypass,
    permissions_bite,
    record,
    run_cli,
)

CONTRACT = "workflows/W/context_variables.yaml"
GOOD_CONTRACT = (
    "definitions:\n  flag: {type: boolean, source: {type: state, default: false}}\n"
    "agents:\n  Agent: {variables: [flag]}\n"
)


def billion_laughs() -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):  # 10**10 strings once expanded
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    return "\n".join(lines) + "\n"


def fifty_megabytes(path: Path) -> None:
    # valid YAML all the way: the refusal must come from the size, not a syntax error
    line = b"key_0000000: a value long enough to fill the file quickly\n"
    with path.open("wb") as f:
        for _ in range(50 * 1024 * 1024 // len(line) + 1):
            f.write(line)


@dataclass(frozen=True)
class Case:
    """A hostile contract: how to write it, the message words and the position shown."""

    write: Callable[[Path], None]
    words: str
    where: tuple[int, int]


def text(content: str) -> Callable[[Path], None]:
    return lambda p: p.write_text(content, encoding="utf-8")


def raw(content: bytes) -> Callable[[Path], None]:
    return lambda p: p.write_bytes(content)


CASES: dict[str, Case] = {
    "alias bomb (billion laughs)": Case(text(billion_laughs()), "an alias bomb?", (5, 5)),
    "nesting: 100,000 flow brackets": Case(
        text("a: " + "[" * 100_000 + "]" * 100_000 + "\n"),
        f"nesting deeper than {MAX_DEPTH} levels",
        # the bracket that opens the 65th flow level, whatever libyaml's own limit is
        (1, 68),
    ),
    "nesting: 1,000 indented mappings": Case(
        text("".join(" " * i + f"k{i}:\n" for i in range(1000))),
        f"nesting deeper than {MAX_DEPTH} levels",
        (64, 64),
    ),
    "nesting: 5,000 block sequence dashes": Case(
        text("- " * 5000 + "x\n"), f"nesting deeper than {MAX_DEPTH} levels", (1, 127)
    ),
    "a 50 MB file": Case(fifty_megabytes, f"over the {MAX_YAML_BYTES:,}-byte limit", (0, 0)),
    "a 4 MB flat list (a node per 2 bytes)": Case(
        text("a: [" + "1," * (MAX_YAML_BYTES // 2 - 8) + "1]\n"),
        f"more than {MAX_YAML_NODES:,} values",
        (1, 4),
    ),
    "binary (a PNG header)": Case(
        raw(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4),
        "binary file (contains NUL bytes)",
        (1, 1),
    ),
    "Latin-1 text": Case(
        raw(b"definitions:\n  caf\xe9: {type: string, source: {type: state}}\nagents: {}\n"),
        "not valid UTF-8 text",
        (2, 6),
    ),
    "UTF-16 text": Case(
        raw(GOOD_CONTRACT.encode("utf-16")), "UTF-16 or UTF-32 text; save the file as UTF-8", (1, 1)
    ),
    "duplicate keys": Case(
        text(
            "definitions:\n"
            "  limit: {type: integer, source: {type: state, default: 1}}\n"
            "  other: {type: integer, source: {type: state, default: 2}}\n"
            "  limit: {type: integer, source: {type: state, default: 3}}\n"
            "agents:\n  Agent: {variables: [limit, other]}\n"
        ),
        "duplicate key 'limit' (first defined at line 2); the last one would silently win",
        (4, 3),
    ),
    "a tab in the indentation": Case(
        text("definitions:\n  flag:\n\ttype: boolean\n"),
        "a tab: YAML does not allow tabs for indentation",
        (3, 1),
    ),
    "a directory named like the contract": Case(
        lambda p: p.mkdir(), "is a directory, expected a file", (0, 0)
    ),
    "a python tag": Case(
        text("definitions: !!python/object/apply:os.system ['echo pwned']\n"),
        "could not determine a constructor",
        (1, 14),
    ),
}


@dataclass(frozen=True)
class Loaded:
    """What a user would notice of a loaded workflow (small enough to send between processes)."""

    errors: list[Diagnostic]
    variables: int
    defaults: list[Any]


def load(root: Path, name: str = "W") -> Loaded:
    snapshot = load_workflow(root, name)
    return Loaded(
        [d for d in snapshot.diagnostics if d.severity == "error"],
        len(snapshot.variables),
        [v.definition.source.default for v in snapshot.variables[:1] if v.definition],
    )


def write_case(workspace: WriteWorkspace, case: Case) -> Path:
    root = workspace({})
    path = root / CONTRACT
    path.parent.mkdir(parents=True)
    case.write(path)
    return root


@pytest.mark.parametrize("name", list(CASES))
def test_a_hostile_contract_is_one_located_error_within_bounds(
    name: str, workspace: WriteWorkspace, request: pytest.FixtureRequest
) -> None:
    case = CASES[name]
    root = write_case(workspace, case)

    measured = cost(lambda: load(root))
    record(request, "load_workflow", measured)
    errors = measured.result.errors
    assert len(errors) == 1, errors
    [error] = errors
    assert error.file == CONTRACT
    assert case.words in error.message
    assert (error.line, error.column) == case.where
    assert measured.cpu_s < CPU_SECONDS, f"{name}: {measured}"
    assert measured.peak_mb < PEAK_MB, f"{name}: {measured}"


@pytest.mark.parametrize("name", list(CASES))
def test_flowctx_check_prints_the_located_error_and_fails(
    name: str, workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    root = write_case(workspace, case)
    code, out, err = run_cli(["check", str(root)], capsys)
    assert code == 1
    line, col = case.where
    # the REFUSED line (the runtime stops at this error) shares the location: not counted
    located = [
        ln
        for ln in out.splitlines()
        if ln.startswith(f"{location(CONTRACT, line, col)}: ") and ": REFUSED: " not in ln
    ]
    assert len(located) == 1 and case.words in located[0], out
    assert "Traceback" not in out + err
    assert "error(s), 0 warning(s) [runtime " in out or "warning" in out


COMMANDS: list[list[str]] = [
    ["matrix"],
    ["matrix", "--format", "json"],
    ["routes", "--from", "Agent"],
    ["routes", "--from", "Agent", "--format", "json"],
    ["prompt"],
    ["prompt", "--format", "json"],
    ["trigger", "--user", "hello"],
    ["authority", "{}", "{}"],
]


@pytest.mark.parametrize(
    "name",
    ["alias bomb (billion laughs)", "a 50 MB file", "binary (a PNG header)", "duplicate keys"],
)
def test_every_command_reports_a_hostile_contract_without_a_traceback(
    name: str, workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = write_case(workspace, CASES[name])
    words = CASES[name].words
    for args in COMMANDS:
        argv = [*args, str(root)]
        code, out, err = run_cli(argv, capsys)
        assert code in (0, 1, 2), argv
        assert "Traceback" not in out + err, argv
        if args[0] in ("matrix", "prompt"):
            # the commands that resolve the contract say what is wrong with it, and where
            shown = re.sub(r"\s+", " ", out + err)
            assert CONTRACT in shown and words.split(" (")[0] in shown, (argv, out, err)


# --- the same hostile content in every other YAML file flowctx reads --------------------------

OTHER_FILES = [
    "workflows/W/flow.yaml",
    "workflows/W/transition_graph.yaml",
    "workflows/W/handoffs.yaml",
    "flowctx.yaml",
    "build_context/policies/context.yaml",
]
OTHER_CASES = [
    "alias bomb (billion laughs)",
    "nesting: 100,000 flow brackets",
    "a 50 MB file",
    "binary (a PNG header)",
    "Latin-1 text",
    "a tab in the indentation",
    "a directory named like the contract",
]


@pytest.mark.parametrize("rel", OTHER_FILES)
def test_hostile_content_in_any_yaml_file_is_located_by_check(
    rel: str, workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in OTHER_CASES:
        case = CASES[name]
        root = workspace({CONTRACT: GOOD_CONTRACT})
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        case.write(target)
        code, out, err = run_cli(["check", str(root)], capsys)
        line, col = case.where
        located = [ln for ln in out.splitlines() if ln.startswith(f"{location(rel, line, col)}: ")]
        assert code == 1, (rel, name, out)
        assert len(located) == 1 and case.words in located[0], (rel, name, out)
        assert "Traceback" not in out + err
        # the next case starts from a clean workspace
        if target.is_dir():
            target.rmdir()
        else:
            target.unlink()


# --- the worst files that are accepted --------------------------------------------------------


def test_the_largest_accepted_files_parse_within_bounds(
    workspace: WriteWorkspace, request: pytest.FixtureRequest
) -> None:
    """A contract just under the node limit and one just under the byte limit still load,
    within the same bounds: the limits sit below the cost bound, not at it."""
    # definitions of 8 nodes each, the densest shape a real contract has, up to the limit
    count = (MAX_YAML_NODES - 10) // 8
    dense = "definitions:\n" + "".join(
        f"  v{i}: {{type: string, source: {{type: state}}}}\n" for i in range(count)
    )
    root = workspace({CONTRACT: dense + "agents: {}\n"})

    def against_the_floor() -> tuple[Loaded, float, float]:
        # PyYAML's C loader on the same text, in the same process: parsing alone
        start = time.process_time()
        yaml.load(dense, Loader=yaml.CSafeLoader)
        floor = time.process_time() - start
        start = time.process_time()
        loaded = load(root)
        return loaded, floor, time.process_time() - start

    measured = cost(against_the_floor)
    loaded, floor, ours = measured.result
    record(
        request,
        f"{count:,} definitions ({MAX_YAML_NODES:,}-node limit), parse + validate; "
        f"{ours:.2f} s = {ours / floor:.2f}x the C loader's parse ({floor:.2f} s)",
        measured,
    )
    assert loaded.variables == count
    assert loaded.errors == []
    # parse with marks + validate every definition: a small multiple of parsing alone (the
    # absolute time depends on the machine; the ratio does not)
    assert ours < 4 * floor, (ours, floor)
    assert measured.peak_mb < PEAK_MB, measured

    long_value = "x" * (MAX_YAML_BYTES - 200)
    blob = f"  blob: {{type: string, source: {{type: state, default: '{long_value}'}}}}\n"
    (root / CONTRACT).write_text(f"definitions:\n{blob}agents: {{}}\n", encoding="utf-8")
    measured = cost(lambda: load(root))
    record(request, "one 4 MB scalar", measured)
    assert measured.result.variables == 1 and measured.result.errors == []
    assert measured.result.defaults == [long_value]
    assert measured.within_bounds(), measured


# --- unreadable files -------------------------------------------------------------------------


def test_unreadable_yaml_files_are_located_errors(tmp_path: Path) -> None:
    why = permissions_bite(tmp_path)
    if why:
        pytest.skip(why)
    root = tmp_path / "ws"
    (root / "workflows" / "W").mkdir(parents=True)
    (root / "workflows" / "V").mkdir(parents=True)
    (root / CONTRACT).write_text(GOOD_CONTRACT, encoding="utf-8")
    (root / "workflows" / "V" / "context_variables.yaml").write_text(GOOD_CONTRACT)
    (root / "workflows" / "V" / "flow.yaml").write_text("steps: []\n", encoding="utf-8")
    (root / "flowctx.yaml").write_text("env: {}\n", encoding="utf-8")
    locked = [
        root / CONTRACT,
        root / "workflows" / "V" / "flow.yaml",
        root / "flowctx.yaml",
    ]
    for path in locked:
        path.chmod(0)
    # the parent folders must be enterable by the child: tmp_path's are root-only
    for folder in [tmp_path, *tmp_path.parents]:
        if folder == Path("/tmp"):
            break
        folder.chmod(folder.stat().st_mode | 0o755)

    result = flowctx_without_root_bypass(["check", str(root)], cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 1, (out, result.stderr)
    assert "Traceback" not in out + result.stderr
    for path in locked:
        rel = path.relative_to(root).as_posix()
        assert f"{rel}: cannot read: Permission denied" in out, out
