"""Routing, database queries and seeds at scale: bounded CPU and memory, located refusals.

A workflow of 1,000 agents and 5,000 transition rules (twice the 500 x 2,500 that took 11-14 s
for ``graph``, 5.2 s for ``check`` and 14.4 s for ``diff``, and 30 s at this size, when every
agent's rules were found by a scan of every rule and the graph compiled again per agent), 100
``data_reference`` variables over a 5,000-document seed (21 s and 1.87 GB in ``check``), and
seed folders past the embedded database's limits, each run through ``flowctx`` as a user runs
it. The bounds are generous on purpose (the suite shares two cores): the figures measured on
the test machine are in docs/performance.md ("Routing and seeds at scale").
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.reliability.harness import Cost, cost, record
from tests.scale_workspace import WORKFLOW, make_routing_repo, write_routing_workspace

SLACK = float(os.environ.get("FLOWCTX_RELIABILITY_SLACK", "1"))
#: CPU seconds for one command on the big workflow: measured 1.6-4.3 s on the loaded test
#: machine; the code before took 30 s for graph at this size
SCALE_CPU = 10.0 * SLACK
#: growth of the peak RSS for one command (measured under 150 MB)
SCALE_MB = 400.0
AGENTS = 1_000


def _run(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def _measured(args: list[str]) -> Cost:
    return cost(lambda: _run(args))


def _within(measured: Cost, what: str) -> None:
    assert measured.cpu_s < SCALE_CPU, f"{what}: {measured}"
    assert measured.peak_mb < SCALE_MB, f"{what}: {measured}"


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    return make_routing_repo(tmp_path_factory.mktemp("scale") / "repo", AGENTS, scenarios=5)


def test_graph_of_a_thousand_agents_is_bounded(
    big_repo: Path, request: pytest.FixtureRequest
) -> None:
    measured = _measured(["graph", str(big_repo), "--format", "text"])
    record(request, f"graph, {AGENTS} agents x {AGENTS * 5} rules", measured)
    code, out, err = measured.result
    assert code == 0, err
    # every agent has its box, and each one's winner is starred
    assert out.count("· agent ") == AGENTS
    assert out.count("★ ") >= AGENTS
    _within(measured, "graph")


def test_check_of_a_thousand_agents_is_bounded(
    big_repo: Path, request: pytest.FixtureRequest
) -> None:
    measured = _measured(["check", str(big_repo)])
    record(request, f"check, {AGENTS} agents x {AGENTS * 5} rules", measured)
    code, out, err = measured.result
    assert code == 0, out + err
    assert "ok: 1 workflow(s), 0 error(s)" in out
    _within(measured, "check")


def test_diff_of_a_thousand_agents_with_saved_scenarios_is_bounded(
    big_repo: Path, request: pytest.FixtureRequest
) -> None:
    measured = _measured(["diff", str(big_repo), "--base", "HEAD", "--format", "json"])
    record(request, f"diff, {AGENTS} agents, 5 saved scenarios", measured)
    code, out, err = measured.result
    assert code == 0, err
    report = json.loads(out)
    (big,) = report["workflows"]
    assert big["scenarios"] == ["default", "s0", "s1", "s2", "s3", "s4"]
    # v3 went from 3 to 1000: the agents whose winner moves, worked out from the rules
    moved = {r["from"] for r in big["routes"] if r["scenario"] == "default"}
    assert moved == _moved_by_v3(AGENTS)
    assert len(moved) == 30
    _within(measured, "diff")


def _moved_by_v3(agents: int) -> set[str]:
    """Agent ``a``'s rule ``r`` reads ``v{(a + r) % 20}`` (default: its number), holds above
    ``a * 5 + r + 10`` and hands off to ``A{a + r + 1}``; the first that holds wins, else the
    after_turn rule (to ``A{a + 1}``). A change is a different agent handed off to."""

    def winner(a: int, values: dict[int, int]) -> int:
        for r in range(4):
            if values[(a + r) % 20] > a * 5 + r + 10:
                return (a + r + 1) % agents
        return (a + 1) % agents

    before = {v: v for v in range(20)}
    after = {**before, 3: 1000}
    return {f"A{a}" for a in range(agents) if winner(a, before) != winner(a, after)}


def test_graph_with_every_routing_file_at_500_agents_is_bounded(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    root = write_routing_workspace(tmp_path / "ws", 500)  # flow, transition graph, handoffs
    measured = _measured(["graph", str(root), "--format", "text"])
    record(request, "graph, 500 agents x 2,500 rules in each of 3 routing files", measured)
    code, out, err = measured.result
    assert code == 0, err
    for title in ("MemberJunction flow", "Mozaiks transition graph", "Mozaiks handoffs"):
        assert title in out
    _within(measured, "graph of three files")


# --- data_reference queries ---------------------------------------------------------------


def _seeded_workspace(root: Path, variables: int, documents: int, operator: bool) -> Path:
    lines = ["definitions:"]
    for i in range(variables):
        slot = f"{{$gte: {i}}}" if operator else str(i)
        lines += [
            f"  r{i}:",
            "    type: object",
            "    source:",
            "      type: data_reference",
            "      database_name: appdb",
            "      collection: policies",
            "      query_template:",
            f"        slot: {slot}",
            "      fields: [limit]",
        ]
    lines += [
        "agents:",
        f"  Reader: {{variables: [{', '.join(f'r{i}' for i in range(variables))}]}}",
    ]
    folder = root / "workflows" / "Db"
    folder.mkdir(parents=True)
    (folder / "context_variables.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    seed = root / "seed" / "appdb"
    seed.mkdir(parents=True)
    docs = [
        {"slot": d % 300, "limit": d, "tags": ["a", "b"], "nested": {"x": d, "y": [1, {"z": d}]}}
        for d in range(documents)
    ]
    (seed / "policies.json").write_text(json.dumps(docs), encoding="utf-8")
    return root


@pytest.mark.parametrize("operator", [False, True], ids=["equality", "operator"])
def test_a_hundred_queries_over_five_thousand_documents_are_bounded(
    tmp_path: Path, request: pytest.FixtureRequest, operator: bool
) -> None:
    root = _seeded_workspace(tmp_path / "ws", 100, 5_000, operator)
    measured = _measured(["matrix", str(root), "--format", "json"])
    record(request, "matrix, 100 data_reference variables, 5,000 documents", measured)
    code, out, err = measured.result
    assert code == 0, err
    values = {row["name"]: row["value"] for row in json.loads(out)["variables"]}
    # the newest document of each slot (slot i: documents i, i+300, ...; the last is newest);
    # with $gte the newest document of all matches every query
    # (one field: the variable is the field's value)
    assert values["r7"] == (4807 if not operator else 4999)
    assert values["r99"] == (4899 if not operator else 4999)
    assert measured.cpu_s < SCALE_CPU, str(measured)
    # the code before: 1.87 GB, every cycle montydb made kept alive by the paused collector
    assert measured.peak_mb < 300, str(measured)


# --- seed caps --------------------------------------------------------------------------------


def _seed(root: Path, rel: str, docs: list[dict[str, object]]) -> None:
    path = root / "seed" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(docs), encoding="utf-8")


def _contract(root: Path, collections: list[str]) -> None:
    lines = ["definitions:"]
    for name in collections:
        lines += [
            f"  {name}:",
            "    type: object",
            "    source:",
            "      type: data_reference",
            "      database_name: many",
            f"      collection: {name}",
            "      query_template: {}",
            "      fields: [i]",
        ]
    folder = root / "workflows" / WORKFLOW
    folder.mkdir(parents=True)
    (folder / "context_variables.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_more_seed_files_than_the_limit_are_refused_where_the_limit_is_crossed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    for i in range(103):
        _seed(root, f"many/c{i:03d}.json", [{"i": i}])
    _contract(root, ["c000", "c099", "c100"])
    code, out, _err = _run(["check", str(root)])
    assert code == 1
    message = (
        "seed/many/c100.json: 103 seed files, over the embedded database's 100-file "
        "limit: this file and the 2 after it are not loaded (use --mongo-uri for a real MongoDB)"
    )
    assert message in out.splitlines()
    # the first hundred are loaded; the 101st is not
    _code, out, _err = _run(["matrix", str(root), "--format", "json"])
    values = {row["name"]: row["value"] for row in json.loads(out)["variables"]}
    assert values["c000"] == 0 and values["c099"] == 99
    assert values["c100"] is None


def test_more_seed_documents_than_the_limit_are_refused_where_the_limit_is_crossed(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    root = tmp_path / "ws"
    for i in range(20):  # 20 x 5,000 documents took 15.8 s to load
        _seed(root, f"many/c{i:02d}.json", [{"i": i, "n": n} for n in range(5_000)])
    _contract(root, ["c00", "c03", "c04"])
    measured = cost(lambda: _run(["check", str(root)]))
    record(request, "check, 20 seed files of 5,000 documents", measured)
    code, out, _err = measured.result
    assert code == 1
    message = (
        "seed/many/c04.json:1:1: 5,000 documents here would bring the seed files to 25,000, "
        "over the embedded database's 20,000-document limit for all seed files: this file and "
        "the 15 after it are not loaded (use --mongo-uri for a real MongoDB)"
    )
    assert message in out.splitlines()
    assert measured.cpu_s < SCALE_CPU, str(measured)
