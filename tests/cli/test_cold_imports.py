"""``flowctx check`` on a plain workspace loads only what that workspace needs.

The expression engines come with routing files, montydb with seed files or data_reference
sources, Textual never: each is most of a cold start (tests/benchmarks/bench_cold.py). Run in a
fresh interpreter, through the command's own ``main``, on real files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write_tree

ROOT = Path(__file__).resolve().parents[2]
PLAIN = (
    "definitions:\n"
    "  greeting:\n"
    "    type: string\n"
    "    source: {type: state, default: hello}\n"
    "agents:\n"
    "  A:\n"
    "    variables: [greeting]\n"
)
HEAVY = ("flowctx_core.expressions", "simpleeval", "montydb", "bson", "textual", "rich")

PROBE = """
import contextlib, io, json, sys
from flowctx_tui.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["check", sys.argv[1]])
heavy = sorted({m.split(".")[0] if not m.startswith("flowctx_core.") else ".".join(m.split(".")[:2])
                for m in sys.modules if m.startswith(tuple(sys.argv[2:]))})
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": heavy}))
"""


def probe(root: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(root), *HEAVY],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_plain_workspace_is_checked_without_the_heavy_parts(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"workflows/W/context_variables.yaml": PLAIN})
    got = probe(root)
    assert got["code"] == 0 and "ok: 1 workflow" in str(got["out"])
    assert got["loaded"] == []


def test_routing_files_and_seeds_bring_their_parts_and_are_checked(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": PLAIN,
            "workflows/W/handoffs.yaml": (
                "handoff_rules:\n"
                "  - source_agent: A\n"
                "    target_agent: A\n"
                "    handoff_type: condition\n"
                "    condition_type: expression\n"
                "    condition: ${nope} ==\n"
            ),
            "seed/db/c.json": [{"v": 1}],
        },
    )
    got = probe(root)
    assert got["code"] == 1, got["out"]
    assert "handoffs.yaml:6:" in str(got["out"])
    assert "flowctx_core.expressions" in got["loaded"] and "montydb" in got["loaded"]
    assert "textual" not in got["loaded"]


def test_a_workspace_routed_by_ag2_conditions_is_checked_without_the_mj_engine(
    tmp_path: Path,
) -> None:
    # MemberJunction's JavaScript values and built-ins are most of the expression engines'
    # import: a check (and the app's first frame) of a Mozaiks workspace does without them
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": PLAIN,
            "workflows/W/handoffs.yaml": (
                "handoff_rules:\n"
                "  - source_agent: A\n"
                "    target_agent: A\n"
                "    handoff_type: condition\n"
                "    condition_type: expression\n"
                "    condition: ${greeting} == 'hi' and\n"
            ),
        },
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(root), "flowctx_core.expressions.mj"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    # the bad condition is still found and located: the ag2 front end parsed it
    assert got["code"] == 1 and "handoffs.yaml:6:" in str(got["out"]), got["out"]
    assert got["loaded"] == []
