"""Generated Mozaiks workspaces (hypothesis) for the differential suite.

Each draw is a small workspace of one or two workflows that varies what decides the runtime's
answers: source types (config, state, data_reference with seed documents, runtime, file,
computed, external, data_entity), the environment, state triggers, routing keys and their
rules, authority metadata, the agents file (present, absent, repeated variables) and the
orchestrator's strict fields. ``write`` lays a draw out as real files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

AGENT_NAMES = ("PlannerAgent", "ReviewAgent", "WriterAgent")
#: names that exercise the runtime's name-based authority inference: routing suffixes,
#: quality parts, immutable parts and exact names, and plain names
VAR_NAMES = (
    "plan_complete",
    "review_decision",
    "route_selected",
    "quality_gate",
    "api_key",
    "tenant_user_id",
    "status",
    "draft",
    "retries",
    "notes",
    "approved",
    "phase",
    "summary_text",
    "score",
    # a name the run's identity also sets (app_id, seeded over what the declaration loaded)
    "app_id",
)
TYPES = ("string", "integer", "boolean", "object", "array")
SCALARS: dict[str, Any] = {
    "string": st.sampled_from(["alpha", "beta", "", "3", "yes"]),
    "integer": st.sampled_from([0, 1, 3, "3", "x"]),
    "boolean": st.sampled_from([True, False, "true", "no"]),
    "object": st.sampled_from([{}, {"k": 1}]),
    "array": st.sampled_from([[], [1, 2]]),
}


@dataclass
class Draw:
    files: dict[str, Any] = field(default_factory=dict)  # path -> YAML/JSON data or text
    env: dict[str, str] = field(default_factory=dict)
    runtime_context: dict[str, Any] = field(default_factory=dict)
    app_id: str | None = None


def write(draw: Draw, root: Path) -> Path:
    for rel, data in draw.files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        elif rel.endswith(".json"):
            path.write_text(json.dumps(data), encoding="utf-8")
        else:
            path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return root


@st.composite
def _source(draw: Any, name: str, vtype: str, agents: list[str], out: Draw, wf: str) -> dict:
    kind = draw(
        st.sampled_from(
            [
                "config",
                "config",
                "state",
                "state",
                "data_reference",
                "runtime",
                "file",
                "computed",
                "external",
                "data_entity",
            ]
        )
    )
    source: dict[str, Any] = {"type": kind}
    if kind == "config":
        if draw(st.booleans()):
            env_var = name.upper()
            source["env_var"] = env_var
            if draw(st.booleans()):
                value = draw(SCALARS[vtype]) if vtype in ("string", "integer", "boolean") else "x"
                out.env[env_var] = str(value).lower() if isinstance(value, bool) else str(value)
        if draw(st.booleans()):
            source["default"] = draw(SCALARS[vtype])
        if draw(st.integers(0, 4)) == 0:
            source["required"] = True
    elif kind == "state":
        if draw(st.booleans()):
            source["default"] = draw(SCALARS[vtype])
        triggers = []
        for _ in range(draw(st.integers(0, 2))):
            ttype = draw(st.sampled_from(["agent_text", "agent_text", "ui_response", "user_text"]))
            trig: dict[str, Any] = {"type": ttype}
            if ttype == "agent_text":
                trig["agent"] = draw(st.sampled_from(agents))
            if ttype in ("agent_text", "user_text"):
                how = draw(st.sampled_from(["equals", "contains", "regex"]))
                trig["match"] = {how: "DONE" if how != "regex" else r"STATUS: (\w+)"}
            if ttype == "ui_response":
                trig["tool"] = "confirm_tool"
                trig["response_key"] = "answer"
            triggers.append(trig)
        if triggers:
            source["triggers"] = triggers
    elif kind == "data_reference":
        source["database_name"] = "appdb"
        source["collection"] = f"{name}_docs"
        if draw(st.booleans()):
            source["query_template"] = {"app_id": "{{runtime.app_id}}"}
        if draw(st.booleans()):
            source["fields"] = ["value"]
        docs = draw(
            st.lists(
                st.fixed_dictionaries(
                    {"app_id": st.sampled_from(["app-1", "app-2"]), "value": SCALARS[vtype]}
                ),
                max_size=3,
            )
        )
        if docs:
            out.files[f"seed/appdb/{name}_docs.json"] = docs
        if draw(st.booleans()):
            source["default"] = draw(SCALARS[vtype])
    elif kind == "runtime":
        source["required"] = draw(st.booleans())
        if draw(st.booleans()):
            out.runtime_context[name] = draw(SCALARS[vtype])
    elif kind == "file":
        fmt = draw(st.sampled_from(["json", "yaml", "text"]))
        source["path"] = f"data/{wf}_{name}.{fmt if fmt != 'text' else 'txt'}"
        source["format"] = fmt
        content = draw(st.sampled_from(["value", "value", "none", "broken"]))
        if content == "value":
            value = draw(SCALARS[vtype])
            out.files[source["path"]] = (
                json.dumps(value)
                if fmt == "json"
                else yaml.safe_dump(value)
                if fmt == "yaml"
                else str(value)
            )
        elif content == "broken" and fmt != "text":
            # what fails to parse: the loader catches it (None), a default is not used
            out.files[source["path"]] = "{broken" if fmt == "json" else "a: [1\n"
        if draw(st.booleans()):
            source["default"] = draw(SCALARS[vtype])
        if draw(st.integers(0, 5)) == 0:
            source["required"] = True
    elif kind == "data_entity":
        if draw(st.booleans()):
            source["database_name"] = "appdb"
        if draw(st.booleans()):
            source["collection"] = f"{name}_entities"
    return source


@st.composite
def workflows(draw: Any) -> Draw:
    """A workspace of one or two workflows."""
    out = Draw()
    if draw(st.booleans()):
        out.app_id = draw(st.sampled_from(["app-1", "app-2"]))
    names = draw(
        st.lists(st.sampled_from(["Alpha", "Beta", "Gamma"]), min_size=1, max_size=2, unique=True)
    )
    for wf in names:
        agents = draw(st.lists(st.sampled_from(AGENT_NAMES), min_size=1, max_size=3, unique=True))
        folder = f"workflows/{wf}"
        orch: dict[str, Any] = {
            "schema_version": "mozaiks.orchestrator.v1",
            "workflow_name": wf,
            "workflow_startup_mode": "AgentDriven",
            "initial_agent": agents[0],
        }
        flaw = draw(st.integers(0, 30))
        if flaw == 0:
            del orch["schema_version"]
        elif flaw == 1:
            orch["workflow_name"] = wf + "X"
        elif flaw == 2:
            orch["workflow_startup_mode"] = "Sometimes"
        elif flaw == 3:
            orch["unknown_field"] = True
        if draw(st.integers(0, 40)) or flaw:  # now and then a folder without orchestrator.yaml
            out.files[f"{folder}/orchestrator.yaml"] = orch
        if draw(st.integers(0, 8)):
            out.files[f"{folder}/agents.yaml"] = {
                "agents": [
                    {
                        "name": a,
                        "system_message": f"You are {a}.",
                        "structured_outputs_required": False,
                    }
                    for a in agents
                ]
            }

        var_names = draw(st.lists(st.sampled_from(VAR_NAMES), min_size=1, max_size=5, unique=True))
        definitions: dict[str, Any] = {}
        for name in var_names:
            vtype = draw(st.sampled_from(TYPES))
            spec: dict[str, Any] = {"type": vtype}
            spec["source"] = draw(_source(name, vtype, agents, out, wf))
            if draw(st.integers(0, 5)) == 0:
                spec["authority_class"] = draw(
                    st.sampled_from(
                        [
                            "closed_writer_routing_state",
                            "mutable_workflow_state",
                            "derived_information",
                            "tool_only_information",
                            "model_visible_information",
                        ]
                    )
                )
            if draw(st.integers(0, 5)) == 0:
                spec["writer_ids"] = draw(
                    st.lists(
                        st.sampled_from(
                            [
                                "deterministic_tool",
                                "agent_text",
                                "structured_output",
                                "caller_input",
                            ]
                        ),
                        max_size=2,
                    )
                )
            if draw(st.integers(0, 6)) == 0:
                spec["routing"] = draw(st.booleans())
            if draw(st.integers(0, 6)) == 0:
                spec["persisted"] = draw(st.booleans())
            definitions[name] = spec
        views: dict[str, Any] = {}
        for agent in agents:
            chosen = draw(st.lists(st.sampled_from(var_names), max_size=4))
            views[agent] = {"variables": chosen}
        out.files[f"{folder}/context_variables.yaml"] = {
            "definitions": definitions,
            "agents": views,
        }

        rules: list[dict[str, Any]] = []
        for agent in agents:
            mine: list[dict[str, Any]] = []
            for _ in range(draw(st.integers(0, 2))):
                key = draw(st.sampled_from(var_names))
                target = draw(st.sampled_from([*agents, "user", "terminate"]))
                if draw(st.booleans()):
                    value = definitions[key].get("source", {}).get("default", True)
                    rule = {
                        "condition_type": "context_equals",
                        "condition_key": key,
                        "condition_value": draw(st.sampled_from([value, True, "DONE", 3])),
                    }
                else:
                    op = draw(st.sampled_from(["== True", "== 'DONE'", "", "is None", "> 2"]))
                    rule = {
                        "condition_type": "context_expression",
                        "context_expression": f"${{{key}}} {op}".strip(),
                    }
                mine.append(
                    {
                        "source_agent": agent,
                        "target_agent": target,
                        "transition_type": "condition",
                        **rule,
                    }
                )
            # the fallback anywhere among the agent's rules: mozaiks 0.2.0 tries every condition
            # rule before it whatever the file order (the shipped AppGenerator writes one first)
            at = draw(st.integers(0, len(mine)))
            mine.insert(
                at,
                {
                    "source_agent": agent,
                    "transition_type": "after_turn",
                    "target_agent": draw(st.sampled_from([*agents, "user", "terminate"])),
                },
            )
            rules.extend(mine)
        out.files[f"{folder}/transition_graph.yaml"] = {"transition_rules": rules}
        draw(_registries(wf, definitions, out))
    return out


@st.composite
def _registries(draw: Any, wf: str, definitions: dict[str, Any], out: Draw) -> None:
    """Now and then a build-context registry for ``wf`` and its root named, mostly with the
    provider turned on: a valid
    one, one the runtime's validator refuses, one projecting an undeclared or wrong-typed
    value; with or without a ``type: build_context`` variable to receive it."""
    if draw(st.integers(0, 3)):
        return
    if draw(st.integers(0, 3)):
        out.env["MOZAIKS_LAUNCH_CONTEXT_PROVIDER"] = (
            "mozaiksai.core.session.build_context:merge_build_context"
        )
    # without the provider, the run's context hydration still reads the named root
    out.env["MOZAIKS_BUILD_CONTEXT_PATH"] = "build_context"
    target = draw(st.sampled_from(["packs_note", "packs_list"]))
    if draw(st.booleans()):
        definitions[target] = {
            "type": "string" if target == "packs_note" else "array",
            "persisted": False,
            "source": {"type": "build_context"},
        }
        out.files[f"workflows/{wf}/context_variables.yaml"]["definitions"] = definitions
    flaw = draw(st.sampled_from(["none", "none", "no_assets", "undeclared", "wrong_type", "yaml"]))
    registry: dict[str, Any] = {
        "context_id": f"{wf.lower()}_registry",
        "description": "generated",
        "assets": [],
        "applies_to_workflows": [wf],
        "values": {"note": "from the registry", "items": ["a", "b"]},
        "projections": {
            "context_variables": {target: "note" if target == "packs_note" else "items"}
        },
    }
    if flaw == "no_assets":
        del registry["assets"]
    elif flaw == "undeclared":
        registry["projections"]["context_variables"] = {"never_declared": "note"}
    elif flaw == "wrong_type":
        registry["projections"]["context_variables"] = {
            target: "items" if target == "packs_note" else "note"
        }
    path = f"build_context/{wf.lower()}_registry/context.yaml"
    out.files[path] = "projections: [unclosed\n" if flaw == "yaml" else registry
