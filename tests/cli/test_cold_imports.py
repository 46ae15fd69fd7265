"""Each command loads only what it uses.

``flowctx check`` on a plain workspace: the expression engines come with routing files,
montydb with seed files or data_reference sources, Textual never. ``flowctx eval`` reads no
workspace (no pydantic, no YAML, one expression front end); ``flowctx schema`` prints what was
generated ahead of time (no validating model is built). Each is most of a cold start
(tests/benchmarks/bench_cold.py). Run in a fresh interpreter, through the command's own
``main``, on real files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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
sys.argv = ["flowctx", *json.loads(sys.argv[1])]  # as the program runs it: main() reads argv
with contextlib.redirect_stdout(out):
    code = main()
print(json.dumps({"code": code, "out": out.getvalue(), "loaded": sorted(sys.modules)}))
"""


def under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def run_fresh(args: list[str], watched: tuple[str, ...], cwd: Path = ROOT) -> dict[str, Any]:
    """``flowctx ARGS`` in a fresh interpreter: exit code, output and the modules loaded
    that are (or are under) one of ``watched``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("FLOWCTX_")},
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    # pydantic's plugin loader, as flowctx_tui.startup gives it, imports nothing
    got["loaded"] = [
        m for m in got["loaded"] if under(m, watched) and m != "pydantic.plugin._loader"
    ]
    return got


def probe(root: Path) -> dict[str, Any]:
    got = run_fresh(["check", str(root)], HEAVY)
    # top-level packages, and flowctx_core's sub-packages
    got["loaded"] = sorted(
        {
            ".".join(m.split(".")[:2]) if m.startswith("flowctx_core.") else m.split(".")[0]
            for m in got["loaded"]
        }
    )
    return got


def test_a_plain_workspace_is_checked_without_the_heavy_parts(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"workflows/W/context_variables.yaml": PLAIN})
    got = probe(root)
    assert got["code"] == 0 and "ok: 1 workflow" in str(got["out"])
    assert got["loaded"] == []


REGISTRY_MODELS = "flowctx_core.buildctx.registry_model"


def test_check_makes_no_pydantic_plugin_scan_and_imports_only_what_the_files_need(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "ws", {"workflows/W/context_variables.yaml": PLAIN})
    # the scan goes through importlib.metadata (tests/cli/test_pydantic_plugins.py: plugins);
    # regex comes with a bounded pattern, the registry models with a registry
    got = run_fresh(["check", str(root)], ("importlib.metadata", "regex", REGISTRY_MODELS))
    assert got["code"] == 0 and got["loaded"] == []


def test_a_build_context_registry_brings_its_models_and_is_checked(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": PLAIN,
            "build_context/r/context.yaml": "context_id: r\napplies_to_workflows: [W]\nnope: 1\n",
        },
    )
    got = run_fresh(["check", str(root)], (REGISTRY_MODELS,))
    assert got["code"] == 1 and "build_context/r/context.yaml:3:1" in str(got["out"]), got["out"]
    assert got["loaded"] == [REGISTRY_MODELS]


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
    got = run_fresh(["check", str(root)], ("flowctx_core.expressions.mj",))
    # the bad condition is still found and located: the ag2 front end parsed it
    assert got["code"] == 1 and "handoffs.yaml:6:" in str(got["out"]), got["out"]
    assert got["loaded"] == []


#: what reading a workspace costs: its YAML, its validating models, the sessions around them
WORKSPACE = (
    "yaml",
    "pydantic",
    "flowctx_core.model.workspace",
    "flowctx_core.model.contract",
    "flowctx_core.session",
    "flowctx_core.snapshot",
    "flowctx_core.resolve",
    "flowctx_core.buildctx",
    "flowctx_core.routing",
    "montydb",
    "textual",
)


def test_eval_loads_nothing_of_a_workspace_and_one_front_end() -> None:
    got = run_fresh(["eval", "1 === 1"], (*WORKSPACE, "flowctx_core.expressions"))
    assert got["code"] == 0 and got["out"] == "true\n"
    loaded = set(got["loaded"])
    assert not {m for m in loaded if under(m, WORKSPACE)}, loaded
    assert "flowctx_core.expressions.mj" in loaded
    others = tuple(f"flowctx_core.expressions.{m}" for m in ("ag2", "mozaiks", "python", "explain"))
    assert not {m for m in loaded if under(m, others)}, loaded


#: what a condition without them does not load: the regular-expression engine (and the child
#: process that bounds its risky matches), the time-zone database, the denylist's patterns
#: compiled one by one (only the first-pass filter runs), the workspace's root finder and the
#: runtime profiles' rules
ON_FIRST_USE = (
    "regress",
    "subprocess",
    "zoneinfo",
    "difflib",
    "flowctx_core.model.workspace_root",
    "flowctx_core.model.profiles",  # --runtime's help lists the names only
)

SCOPE_PROBE = """
import json, sys
from flowctx_core.expressions import evaluate
before = sorted(sys.modules)
got = [evaluate(text, {"payload": {"note": "Try again"}}) for text in json.loads(sys.argv[1])]
results = [[r.success, r.value, r.error.message if r.error else None] for r in got]
print(json.dumps({"results": results, "loaded": [m for m in sys.modules if m not in before]}))
"""


def test_a_plain_eval_loads_no_regexp_date_or_denylist_machinery() -> None:
    got = run_fresh(["eval", "1 === 1"], ON_FIRST_USE)
    assert got["code"] == 0 and got["out"] == "true\n"
    assert got["loaded"] == []


def test_conditions_that_use_them_load_them_and_get_the_runtimes_answer(tmp_path: Path) -> None:
    conditions = [
        "1 === 1",
        "/^t(ry|ied)/i.test(payload.note)",
        "new Date('2026-12-01T10:00:00+01:00').getTime() === 1796115600000",
        "Date.parse('Dec 1, 2026') > 0",
        "payload.note.includes('try again')",  # the denylist matches inside the string
        "payload.note.replace(/a/g, 'o').indexOf('go') === 5",
    ]
    done = subprocess.run(
        [sys.executable, "-c", SCOPE_PROBE, json.dumps(conditions)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=True,
        env={**{k: v for k, v in os.environ.items() if not k.startswith("FLOWCTX_")}, "TZ": "UTC"},
    )
    got = json.loads(done.stdout.strip().splitlines()[-1])
    refused = "Expression contains forbidden construct: \\btry\\b"
    assert got["results"] == [
        [True, True, None],
        [True, True, None],
        [True, True, None],
        [True, True, None],
        [False, None, refused],
        [True, True, None],
    ]
    # in the same process as a plain condition, the first regular expression brings its engine
    assert "regress" in got["loaded"]


def test_eval_of_another_dialect_or_explained_brings_what_it_uses() -> None:
    args = ["eval", "-d", "ag2", "--explain", "${a} == 1", "--context", '{"a": 1}']
    got = run_fresh(args, (*WORKSPACE, "flowctx_core.expressions"))
    assert got["code"] == 0 and str(got["out"]).startswith("true\n")
    loaded = set(got["loaded"])
    assert {"flowctx_core.expressions.ag2", "flowctx_core.expressions.explain"} <= loaded
    assert not {m for m in loaded if under(m, WORKSPACE)}, loaded


def test_schema_builds_no_validating_model(tmp_path: Path) -> None:
    got = run_fresh(["schema", "contract"], WORKSPACE, cwd=tmp_path)
    assert got["code"] == 0
    assert json.loads(str(got["out"]))["title"].startswith("context_variables.yaml (runtime ")
    assert got["loaded"] == []


def test_schema_reads_the_runtime_of_the_workspace_around_it(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"flowctx.yaml": "runtime: spec\n", "workflows/W/context_variables.yaml": PLAIN},
    )
    got = run_fresh(["schema", "contract"], ("pydantic",), cwd=root / "workflows" / "W")
    assert got["code"] == 0
    assert json.loads(str(got["out"]))["title"] == "context_variables.yaml (runtime spec)"
    assert got["loaded"] == []


GC_PROBE = """
import gc, sys
from flowctx_tui.cli import main
sys.argv = ["flowctx", "eval", "1 === 1"]
code = main()
print(code, gc.isenabled(), gc.get_freeze_count() > 0)
"""


def test_eval_imports_its_engine_with_the_collector_paused_and_turns_it_back_on() -> None:
    # the engine's modules live as long as the process: imported with the collector paused,
    # then frozen out of its walks; the collector itself is on again for what the command makes
    done = subprocess.run(
        [sys.executable, "-c", GC_PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert done.stdout.splitlines()[-1] == "0 True True", done.stdout
