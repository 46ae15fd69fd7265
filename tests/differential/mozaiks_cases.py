"""The cases the Mozaiks differential suite runs: the release's shipped workflows, the demo,
and workspaces drawn by ``mozaiks_strategies``; each under a few environments."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from tests.differential.mozaiks_compare import Case, Tally, compare_case
from tests.differential.mozaiks_oracle import MozaiksOracle, factory_workflows

DEMO = Path(__file__).resolve().parents[2] / "flowctx_tui" / "demo" / "workspace"

#: a runtime context a host would supply for the shipped workflows' ``type: runtime`` source
RUN_BUILD_BINDING = {"app_id": "app-differential", "build_id": "build-1", "revision": 3}


def shipped_workspace(oracle: MozaiksOracle, tmp: Path) -> Path:
    """A copy of the wheel's ``factory_app/workflows`` (never the installed files)."""
    root = tmp / "shipped"
    shutil.copytree(
        factory_workflows(oracle.python),
        root / "workflows",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "__init__.py"),
    )
    return root


def shipped_cases(root: Path) -> list[Case]:
    return [
        Case("shipped", root),
        Case(
            "shipped+run_build_binding",
            root,
            runtime_context={"run_build_binding": RUN_BUILD_BINDING},
        ),
        Case(
            "shipped+env",
            root,
            env={"CONTEXT_INCLUDE_SCHEMA": "false", "LLM_MODEL": "gpt-test"},
            runtime_context={"run_build_binding": RUN_BUILD_BINDING},
            app_id="app-differential",
            user_id="user-differential",
            chat_id="chat-differential",
        ),
    ]


def demo_workspace(tmp: Path) -> Path:
    root = tmp / "demo"
    shutil.copytree(DEMO, root)
    return root


def demo_cases(root: Path) -> list[Case]:
    """The demo as shipped (its flowctx.yaml gives flowctx the environment; the runtime gets
    the same variables), then a copy without flowctx.yaml under other environments."""
    profile: dict[str, Any] = yaml.safe_load((root / "flowctx.yaml").read_text()) or {}
    env = {str(k): str(v) for k, v in (profile.get("env") or {}).items()}
    launch = dict(profile.get("launch") or {})
    ids = {k: launch.get(k) for k in ("app_id", "user_id", "chat_id")}
    bare = root.with_name(root.name + "-bare")
    shutil.copytree(root, bare)
    (bare / "flowctx.yaml").unlink()
    no_provider = {k: v for k, v in env.items() if not k.startswith("MOZAIKS_LAUNCH")}
    return [
        Case("demo", root, env=env, **ids),
        Case("demo-no-provider", bare, env=no_provider, **ids),
        Case("demo-bare", bare),
    ]


def generated_cases(tmp: Path, count: int, *, seed: int | None = 0) -> list[Case]:
    """``count`` generated workspaces written under ``tmp``; ``seed=None`` draws afresh."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    from tests.differential.mozaiks_strategies import Draw, workflows, write

    draws: list[Draw] = []

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        derandomize=seed is not None,
        suppress_health_check=list(HealthCheck),
    )
    @given(workflows())
    def collect(draw: Draw) -> None:
        draws.append(draw)

    if seed is not None:
        collect = hseed(seed)(collect)
    collect()
    cases = []
    for i, draw in enumerate(draws):
        root = write(draw, tmp / f"gen{i:05d}")
        cases.append(Case(f"gen{i:05d}", root, draw.env, draw.runtime_context, draw.app_id))
    return cases


def with_factory_app(oracle: MozaiksOracle, cases: list[Case]) -> list[Case]:
    """Both sides told where the release's packaged ``factory_app`` is: the runtime finds its
    own without being told (``MOZAIKS_FACTORY_APP_PATH`` names the same folder, so its answer
    is unchanged), flowctx reads its build-context registries from there (prompt projections)."""
    factory = str(factory_workflows(oracle.python).parent)
    for case in cases:
        case.env.setdefault("MOZAIKS_FACTORY_APP_PATH", factory)
    return cases


def run_cases(oracle: MozaiksOracle, cases: list[Case]) -> Tally:
    tally = Tally()
    cases = with_factory_app(oracle, cases)
    answers = oracle.run([c.request() for c in cases])
    for case, answer in zip(cases, answers, strict=True):
        compare_case(case, answer, tally)
    return tally
