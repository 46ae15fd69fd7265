"""flowctx's memberjunction-5.51.3 profile against the real FlowAgentType, decision by decision.

The real agent type runs under node (``mj_flow_oracle.mjs``, one process per test) with the
engine's cached rows fed from the metadata files; flowctx answers from the same files. Both
say which step the run enters next (and whether it fails as soon as entered) or how the run
ends, for the starting step and every one-hop case ``mj_flow_compare`` draws.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowctx_core.memberjunction.agents import open_mj
from tests.differential.mj_flow_compare import Tally, compare, compare_runs
from tests.differential.mj_flow_draw import write_workspace
from tests.differential.mj_flow_oracle import FlowOracle

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def _report(t: Tally) -> str:
    shown = "\n".join(json.dumps(d, default=str)[:1500] for d in t.disagreements[:5])
    return f"{len(t.disagreements)} of {t.cases} cases disagree:\n{shown}"


def test_the_corpus_agents_agree_with_the_real_flow_agent_type(
    mj_flow_oracle: FlowOracle,
) -> None:
    ws = open_mj(CORPUS)
    assert len(ws.flows) == 7
    tally = compare(mj_flow_oracle, [ws])
    assert not tally.disagreements, _report(tally)
    assert tally.cases >= 1000
    # the corpus reaches every kind of answer but the 10-failures cap (no missing destination)
    assert {"enters a step", "flow ends", "run fails", "enters, fails at once"} <= set(tally.kinds)


def test_generated_agents_agree_with_the_real_flow_agent_type(
    mj_flow_oracle: FlowOracle, tmp_path: Path
) -> None:
    workspaces = []
    for seed in range(4):
        root = write_workspace(tmp_path / f"draw{seed}", seed + 100, 250)
        workspaces.append(open_mj(root))
    assert sum(len(ws.flows) for ws in workspaces) == 1000
    tally = compare(mj_flow_oracle, workspaces, small=True, seed=7)
    assert not tally.disagreements, _report(tally)
    assert tally.cases >= 8_000
    for kind in (
        "enters a step",
        "flow ends",
        "run fails",
        "run fails (10 failures)",
        "enters, fails at once",
    ):
        assert tally.kinds[kind] >= 100, tally.kinds


def test_a_copied_corpus_folder_and_one_record_file_give_the_same_agents(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(CORPUS / "MemberJunction+MJ", copy)
    whole = open_mj(copy)
    one = open_mj(copy / "metadata" / "agents" / ".bla-agent.json")
    assert list(one.flows) == ["BLA"]
    assert [s.id for s in one.flows["BLA"].steps] == [s.id for s in whole.flows["BLA"].steps]


def test_the_demo_agent_agrees_with_the_real_flow_agent_type(mj_flow_oracle: FlowOracle) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    ws = open_mj(demo_path() / "metadata")
    assert list(ws.flows) == ["ApprovalFlow"]
    tally = compare(mj_flow_oracle, [ws])
    assert not tally.disagreements, _report(tally)
    assert tally.kinds["enters a step"] >= 50


def test_whole_runs_of_the_corpus_and_demo_agents_agree(mj_flow_oracle: FlowOracle) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    workspaces = [open_mj(CORPUS), open_mj(demo_path() / "metadata")]
    tally = compare_runs(mj_flow_oracle, workspaces, per_agent=40, seed=1)
    assert not tally.disagreements, _report(tally)
    assert tally.cases == 320
    assert {"run ended", "run failed", "run chat", "run uncovered"} <= set(tally.kinds)


def test_whole_runs_of_generated_agents_agree(mj_flow_oracle: FlowOracle, tmp_path: Path) -> None:
    workspaces = [
        open_mj(write_workspace(tmp_path / f"r{seed}", seed + 200, 250)) for seed in range(4)
    ]
    tally = compare_runs(mj_flow_oracle, workspaces, per_agent=2, seed=11)
    assert not tally.disagreements, _report(tally)
    assert tally.cases == 2000
    for kind in ("run ended", "run failed", "run limit", "run chat", "run uncovered"):
        assert tally.kinds[kind] >= 20, tally.kinds


def test_flowctx_routes_json_agrees_with_the_real_flow_agent_type(
    mj_flow_oracle: FlowOracle, capsys: pytest.CaptureFixture[str]
) -> None:
    """The interface held-out cases use, end to end: ``flowctx routes PATH -w AGENT [--from
    STEP] --payload/--data/--context/--step-result/--flow-context --format json``."""
    import random

    from flowctx_tui.cli import main
    from tests.differential.mj_flow_compare import cases_for
    from tests.differential.mj_flow_oracle import world

    ws = open_mj(CORPUS)
    rng = random.Random(5)
    batches, asked = [], []
    for agent in ws.flows.values():
        drawn = cases_for(agent, rng)
        cases = rng.sample(drawn, min(6, len(drawn)))
        batches.append((world([agent]), cases))
        asked += [(agent, c) for c in cases]
    answers = mj_flow_oracle.run(batches)
    for (agent, case), ans in zip(asked, answers, strict=True):
        args = [
            "routes",
            str(CORPUS),
            "-w",
            agent.name,
            "--runtime",
            "memberjunction-5.51.3",
            "--format",
            "json",
        ]
        if case["op"] == "hop":
            step = agent.step(case["fromId"])
            assert step is not None
            args += ["--from", step.name, "--step-result", json.dumps(case["stepResult"])]
            for flag, key in (
                ("--flow-context", "flowContext"),
                ("--data", "data"),
                ("--context", "context"),
            ):
                if case.get(key) is not None:
                    args += [flag, json.dumps(case[key])]
        if case.get("payload") is not None:
            args += ["--payload", json.dumps(case["payload"])]
        main(args)
        d = json.loads(capsys.readouterr().out)["decisions"][0]
        want = agent.step(ans["winner"]).name if ans["winner"] else None
        assert (d["winner"], d["ended"], d["failed"]) == (want, ans["ended"], ans["failed"]), (
            agent.name,
            case,
            ans,
            d,
        )
