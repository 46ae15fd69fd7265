"""The published Mozaiks runtime's own answers, for the differential suite.

Run by the separate virtual environment that holds ``mozaiks==0.2.0`` (never by flowctx's): it
reads a JSON list of requests on stdin and writes one JSON list of answers on stdout. Nothing
here models the runtime: each answer is what one of its functions returned or raised.

- ``{"kind": "workspace", "root", "env", "runtime_context", "app_id", ...}``: every stage the
  runtime goes through before an agent speaks, per workflow, in its order (mozaiks 0.2.0,
  ``mozaiksai/core/workflow/orchestration_patterns.py``): discovery
  (``core/workflow/paths.py`` ``discover_workflow_paths``), the workflow manager's strict
  files and contract validation (``core/workflow/workflow_manager.py``
  ``UnifiedWorkflowManager._load_single_workflow``), the authority policy
  (``core/workflow/context/authority.py`` ``build_context_authority_policy``), the launch
  context provider (``core/session/launcher.py`` ``apply_launch_context_provider``), context
  load (``core/workflow/context/variables.py`` ``_load_context_async``, its Mongo client an
  in-memory stand-in fed from ``seed/``), agents (``core/workflow/agents/factory.py``: the
  agent list and the prompt block it appends with ``apply_context_exposures``; no model is
  called) and graph compile (``core/workflow/execution/network_graph.py``
  ``compile_transition_rules_to_graph``), then the route from every source agent
  (``resolve_next_agent``, AG2's own ``WorkflowAdapter``).
- ``{"kind": "routes", "graphs": [{"rules", "agents", "initial", "max_turns", "hops",
  "traces"}, ...]}``: per graph, ``compile_transition_rules_to_graph`` (or the error it raises);
  each hop ``{"source", "context", "tools"}`` is the next speaker after one turn: with no tool
  call ``resolve_next_agent`` itself, with tool calls AG2's ``WorkflowAdapter.fold`` over the
  packet its own ``_resolve_routing`` builds from the calls in order; each trace
  ``{"start", "context", "turns": [{"set", "tools"}...]}`` folds one packet per turn from the
  expected speaker through the graph the network runner compiles (its initiator's bootstrap
  dispatch first, ``max_turns`` counted as ``on_accepted`` counts it), until the channel closes
  or the turns run out.
- ``{"kind": "expressions", "cases": [[text, context], ...]}``: ``_MozaiksExpression``
  (``core/adapters/ag2_transition_conditions.py``) after the graph compiler's
  ``_optional_text`` strip.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import io
import json
import logging
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any

# Each case sees only its own variables, over what a process needs to run; the runtime's
# logging module makes a logs/ folder at import, kept out of the package; nothing leaves the
# machine (a Mongo client it might build points at a closed loopback port) and no model is
# ever called (no agent is created; no key is set).
_BASE_ENV = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
_BASE_ENV["LOGS_BASE_DIR"] = tempfile.mkdtemp(prefix="mozaiks-logs-")
atexit.register(shutil.rmtree, _BASE_ENV["LOGS_BASE_DIR"], True)
_BASE_ENV["MONGO_URI"] = "mongodb://127.0.0.1:9/none"
os.environ.clear()
os.environ.update(_BASE_ENV)


# -- an in-memory stand-in for the runtime's Mongo client (motor's async API) ---------------


def _get_path(doc: Any, dotted: str) -> tuple[bool, Any]:
    cur = doc
    for part in dotted.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return False, None
    return True, cur


def _matches(doc: dict[str, Any], query: dict[str, Any]) -> bool:
    for key, want in (query or {}).items():
        found, have = _get_path(doc, key)
        if isinstance(have, list) and not isinstance(want, list):
            if want not in have:
                return False
        elif not found:
            if want is not None:
                return False
        elif have != want:
            return False
    return True


class _Cursor:
    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self._docs = docs

    def sort(self, key: str, direction: int) -> _Cursor:
        # seed order is insertion order: the last document is the newest (_id descending)
        if key == "_id" and direction == -1:
            self._docs = list(reversed(self._docs))
        return self

    def limit(self, n: int) -> _Cursor:
        self._docs = self._docs[:n] if n else self._docs
        return self

    async def to_list(self, length: int | None = None) -> list[dict[str, Any]]:
        return list(self._docs if length is None else self._docs[:length])


class _Collection:
    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self._docs = docs

    def find(self, query: Any = None, projection: Any = None) -> _Cursor:
        hits = [d for d in self._docs if _matches(d, query or {})]
        if projection:
            keep = [k for k, v in projection.items() if v]
            hits = [{"_id": d.get("_id"), **{k: d[k] for k in keep if k in d}} for d in hits]
        return _Cursor([dict(d) for d in hits])

    async def find_one(self, query: Any = None, projection: Any = None) -> Any:
        docs = await self.find(query, projection).limit(1).to_list(1)
        return docs[0] if docs else None


class _Database:
    def __init__(self, collections: dict[str, list[dict[str, Any]]]) -> None:
        self._collections = collections

    def __getitem__(self, name: str) -> _Collection:
        return _Collection(self._collections.get(name, []))

    async def list_collection_names(self) -> list[str]:
        return sorted(self._collections)


class SeedClient:
    def __init__(self, root: Path) -> None:
        self._dbs: dict[str, dict[str, list[dict[str, Any]]]] = {}
        seed = root / "seed"
        if seed.is_dir():
            for db_dir in sorted(p for p in seed.iterdir() if p.is_dir()):
                for f in sorted(db_dir.glob("*.json")):
                    try:
                        data = json.loads(f.read_text(encoding="utf-8"))
                    except (OSError, ValueError):
                        continue
                    if isinstance(data, dict):
                        data = [data]
                    if isinstance(data, list):
                        docs = [d for d in data if isinstance(d, dict)]
                        for i, d in enumerate(docs):
                            d.setdefault("_id", f"seed-{i:06d}")
                        self._dbs.setdefault(db_dir.name, {})[f.stem] = docs

    def __getitem__(self, name: str) -> _Database:
        return _Database(self._dbs.get(name, {}))

    async def list_database_names(self) -> list[str]:
        return sorted(self._dbs)


# -- plain JSON for any value the runtime produced ------------------------------------------


def plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return (
            value if value == value and value not in (float("inf"), float("-inf")) else repr(value)
        )
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return {"$repr": repr(value), "$type": type(value).__name__}


def typed(value: Any) -> dict[str, Any]:
    return {"type": type(value).__name__, "value": plain(value)}


# -- the stages -----------------------------------------------------------------------------


def _set_env(env: dict[str, str], root: Path) -> None:
    os.environ.clear()
    os.environ.update(_BASE_ENV)
    os.environ.update({k: str(v) for k, v in env.items()})
    os.environ["MOZAIKS_WORKFLOWS_PATH"] = str(root / "workflows")


def _manager(root: Path) -> Any:
    from mozaiksai.core.workflow import workflow_manager as wm

    wm.initialize_workflows(str(root / "workflows"))
    return wm.get_workflow_manager()


def _fail(stage: str, exc: BaseException) -> dict[str, Any]:
    return {"stage": stage, "error": f"{type(exc).__name__}: {exc}"}


def _agent_names(config: dict[str, Any]) -> list[str]:
    agents = config.get("agents", {})
    if isinstance(agents, dict) and "agents" in agents:
        agents = agents["agents"]
    names: list[str] = []
    if isinstance(agents, list):
        for item in agents:
            if (
                isinstance(item, dict)
                and isinstance(item.get("name"), str)
                and item["name"].strip()
            ):
                names.append(item["name"].strip())
    elif isinstance(agents, dict):
        names = [str(n) for n in agents]
    return names


async def _workflow(name: str, manager: Any, request: dict[str, Any], root: Path) -> dict[str, Any]:
    from mozaiksai.core.data.persistence.persistence_manager import SERVER_OWNED_SESSION_FIELDS
    from mozaiksai.core.session.launcher import apply_launch_context_provider
    from mozaiksai.core.workflow.context.authority import build_context_authority_policy
    from mozaiksai.core.workflow.context.schema import load_context_variables_config
    from mozaiksai.core.workflow.context.variables import (
        _load_context_async,
        _task_batch_context_keys,
    )
    from mozaiksai.core.workflow.execution.network_graph import (
        compile_transition_rules_to_graph,
        resolve_next_agent,
    )
    from mozaiksai.core.workflow.execution.run_bootstrap import merge_persisted_extra_context

    out: dict[str, Any] = {"stage": "ok", "error": None}
    info = manager._workflows.get(name.lower())
    if info is None or info.status == "error":
        out.update(stage="workflow_manager", error=(info.error if info else "not loaded"))
        return out
    config = manager.get_config(name) or {}
    section = config.get("context_variables") or {}
    rules = (config.get("transition_graph") or {}).get("transition_rules") or []

    # authority policy
    try:
        plan = load_context_variables_config(section)
        policy = build_context_authority_policy(
            workflow_name=name,
            definitions=plan.definitions or {},
            transition_rules=rules,
            task_batch_context_keys=_task_batch_context_keys(name),
        )
    except Exception as exc:
        out.update(_fail("authority", exc))
        return out
    out["authority"] = {
        key: {
            "authority_class": str(a.authority_class.value),
            "routing": a.routing,
            "persisted": a.persisted,
            "model_visible": a.model_visible,
            "tool_visible": a.tool_visible,
            "authorization": a.authorization,
            "writer_ids": sorted(str(w) for w in a.writer_ids),
        }
        for key, a in policy.variables.items()
    }
    out["agents_variables"] = {
        agent: list(getattr(view, "variables", []) or [])
        for agent, view in (plan.agents or {}).items()
    }

    # launch: the context provider (build-context registries) when the environment names one;
    # what it returns is what the launcher persists as the chat session's extra context
    try:
        launch_ctx = await apply_launch_context_provider(
            workflow_id=name,
            context_variables={},
            app_id=request.get("app_id") or "",
            user_id=request.get("user_id") or "anonymous",
            trigger_source="differential",
        )
    except Exception as exc:
        out.update(_fail("launch", exc))
        return out

    # context load, as run_workflow_orchestration calls it: the host's server-owned session
    # fields (the case's runtime context) and the run's identity, then the persisted launch
    # context hydrated over the declared defaults (merge_persisted_extra_context)
    runtime_context = {**(request.get("runtime_context") or {}), "workflow_name": name}
    for key in ("app_id", "user_id", "chat_id"):
        if request.get(key):
            runtime_context[key] = request[key]
    try:
        context = await _load_context_async(
            name, request.get("app_id"), runtime_context=runtime_context
        )
        merge_persisted_extra_context(
            context, {k: v for k, v in launch_ctx.items() if k not in SERVER_OWNED_SESSION_FIELDS}
        )
        # then the run's identity is seeded over whatever the declarations loaded
        # (run_workflow_orchestration, step 5); the lifecycle tools' before_chat hooks are
        # workflow code and are not run here
        for key in ("workflow_name", "app_id", "chat_id", "user_id"):
            if key in runtime_context:
                context.set(key, runtime_context[key])
        values = context.snapshot() if hasattr(context, "snapshot") else dict(context.to_dict())
    except Exception as exc:
        out.update(_fail("context", exc))
        return out
    out["values"] = {k: typed(v) for k, v in values.items()}

    # agents: the runtime creates none without an agents list ("No agents defined ...")
    agents = _agent_names(config)
    out["agents"] = agents
    out["prompts"] = {}
    for agent in agents:
        variables = list(getattr((plan.agents or {}).get(agent), "variables", []) or [])
        out["prompts"][agent] = await _prompt_added(name, config, agent, variables, values, root)
    if not agents:
        out.update(stage="agents", error=f"RuntimeError: No agents defined for workflow '{name}'")
        return out

    # graph compile, as the network runner does it (every agent by name, the policy applied)
    initial = str(config.get("initial_agent") or "").strip() or agents[0]
    ids = {a: a for a in agents}
    try:
        graph = compile_transition_rules_to_graph(
            rules,
            initial_agent_name=initial,
            agent_id_by_name=ids,
            context_authority_policy=policy,
        )
    except Exception as exc:
        out.update(_fail("graph", exc))
        return out

    routes: dict[str, Any] = {}
    sources = sorted(
        {str(r.get("source_agent") or "") for r in rules if isinstance(r, dict)} - {""}
    )
    names_by_id = {**{a: a for a in agents}, "user": "user"}
    for source in sources:
        try:
            routes[source] = resolve_next_agent(
                graph,
                current_agent_name=source,
                context_variables=values,
                agent_name_by_id=names_by_id,
                participant_order=["user", *agents],
            )
        except Exception as exc:
            routes[source] = {"error": f"{type(exc).__name__}: {exc}"}
    out["routes"] = routes
    return out


def _agent_config(config: dict[str, Any], agent: str) -> dict[str, Any]:
    agents = config.get("agents", {})
    if isinstance(agents, dict) and "agents" in agents:
        agents = agents["agents"]
    if isinstance(agents, list):
        for item in agents:
            if isinstance(item, dict) and str(item.get("name") or "").strip() == agent:
                return item
    return {}


async def _prompt_added(
    name: str,
    config: dict[str, Any],
    agent: str,
    variables: list[str],
    values: dict[str, Any],
    root: Path,
) -> Any:
    """What the runtime adds to an agent's system message before each model call: the agent's
    variables (apply_context_exposures) and the workflow's prompt middleware for the agent
    (MozaiksPromptMiddleware._run_prompt_middleware, with the functions create_agents loads),
    as the text after the agent's own base message; the whole message when something was
    inserted inside it."""
    from mozaiksai.core.workflow.agents.factory import _compose_prompt_sections
    from mozaiksai.core.workflow.execution.middleware import (
        MozaiksPromptMiddleware,
        _resolve_import,
        load_prompt_middleware_entries,
    )

    agent_config = _agent_config(config, agent)
    sections = agent_config.get("prompt_sections") or agent_config.get("prompt_sections_custom")
    if sections:
        base = _compose_prompt_sections(sections)
    else:
        base = agent_config.get("system_message", "You are a helpful AI assistant.")
    functions = []
    workflow_path = root / "workflows" / name
    for entry in load_prompt_middleware_entries(name, base_path=str(workflow_path.parent)):
        if isinstance(entry, dict) and entry.get("agent") in (agent, "all"):
            # the runtime's own middleware only: a workflow's middleware is its own code,
            # which flowctx never runs (listed as a deliberate difference)
            if not str(entry.get("function") or "").startswith("mozaiksai."):
                continue
            fn, _ = _resolve_import(name, entry.get("filename"), entry["function"], workflow_path)
            if fn:
                functions.append(fn)
    if not functions and not variables:
        return ""
    holder = SimpleNamespace(
        _middleware_functions=functions,
        _agent_name=agent,
        _base_system_message=base,
        _context_bridge=dict(values),
        _context_exposures=[],
        _context_variables=variables,
    )
    final = await MozaiksPromptMiddleware._run_prompt_middleware(
        holder, SimpleNamespace(variables={})
    )
    final = final or ""
    if final.startswith(base):
        return final[len(base) :].strip()
    return {"whole_message": final}


async def workspace(request: dict[str, Any]) -> dict[str, Any]:
    from mozaiksai.core import core_config
    from mozaiksai.core.workflow.paths import discover_workflow_paths

    root = Path(request["root"]).resolve()
    _set_env(request.get("env") or {}, root)
    os.chdir(root)  # file sources and the fallbacks file resolve against the working folder
    client = SeedClient(root)
    core_config.get_mongo_client = lambda: client  # type: ignore[assignment]
    core_config._mongo_client = client  # type: ignore[assignment]
    answer: dict[str, Any] = {"discovery": sorted(discover_workflow_paths(root / "workflows"))}
    manager = _manager(root)
    answer["workflows"] = {}
    for name in answer["discovery"]:
        if request.get("workflows") and name not in request["workflows"]:
            continue
        try:
            answer["workflows"][name] = await _workflow(name, manager, request, root)
        except Exception as exc:  # a harness fault, reported as such, never as a verdict
            answer["workflows"][name] = {"stage": "harness", "error": traceback.format_exc(limit=3)}
            del exc
    return answer


def expressions(request: dict[str, Any]) -> list[dict[str, Any]]:
    from mozaiksai.core.adapters.ag2_transition_conditions import _MozaiksExpression
    from mozaiksai.core.workflow.execution.network_graph import _optional_text

    out: list[dict[str, Any]] = []
    for text, ctx in request["cases"]:
        stripped = _optional_text(text)
        if stripped is None:
            out.append({"ok": False, "stage": "compile", "value": None, "error": "no expression"})
            continue
        try:
            expr = _MozaiksExpression(stripped)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            out.append(
                {
                    "ok": False,
                    "stage": "compile",
                    "value": None,
                    "error": f"{type(exc).__name__}: {exc}",
                }
            )
            continue
        try:
            value = expr.evaluate(ctx)
        except Exception as exc:
            out.append(
                {
                    "ok": False,
                    "stage": "eval",
                    "value": None,
                    "error": f"{type(exc).__name__}: {exc}",
                }
            )
            continue
        out.append({"ok": True, "stage": "eval", "value": value, "error": None})
    return out


def _speaker(agent_id: str | None, names_by_id: dict[str, str]) -> str:
    from mozaiksai.core.workflow.execution.network_graph import _route_name

    return str(_route_name(agent_id, names_by_id))


def _tool_packet(
    state: Any, graph: Any, sender: str, tools: list[str], updates: dict[str, Any]
) -> Any:
    from ag2.events import ToolCallEvent
    from ag2.network import EV_PACKET, Envelope
    from ag2.network.adapters.workflow import _resolve_routing

    routing = _resolve_routing([ToolCallEvent(name=t) for t in tools], graph, {})
    return Envelope(
        channel_id="differential",
        sender_id=sender,
        audience=None,
        event_type=EV_PACKET,
        event_data={
            "routing": routing,
            "context_updates": {"set": dict(updates), "delete": []},
            "body": "",
        },
    )


def _hop(graph: Any, hop: dict[str, Any], agents: list[str]) -> Any:
    from ag2.network import WorkflowAdapter, WorkflowState
    from mozaiksai.core.workflow.execution.network_graph import _agent_id, resolve_next_agent

    names_by_id = {**{a: a for a in agents}, "user": "user"}
    if not hop.get("tools"):
        return resolve_next_agent(
            graph,
            current_agent_name=hop["source"],
            context_variables=hop["context"],
            agent_name_by_id=names_by_id,
            participant_order=["user", *agents],
        )
    sender = _agent_id(hop["source"], {**{a: a for a in agents}, "user": "user"})
    state = WorkflowState(
        participant_order=["user", *agents],
        expected_next_speaker=sender,
        last_speaker_id=sender,
        turn_count=1,
        creator_id="user",
        graph_data=graph.to_dict(),
        context_vars={},
    )
    packet = _tool_packet(state, graph, sender, hop["tools"], hop["context"])
    return _speaker(WorkflowAdapter().fold(packet, state).expected_next_speaker, names_by_id)


def _trace(spec: dict[str, Any], trace: dict[str, Any]) -> dict[str, Any]:
    """One run through the graph the network runner compiles, turn by turn."""
    from ag2.network import EV_TEXT, Envelope, TransitionGraph, WorkflowAdapter, WorkflowState
    from mozaiksai.core.adapters.ag2_network_runner import _INITIATOR_NAME, AG2NetworkRunner

    agents = list(spec["agents"])
    ids = {**{a: a for a in agents}, "user": "user", _INITIATOR_NAME: _INITIATOR_NAME}
    names_by_id = {**{a: a for a in agents}, "user": "user"}
    graph = AG2NetworkRunner._compile_graph_with_initiator(
        transition_rules=spec["rules"],
        initial_agent_name=trace["start"],
        agent_id_by_name=ids,
        max_turns=spec.get("max_turns"),
        context_authority_policy=None,
    )
    adapter = WorkflowAdapter()
    state = WorkflowState(
        participant_order=[_INITIATOR_NAME, "user", *agents],
        expected_next_speaker=_INITIATOR_NAME,
        creator_id=_INITIATOR_NAME,
        graph_data=graph.to_dict(),
        context_vars=dict(trace.get("context") or {}),
    )
    seed = Envelope(
        channel_id="differential",
        sender_id=_INITIATOR_NAME,
        audience=None,
        event_type=EV_TEXT,
        event_data={"text": "start"},
    )
    state = adapter.fold(seed, state)
    steps: list[dict[str, Any]] = []
    graph_obj = TransitionGraph.loads(state.graph_data)
    for turn in trace["turns"]:
        speaker = state.expected_next_speaker
        if speaker is None:
            break
        packet = _tool_packet(
            state, graph_obj, speaker, turn.get("tools") or [], turn.get("set") or {}
        )
        try:
            state = adapter.fold(packet, state)
        except Exception as exc:
            steps.append(
                {"source": _speaker(speaker, names_by_id), "error": f"{type(exc).__name__}: {exc}"}
            )
            return {"steps": steps, "closed": "error"}
        step: dict[str, Any] = {
            "source": _speaker(speaker, names_by_id),
            "next": _speaker(state.expected_next_speaker, names_by_id),
        }
        steps.append(step)
        if state.expected_next_speaker is None:
            return {"steps": steps, "closed": state.pending_close_reason or "workflow_terminated"}
        if graph_obj.max_turns is not None and state.turn_count >= graph_obj.max_turns:
            return {"steps": steps, "closed": "max_turns"}
    return {"steps": steps, "closed": None}


def routes(request: dict[str, Any]) -> list[dict[str, Any]]:
    from mozaiksai.core.workflow.execution.network_graph import compile_transition_rules_to_graph

    out: list[dict[str, Any]] = []
    for spec in request["graphs"]:
        agents = list(spec["agents"])
        try:
            graph = compile_transition_rules_to_graph(
                spec["rules"],
                initial_agent_name=spec.get("initial") or (agents[0] if agents else "user"),
                agent_id_by_name={a: a for a in agents},
                max_turns=spec.get("max_turns"),
            )
        except Exception as exc:
            out.append({"compile": f"{type(exc).__name__}: {exc}"})
            continue
        hops: list[Any] = []
        for hop in spec.get("hops", []):
            try:
                hops.append(_hop(graph, hop, agents))
            except Exception as exc:
                hops.append({"error": f"{type(exc).__name__}: {exc}"})
        traces: list[Any] = []
        for trace in spec.get("traces", []):
            try:
                traces.append(_trace(spec, trace))
            except Exception:
                traces.append({"harness_error": traceback.format_exc(limit=3)})
        out.append({"compile": None, "hops": hops, "traces": traces})
    return out


def main() -> None:
    requests = json.loads(sys.stdin.read())
    real_stdout = sys.stdout
    answers: list[Any] = []
    logging.disable(logging.CRITICAL)
    with contextlib.redirect_stdout(io.StringIO()):
        loop = asyncio.new_event_loop()
        for request in requests:
            try:
                if request["kind"] == "expressions":
                    answers.append(expressions(request))
                elif request["kind"] == "routes":
                    answers.append(routes(request))
                else:
                    answers.append(loop.run_until_complete(workspace(request)))
            except Exception:
                answers.append({"harness_error": traceback.format_exc(limit=5)})
    real_stdout.write(json.dumps(answers))
    real_stdout.flush()


if __name__ == "__main__":
    main()
