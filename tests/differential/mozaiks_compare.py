"""flowctx's answers beside the published Mozaiks runtime's, kind by kind.

flowctx is asked the way a user asks it: ``main([... "--format", "json"])`` for ``check``,
``matrix``, ``prompt`` and ``routes``, in a clean environment holding only the case's
variables. The runtime's answer comes from ``mozaiks_harness.py`` (one subprocess per batch).
Each comparison is one of the kinds below; a disagreement names the case, both answers and the
0.2.0 function that decides.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_tui.cli import main

KINDS = (
    "discovery",
    "verdict",
    "stage",
    "value",
    "presence",
    "type",
    "authority",
    "agents",
    "agent_variables",
    "prompt",
    "route",
    "expression",
)

#: the 0.2.0 function (and module) that decides each kind
DECIDES = {
    "discovery": "discover_workflow_paths (mozaiksai/core/workflow/paths.py)",
    "verdict": "UnifiedWorkflowManager._load_single_workflow, build_context_authority_policy, "
    "apply_launch_context_provider, _load_context_async, create_agents, "
    "compile_transition_rules_to_graph (in the order of "
    "mozaiksai/core/workflow/orchestration_patterns.py)",
    "stage": "the first of those stages that raises",
    "value": "_load_context_async (mozaiksai/core/workflow/context/variables.py)",
    "presence": "_load_context_async: a data_entity it skips sets no key "
    "(mozaiksai/core/workflow/context/variables.py)",
    "type": "_coerce_value (mozaiksai/core/workflow/context/variables.py)",
    "authority": "build_context_authority_policy / infer_context_authority "
    "(mozaiksai/core/workflow/context/authority.py)",
    "agents": "create_agents (mozaiksai/core/workflow/agents/factory.py)",
    "agent_variables": "load_context_variables_config(...).agents "
    "(mozaiksai/core/workflow/context/schema.py)",
    "prompt": "apply_context_exposures (mozaiksai/core/workflow/context/context_utils.py), "
    "called by create_agents",
    "route": "resolve_next_agent (mozaiksai/core/workflow/execution/network_graph.py)",
    "expression": "_MozaiksExpression (mozaiksai/core/adapters/ag2_transition_conditions.py)",
}

#: keys the runtime puts in every context that are not declared variables
RUNTIME_KEYS = frozenset({"database_schema_available", "database_schema_db", "app_id"})

#: the authority fields compared, as 0.2.0's ContextVariableAuthority names them
AUTHORITY_FIELDS = ("authority_class", "routing", "persisted", "writer_ids")

_JSON_TYPE = {
    "NoneType": "null",
    "bool": "bool",
    "int": "int",
    "float": "float",
    "str": "str",
    "list": "list",
    "tuple": "list",
    "dict": "dict",
}


@contextlib.contextmanager
def clean_environ(env: Mapping[str, str]) -> Iterator[None]:
    """Only the case's variables (and what a process needs to run) in ``os.environ``."""
    saved = dict(os.environ)
    keep = {k: v for k, v in saved.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    os.environ.clear()
    os.environ.update(keep)
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def run_json(argv: list[str]) -> tuple[int, Any]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    text = out.getvalue()
    try:
        return code, json.loads(text)
    except ValueError:
        return code, {"$unparsed": text[-500:], "$stderr": err.getvalue()[-500:]}


@dataclass
class Case:
    """One workspace under one environment."""

    name: str
    root: Path
    env: dict[str, str] = field(default_factory=dict)
    runtime_context: dict[str, Any] = field(default_factory=dict)
    app_id: str | None = None
    user_id: str | None = None
    chat_id: str | None = None

    def identity(self) -> dict[str, str]:
        """The run's identity the case gives (both sides get the same; none is invented)."""
        ids = {"app_id": self.app_id, "user_id": self.user_id, "chat_id": self.chat_id}
        return {k: v for k, v in ids.items() if v}

    def request(self) -> dict[str, Any]:
        return {
            "kind": "workspace",
            "root": str(self.root),
            "env": self.env,
            "runtime_context": self.runtime_context,
            **self.identity(),
        }


def _launch(case: Case) -> list[str]:
    args = ["--launch", json.dumps(case.identity())] if case.identity() else []
    if case.runtime_context:
        args += ["--runtime-context", json.dumps(case.runtime_context)]
    return args


def _envs(case: Case) -> list[str]:
    return [arg for k, v in case.env.items() for arg in ("--env", f"{k}={v}")]


def flowctx_stage(check: Mapping[str, Any], workflow: str) -> tuple[str, str | None]:
    """flowctx's verdict for one workflow: ``ok``, or the stage (and message) that refuses it."""
    refused = (check.get("refused") or {}).get(workflow)
    if refused:
        return _stage(refused.get("stage") or "refused"), str(refused.get("reason"))
    prefix = f"workflows/{workflow}/"
    for problem in check.get("problems") or []:
        if problem.get("severity") == "error" and str(problem.get("file", "")).startswith(prefix):
            return _stage(problem.get("stage") or "error"), str(problem.get("message"))
    return "ok", None


#: the stage names as the harness gives them, from flowctx's spellings of the same stages
_STAGE_NAMES = {
    "workflow manager": "workflow_manager",
    "authority policy": "authority",
    "context load": "context",
    "graph compile": "graph",
}


def _stage(name: Any) -> str:
    text = str(name)
    return _STAGE_NAMES.get(text, text)


@dataclass
class Tally:
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    disagreements: list[tuple[str, str, str, Any, Any]] = field(default_factory=list)

    def add(self, kind: str, where: str, ours: Any, theirs: Any, agree: bool) -> None:
        self.counts[(kind, "agree" if agree else "disagree")] += 1
        if not agree:
            self.disagreements.append((kind, where, DECIDES[kind], ours, theirs))

    def merge(self, other: Tally) -> None:
        self.counts.update(other.counts)
        self.disagreements.extend(other.disagreements)

    def table(self) -> dict[str, tuple[int, int]]:
        kinds = sorted({k for k, _ in self.counts}, key=KINDS.index)
        return {k: (self.counts[(k, "agree")], self.counts[(k, "disagree")]) for k in kinds}

    def lines(self, limit: int = 40) -> list[str]:
        seen: set[tuple[str, str]] = set()
        out = []
        for kind, where, decides, ours, theirs in self.disagreements:
            sig = (kind, where.split(" ")[0].split(".")[0])
            if sig in seen:
                continue
            seen.add(sig)
            out.append(
                f"{kind} | {where} | flowctx: {_short(ours)} | 0.2.0: {_short(theirs)} | {decides}"
            )
            if len(out) >= limit:
                break
        return out


def _short(value: Any, n: int = 220) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, sort_keys=True)
    return text if len(text) <= n else text[: n - 3] + "..."


def relative_paths(value: Any, root: Path) -> Any:
    """The runtime's absolute paths under the workspace, shown relative as flowctx shows them
    (a deliberate difference: flowctx never prints where a workspace happens to live)."""
    if isinstance(value, str):
        for base in {str(root), str(root.resolve())}:
            value = value.replace(base + "/", "")
        return value
    if isinstance(value, list):
        return [relative_paths(v, root) for v in value]
    if isinstance(value, dict):
        return {k: relative_paths(v, root) for k, v in value.items()}
    return value


def compare_case(case: Case, runtime: Mapping[str, Any], tally: Tally) -> None:
    """Ask flowctx about ``case`` and count each kind against the runtime's ``runtime``."""
    if "harness_error" in runtime:
        raise RuntimeError(f"{case.name}: the mozaiks harness failed: {runtime['harness_error']}")
    runtime = relative_paths(runtime, case.root)
    with clean_environ({}):
        _, check = run_json(
            ["check", str(case.root), "--format", "json", *_envs(case), *_launch(case)]
        )
        # what the runtime discovers: flowctx also lists bare contracts, for their authors
        ours_found = sorted(check.get("discovered") or [])
        tally.add(
            "discovery",
            case.name,
            ours_found,
            runtime["discovery"],
            ours_found == runtime["discovery"],
        )
        for workflow, theirs in runtime["workflows"].items():
            if theirs["stage"] == "harness":
                raise RuntimeError(f"{case.name}/{workflow}: harness fault: {theirs['error']}")
            if workflow not in ours_found:
                continue
            _compare_workflow(case, workflow, check, theirs, tally)


def _compare_workflow(
    case: Case, workflow: str, check: Mapping[str, Any], theirs: Mapping[str, Any], tally: Tally
) -> None:
    where = f"{case.name}/{workflow}"
    stage, message = flowctx_stage(check, workflow)
    tally.add(
        "verdict",
        where,
        {"ok": stage == "ok", "message": message},
        {"ok": theirs["stage"] == "ok", "message": theirs["error"]},
        (stage == "ok") == (theirs["stage"] == "ok"),
    )
    if stage != "ok" and theirs["stage"] != "ok":
        tally.add("stage", where, stage, theirs["stage"], stage == theirs["stage"])
    base = [str(case.root), "--workflow", workflow, *_envs(case), *_launch(case)]

    # values and authority: only what the runtime got to (its context load ran)
    if "authority" in theirs or "values" in theirs:
        _, matrix = run_json(["matrix", *base, "--format", "json", "--reveal"])
        variables = {v["name"]: v for v in matrix.get("variables") or []}
        for name, auth in sorted((theirs.get("authority") or {}).items()):
            if name not in variables:
                continue
            ours_auth = variables[name].get("authority")
            ours_view = (
                {f: _norm_auth(f, ours_auth.get(f)) for f in AUTHORITY_FIELDS}
                if isinstance(ours_auth, Mapping)
                else None
            )
            theirs_view = {f: _norm_auth(f, auth.get(f)) for f in AUTHORITY_FIELDS}
            tally.add(
                "authority", f"{where}.{name}", ours_view, theirs_view, ours_view == theirs_view
            )
        if "values" in theirs:
            # whether the key exists at all: flowctx shows every declared row, marking the
            # ones the runtime never sets
            for name, row in sorted(variables.items()):
                if row.get("location") is None or name in RUNTIME_KEYS:
                    continue
                present = not row.get("absent")
                tally.add(
                    "presence",
                    f"{where}.{name}",
                    present,
                    name in theirs["values"],
                    present == (name in theirs["values"]),
                )
            for name, got in sorted(theirs["values"].items()):
                if name not in variables:
                    continue
                ours_value = variables[name].get("value")
                tally.add(
                    "value", f"{where}.{name}", ours_value, got["value"], ours_value == got["value"]
                )
                ours_type = _type_of(ours_value)
                their_type = _JSON_TYPE.get(got["type"], got["type"])
                tally.add("type", f"{where}.{name}", ours_type, their_type, ours_type == their_type)
        ours_agents: dict[str, list[str]] = {}
        for name, row in variables.items():
            for agent in row.get("agents") or []:
                ours_agents.setdefault(agent, []).append(name)
        for agent, names in sorted((theirs.get("agents_variables") or {}).items()):
            want = sorted(set(names) & set(variables))
            have = sorted(set(ours_agents.get(agent, [])))
            tally.add("agent_variables", f"{where}.{agent}", have, want, have == want)

    if "agents" in theirs:
        _, prompt = run_json(["prompt", *base, "--format", "json", "--reveal", "--raw"])
        previews = {a.get("agent"): a for a in (prompt.get("agents") or [])}
        ours_list = sorted(previews) if isinstance(prompt, Mapping) and "agents" in prompt else None
        tally.add(
            "agents",
            where,
            ours_list,
            sorted(theirs["agents"]),
            ours_list == sorted(theirs["agents"]),
        )
        for agent, text in sorted((theirs.get("prompts") or {}).items()):
            ours_text = (previews.get(agent) or {}).get("text")
            tally.add("prompt", f"{where}.{agent}", ours_text, text, (ours_text or "") == text)

    for source, target in sorted((theirs.get("routes") or {}).items()):
        _, routes = run_json(["routes", *base, "--from", source, "--format", "json"])
        ours_target = _winner(routes)
        # a routing call that raises fails the run: both sides' reasons are shown, and a
        # failure agrees with a failure
        fails = _fails(ours_target) and isinstance(target, dict) and "error" in target
        tally.add(
            "route", f"{where} from {source}", ours_target, target, fails or ours_target == target
        )


def _winner(routes: Any) -> Any:
    if not isinstance(routes, Mapping):
        return routes
    decisions = routes.get("decisions") or []
    if not decisions:
        return None
    first = decisions[0]
    if first.get("failed"):
        return {"failed": first.get("reason")}
    winner = first.get("winner")
    if first.get("ended") and winner is None:
        return "terminate"
    return winner


def _fails(target: Any) -> bool:
    return isinstance(target, dict) and "failed" in target


def _norm_auth(field_name: str, value: Any) -> Any:
    if field_name == "writer_ids":
        return sorted(value or [])
    return value


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    return _JSON_TYPE.get(type(value).__name__, type(value).__name__)
