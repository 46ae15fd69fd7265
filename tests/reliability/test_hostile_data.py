"""Hostile data files: the fallbacks file (MOZAIKS_CONTEXT_FALLBACKS_FILE) and the embedded
database's seed files, with invalid JSON, wrong top-level types, huge, special, deeply nested
and unreadable files, and documents the database refuses.

What the user notices: a warning (fallbacks) or a located error (seeds, in ``flowctx check``)
naming the file and, for JSON errors, the line and column; the rest of the workspace still
resolves; nothing blocks and each file costs no more than the bounds of one hostile input.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.base.nesting import MAX_NESTING
from flowctx_core.model.database import MAX_SEED_BYTES, MAX_SEED_DOCUMENTS, open_database
from flowctx_core.model.fallbacks import MAX_FALLBACKS_BYTES
from flowctx_core.session import open_session
from tests.reliability.harness import (
    CPU_SECONDS,
    PEAK_MB,
    cost,
    flowctx_without_root_bypass,
    permissions_bite,
    record,
    run_cli,
)

FALLBACKS_ENV = "MOZAIKS_CONTEXT_FALLBACKS_FILE"
CONTRACT = """definitions:
  policy:
    type: object
    source: {type: data_reference, database_name: default, collection: policies,
             fields: [limit]}
  owner:
    type: object
    source: {type: data_reference, database_name: default, collection: owners,
             fields: [name]}
agents:
  Agent: {variables: [policy, owner]}
"""
GOOD_SEED = [{"name": "dana"}]
DEEP = MAX_NESTING * 8


def text(content: str) -> Callable[[Path], None]:
    return lambda p: p.write_text(content, encoding="utf-8")


def sparse(size: int) -> Callable[[Path], None]:
    def write(p: Path) -> None:
        with p.open("wb") as f:
            f.truncate(size)

    return write


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "workflows" / "W").mkdir(parents=True)
    (root / "workflows" / "W" / "context_variables.yaml").write_text(CONTRACT, encoding="utf-8")
    (root / "seed" / "default").mkdir(parents=True)
    (root / "seed" / "default" / "owners.json").write_text(json.dumps(GOOD_SEED))
    return root


# --- the fallbacks file -----------------------------------------------------------------------

FALLBACK_CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "invalid JSON": (
        text('{"global": {"policy": {"limit": 1}},\n "workflows": }'),
        "no fallbacks: fb.json:2:15: invalid JSON: Expecting value",
    ),
    "a list": (text("[1, 2]"), "no fallbacks: fb.json must hold a JSON object, found list"),
    "a string": (text('"global"'), "no fallbacks: fb.json must hold a JSON object, found str"),
    "a number": (text("42"), "no fallbacks: fb.json must hold a JSON object, found int"),
    "null": (text("null"), "no fallbacks: fb.json must hold a JSON object, found NoneType"),
    "empty": (text(""), "no fallbacks: fb.json:1:1: invalid JSON: Expecting value"),
    "Latin-1": (
        lambda p: p.write_bytes(b'{"global": {"policy": "caf\xe9"}}'),
        "no fallbacks: cannot read fb.json: not valid UTF-8 text at byte 26",
    ),
    "50 MB": (
        sparse(50 * 1024 * 1024),
        f"no fallbacks: cannot read fb.json: file is {50 * 1024 * 1024:,} bytes, "
        f"over the {MAX_FALLBACKS_BYTES:,}-byte limit",
    ),
    "nested 512 levels": (
        text('{"global": {"policy": ' + "[" * DEEP + "]" * DEEP + "}}"),
        # located at the bracket that opens one level too many
        f"no fallbacks: fb.json:1:{21 + MAX_NESTING}: invalid JSON: nested more than "
        f"{MAX_NESTING} levels deep",
    ),
    "a FIFO": (os.mkfifo, "no fallbacks: fb.json is not a regular file"),
    "/dev/zero": (lambda p: p.symlink_to("/dev/zero"), "no fallbacks: refused: 'fb.json'"),
    "a directory": (lambda p: p.mkdir(), "no fallbacks: fb.json is not a regular file"),
}


@pytest.mark.parametrize("name", list(FALLBACK_CASES))
def test_an_unusable_fallbacks_file_is_a_visible_warning_within_bounds(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    write, warning = FALLBACK_CASES[name]
    root = workspace(tmp_path)
    write(root / "fb.json")

    def resolve() -> dict[str, Any]:
        matrix = open_session(root, env={FALLBACKS_ENV: "fb.json"}).matrix("W")
        return {
            "notes": list(matrix.notes),
            "policy": matrix.row("policy").warnings,  # type: ignore[union-attr]
            "owner": matrix.row("owner").value,  # type: ignore[union-attr]
        }

    measured = cost(resolve, hang_seconds=30)
    record(request, "resolve", measured)
    got = measured.result
    assert any(n.startswith(warning) for n in got["notes"]), got["notes"]
    assert any(w.startswith(warning) for w in got["policy"]), got["policy"]
    assert got["owner"] == "dana"  # the rest still resolves (one field: unwrapped)
    assert measured.cpu_s < CPU_SECONDS and measured.peak_mb < PEAK_MB, measured


# --- seed files -------------------------------------------------------------------------------

SEED = "seed/default/policies.json"
SEED_CASES: dict[str, tuple[Callable[[Path], None], str, tuple[int, int]]] = {
    "invalid JSON": (
        text('[{"limit": 1},\n {"limit": 2,}]'),
        "invalid JSON: Expecting property name enclosed in double quotes",
        (2, 14),
    ),
    "a number": (text("7"), "a seed file must hold a JSON array of objects", (1, 1)),
    "a string": (text('"docs"'), "a seed file must hold a JSON array of objects", (1, 1)),
    "a list of numbers": (text("[1, 2]"), "a seed file must hold a JSON array of objects", (1, 1)),
    "Latin-1": (
        lambda p: p.write_bytes(b'[{"limit": "caf\xe9"}]'),
        "cannot read seed file: not valid UTF-8 (byte 15)",
        (0, 0),
    ),
    "50 MB": (
        sparse(50 * 1024 * 1024),
        f"cannot read seed file: file is {50 * 1024 * 1024:,} bytes, "
        f"over the {MAX_SEED_BYTES:,}-byte limit",
        (0, 0),
    ),
    "too many documents": (
        text(json.dumps([{"i": i} for i in range(MAX_SEED_DOCUMENTS + 1)])),
        f"seed file holds {MAX_SEED_DOCUMENTS + 1:,} documents, over the embedded database's "
        f"{MAX_SEED_DOCUMENTS:,}-document limit",
        (1, 1),
    ),
    "nested 512 levels": (
        text('[{"limit": ' + "[" * DEEP + "]" * DEEP + "}]"),
        f"invalid JSON: nested more than {MAX_NESTING} levels deep",
        (1, 10 + MAX_NESTING),
    ),
    "a dotted key": (
        text('[{"limit.max": 1}]'),
        "the embedded database refused this seed file (key 'limit.max' must not contain '.')",
        (1, 1),
    ),
    "an operator key": (
        text('[{"$where": "sleep(1000)"}]'),
        "the embedded database refused this seed file (key '$where' must not start with '$')",
        (1, 1),
    ),
    "a repeated _id": (
        text('[{"_id": 1, "limit": 1}, {"_id": 1, "limit": 2}]'),
        "the embedded database refused this seed file (document 2 repeats an earlier "
        "document's _id); it stays empty",
        (1, 1),
    ),
    "a FIFO": (os.mkfifo, "cannot read seed file: not a regular file", (0, 0)),
    "/dev/zero": (
        lambda p: p.symlink_to("/dev/zero"),
        # refused before it is opened, as any seed linked out of the workspace
        "seed file not loaded: it resolves outside the workspace root through a symlink",
        (0, 0),
    ),
    "a directory": (lambda p: p.mkdir(), "cannot read seed file: is a directory", (0, 0)),
}


@pytest.mark.parametrize("name", list(SEED_CASES))
def test_a_bad_seed_file_is_a_located_error_and_its_collection_stays_empty(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    write, words, where = SEED_CASES[name]
    root = workspace(tmp_path)
    write(root / SEED)

    def load() -> dict[str, Any]:
        db, problems = open_database(root)
        return {
            "problems": problems,
            "policy": db.find_newest("default", "policies", {}, None),
            "owner": db.find_newest("default", "owners", {}, ["name"]),
        }

    measured = cost(load, hang_seconds=30)
    record(request, "open_database", measured)
    got = measured.result
    [problem] = got["problems"]
    assert problem.file == SEED and words in problem.message, problem
    assert (problem.line, problem.column) == where
    assert got["policy"] is None  # nothing half-loaded
    assert got["owner"] == {"name": "dana"}  # other collections still load
    assert measured.cpu_s < CPU_SECONDS and measured.peak_mb < PEAK_MB, measured


def test_flowctx_check_locates_bad_seeds_and_every_command_carries_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(tmp_path)
    for i, name in enumerate(n for n in SEED_CASES if n not in ("a FIFO", "50 MB")):
        SEED_CASES[name][0](root / "seed" / "default" / f"bad{i:02d}.json")
    code, out, err = run_cli(["check", str(root)], capsys)
    assert code == 1 and "Traceback" not in out + err
    for i, name in enumerate(n for n in SEED_CASES if n not in ("a FIFO", "50 MB")):
        line, col = SEED_CASES[name][2]
        # a whole-file problem (no line) names the file alone
        where = f":{line}:{col}" if line else ""
        prefix = f"seed/default/bad{i:02d}.json{where}: "
        assert any(ln.startswith(prefix) for ln in out.splitlines()), (name, out)
    for args in (["matrix"], ["prompt"], ["routes", "--from", "Agent"]):
        code, out, err = run_cli([*args, str(root)], capsys)
        assert "Traceback" not in out + err and code in (0, 1, 2)


def test_the_largest_accepted_seed_loads_and_answers_within_bounds(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    root = workspace(tmp_path)
    docs = [{"app": f"app-{i % 50}", "limit": i} for i in range(MAX_SEED_DOCUMENTS)]
    (root / SEED).write_text(json.dumps(docs), encoding="utf-8")

    def load_and_query() -> Any:
        db, problems = open_database(root)
        assert problems == []
        return [db.find_newest("default", "policies", {"app": "app-7"}, ["limit"])]

    measured = cost(load_and_query)
    record(request, f"{MAX_SEED_DOCUMENTS:,} documents: load + one query", measured)
    assert measured.result == [{"limit": MAX_SEED_DOCUMENTS - 43}]
    assert measured.cpu_s < CPU_SECONDS and measured.peak_mb < PEAK_MB, measured


# --- unreadable -------------------------------------------------------------------------------


def test_unreadable_fallbacks_and_seeds_say_so(tmp_path: Path) -> None:
    why = permissions_bite(tmp_path)
    if why:
        pytest.skip(why)
    root = workspace(tmp_path)
    (root / "fb.json").write_text("{}", encoding="utf-8")
    (root / SEED).write_text("[]", encoding="utf-8")
    (root / "fb.json").chmod(0)
    (root / SEED).chmod(0)
    for folder in [tmp_path, *tmp_path.parents]:
        if folder == Path("/tmp"):
            break
        folder.chmod(folder.stat().st_mode | 0o755)
    result = flowctx_without_root_bypass(["check", str(root)], cwd=tmp_path)
    assert result.returncode == 1
    assert f"{SEED}: cannot read seed file: Permission denied" in result.stdout
    result = flowctx_without_root_bypass(
        ["matrix", str(root), "--format", "json", "--env", f"{FALLBACKS_ENV}=fb.json"],
        cwd=tmp_path,
    )
    notes = json.loads(result.stdout)["notes"]
    assert "no fallbacks: cannot read fb.json: Permission denied" in notes
