"""Flow agents as 5.51.3 loads them: the agent, its steps and its paths, resolved from the files.

``AIEngine`` hands ``FlowAgentType`` rows of three entities; this module builds the same rows
(with where each value is written) from the MetadataSync records. A step belongs to the agent
its ``AgentID`` resolves to, a path to the step its ``OriginStepID`` resolves to, wherever
either is written (nested under its step, or at agent level with both ends looked up). Rows
keep the order the files give them: the database's order, which flowctx cannot know.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from flowctx_core.memberjunction.metadata.records import (
    AGENT_ACTIONS,
    AGENTS,
    PATHS,
    STEPS,
    Record,
)
from flowctx_core.memberjunction.metadata.references import UNRESOLVED, ExternalRef, Resolver
from flowctx_core.memberjunction.metadata.workspace import Metadata
from flowctx_core.model.matrix import Loc

FLOW_TYPE = "flow"
#: the agent types' ids as MemberJunction's own metadata (metadata/agent-types) fixes them, for
#: a TypeID written as the id rather than looked up by name
KNOWN_TYPE_IDS = {
    "4f6a189b-c068-4736-9f23-3ff540b40fdd": "Flow",
    "f7926101-5099-4fa5-836a-479d9707c818": "Loop",
}


def _str(value: Any) -> str | None:
    if value is None or value is UNRESOLVED:
        return None
    if isinstance(value, ExternalRef):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _bit(value: Any) -> bool:
    """A bit column as the database stores what the record says (1/0, true/false)."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    if value is None or value is UNRESOLVED:
        return False
    return bool(value)


def ref_name(value: Any) -> str | None:
    """The name a lookup by name points at (``@lookup:MJ: Actions.Name=X`` → X)."""
    if isinstance(value, ExternalRef):
        n = value.field("Name")
        return str(n) if n is not None else value.text
    return _str(value)


@dataclass(frozen=True)
class Step:
    id: str
    name: str
    type: str | None
    starting: bool
    status: str
    description: str | None
    action: Any
    prompt: Any
    sub_agent: Any
    configuration: str | None
    loop_body: str | None
    input_mapping: str | None
    output_mapping: str | None
    order: int
    loc: Loc
    locs: dict[str, Loc] = field(default_factory=dict, compare=False)
    id_invented: bool = False

    def at(self, name: str) -> Loc:
        return self.locs.get(name, self.loc)

    @property
    def action_name(self) -> str | None:
        return ref_name(self.action)

    @property
    def config(self) -> Any:
        if self.configuration is None:
            return None
        try:
            return json.loads(self.configuration)
        except ValueError:
            return None


@dataclass(frozen=True)
class StepPath:
    id: str
    origin: str | None
    destination: str | None
    condition: str | None
    priority: int
    description: str | None
    order: int
    loc: Loc
    locs: dict[str, Loc] = field(default_factory=dict, compare=False)

    def at(self, name: str) -> Loc:
        return self.locs.get(name, self.loc)


@dataclass(frozen=True)
class Agent:
    id: str
    name: str
    type_name: str | None
    status: str
    status_given: bool
    description: str | None
    steps: tuple[Step, ...]
    paths: tuple[StepPath, ...]
    actions: tuple[str, ...]
    loc: Loc
    locs: dict[str, Loc] = field(default_factory=dict, compare=False)

    @property
    def is_flow(self) -> bool:
        return (self.type_name or "").lower() == FLOW_TYPE

    @cached_property
    def steps_by_id(self) -> dict[str, Step]:
        out: dict[str, Step] = {}
        for s in self.steps:
            out.setdefault(s.id.lower(), s)
        return out

    def step(self, step_id: str | None) -> Step | None:
        return self.steps_by_id.get(step_id.lower()) if step_id else None

    def step_named(self, name: str) -> Step | None:
        for s in self.steps:
            if s.name == name:
                return s
        for s in self.steps:
            if s.name.lower() == name.lower():
                return s
        return None

    @cached_property
    def path_index(self) -> dict[int, int]:
        """Each path's position in the agent's list (its candidate number in views), by the
        path object's identity."""
        return {id(p): i for i, p in enumerate(self.paths)}

    @cached_property
    def paths_by_origin(self) -> dict[str, tuple[StepPath, ...]]:
        out: dict[str, list[StepPath]] = {}
        for p in self.paths:
            if p.origin is not None:
                out.setdefault(p.origin.lower(), []).append(p)
        return {k: tuple(v) for k, v in out.items()}

    def paths_from(self, step_id: str) -> tuple[StepPath, ...]:
        return self.paths_by_origin.get(step_id.lower(), ())

    def name_of(self, step_id: str | None) -> str:
        s = self.step(step_id)
        return s.name if s is not None else str(step_id)

    @property
    def file(self) -> str:
        return self.loc.file


def _type_name(value: Any) -> str | None:
    name = ref_name(value)
    if isinstance(value, str):
        return KNOWN_TYPE_IDS.get(value.strip().lower(), name)
    return name


def _locs(res: Resolver, rec: Record, names: tuple[str, ...]) -> dict[str, Loc]:
    return {n: res.field_loc(rec, n) for n in names}


_STEP_FIELDS = (
    "Name",
    "StepType",
    "StartingStep",
    "Status",
    "ActionID",
    "PromptID",
    "SubAgentID",
    "Configuration",
    "LoopBodyType",
    "ActionInputMapping",
    "ActionOutputMapping",
    "AgentID",
    "Description",
)
_PATH_FIELDS = ("OriginStepID", "DestinationStepID", "Condition", "Priority", "Description")


def _step(res: Resolver, rec: Record) -> Step:
    v = res.value
    name = _str(v(rec, "Name")) or ""
    return Step(
        id=res.record_id(rec),
        name=name,
        type=_str(v(rec, "StepType")),
        starting=_bit(v(rec, "StartingStep")),
        status=_str(v(rec, "Status")) or "Active",
        description=_str(v(rec, "Description")),
        action=v(rec, "ActionID"),
        prompt=v(rec, "PromptID"),
        sub_agent=v(rec, "SubAgentID"),
        configuration=_str(v(rec, "Configuration")),
        loop_body=_str(v(rec, "LoopBodyType")),
        input_mapping=_str(v(rec, "ActionInputMapping")),
        output_mapping=_str(v(rec, "ActionOutputMapping")),
        order=rec.order,
        loc=rec.node.loc,
        locs=_locs(res, rec, _STEP_FIELDS),
        id_invented=res.id_is_invented(rec),
    )


def _priority(res: Resolver, rec: Record) -> int:
    raw = res.value(rec, "Priority")
    if isinstance(raw, bool) or raw is UNRESOLVED or raw is None:
        return 0
    if isinstance(raw, (int, float)):
        return int(raw)
    try:
        return int(str(raw).strip())
    except ValueError:
        res.problem(
            res.field_loc(rec, "Priority"),
            f"Priority: '{raw}' is not an integer (the database refuses it)",
        )
        return 0


def _path(res: Resolver, rec: Record) -> StepPath:
    v = res.value
    cond = v(rec, "Condition")
    return StepPath(
        id=res.record_id(rec),
        origin=_str(v(rec, "OriginStepID")),
        destination=_str(v(rec, "DestinationStepID")),
        condition=_str(cond),
        priority=_priority(res, rec),
        description=_str(v(rec, "Description")),
        order=rec.order,
        loc=rec.node.loc,
        locs=_locs(res, rec, _PATH_FIELDS),
    )


def build_agents(meta: Metadata) -> list[Agent]:
    """Every agent record in the files (nested sub-agents included), in file order."""
    res = meta.resolver
    steps_by_agent: dict[str, list[Step]] = {}
    for rec in res.of_entity(STEPS):
        agent_id = _str(res.value(rec, "AgentID"))
        if agent_id is None:
            if res.source(rec, "AgentID")[0] is None:
                step_name = _str(res.value(rec, "Name")) or "?"
                res.problem(
                    rec.node.loc,
                    f"step '{step_name}' has no AgentID: the foreign key is "
                    'never implied by nesting (\'"AgentID": "@parent:ID"\'), so '
                    "the push cannot save it",
                )
            continue
        steps_by_agent.setdefault(agent_id.lower(), []).append(_step(res, rec))
    all_paths = [_path(res, rec) for rec in res.of_entity(PATHS)]
    for rec, p in zip(res.of_entity(PATHS), all_paths, strict=True):
        if p.origin is None and res.source(rec, "OriginStepID")[0] is None:
            res.problem(
                rec.node.loc,
                "a path has no OriginStepID: the foreign key is never "
                'implied by nesting (\'"OriginStepID": "@parent:ID"\')',
            )
    step_ids = {st.id.lower() for steps in steps_by_agent.values() for st in steps}
    for p in all_paths:
        if p.origin is not None and p.origin.lower() not in step_ids:
            res.problem(
                p.at("OriginStepID"),
                f"this path's origin ({p.origin}) is no step in "
                "the files: 5.51.3 never evaluates it",
            )
    actions_by_agent: dict[str, list[str]] = {}
    for rec in res.of_entity(AGENT_ACTIONS):
        agent_id = _str(res.value(rec, "AgentID"))
        status = _str(res.value(rec, "Status")) or "Active"
        name = ref_name(res.value(rec, "ActionID"))
        if agent_id is not None and name is not None and status == "Active":
            actions_by_agent.setdefault(agent_id.lower(), []).append(name)
    owner = {st.id.lower(): aid for aid, steps in steps_by_agent.items() for st in steps}
    paths_by_agent: dict[str, list[StepPath]] = {}
    for p in all_paths:  # in file order, each path with the agent its origin step belongs to
        aid = owner.get(p.origin.lower()) if p.origin is not None else None
        if aid is not None:
            paths_by_agent.setdefault(aid, []).append(p)
    agents: list[Agent] = []
    for rec in res.of_entity(AGENTS):
        agent_id = res.record_id(rec)
        steps = tuple(steps_by_agent.get(agent_id.lower(), ()))
        paths = tuple(paths_by_agent.get(agent_id.lower(), ()))
        type_value = res.value(rec, "TypeID")
        agents.append(
            Agent(
                id=agent_id,
                name=_str(res.value(rec, "Name")) or "",
                type_name=_type_name(type_value),
                status=_str(res.value(rec, "Status")) or "Pending",
                status_given=res.source(rec, "Status")[0] is not None,
                description=_str(res.value(rec, "Description")),
                steps=steps,
                paths=paths,
                actions=tuple(actions_by_agent.get(agent_id.lower(), ())),
                loc=rec.node.loc,
                locs=_locs(res, rec, ("Name", "TypeID", "Status")),
            )
        )
    return agents
