"""The three routing files of a workflow folder, as strict pydantic models with YAML marks.

``flow.yaml`` (MemberJunction flow agent), ``transition_graph.yaml`` (current Mozaiks routing) and
``handoffs.yaml`` (legacy Mozaiks routing). Unknown fields are rejected at every level. Each rule,
step and path is validated on its own, so one bad entry never hides the others; an entry that
fails validation is kept as an invalid entry (with its raw data) so that routing can still show
it in place rather than silently routing past it. Cross-field rules (a ``context_equals`` rule
without ``condition_key``...) are reported here too, at the key they concern.
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
)

from core.diagnostics import Diagnostic, did_you_mean, sort_key
from core.results import Loc
from core.workspace import display_path
from core.yamlmarks import PathKey, YamlDoc, load_yaml_file

FLOW_FILE = "flow.yaml"
TRANSITIONS_FILE = "transition_graph.yaml"
HANDOFFS_FILE = "handoffs.yaml"

STEP_TYPES = ("Action", "Sub-Agent", "Prompt", "ForEach", "While")
STEP_STATUSES = ("Active", "Disabled", "Pending")
TRANSITION_TYPES = ("condition", "after_turn")
CONDITION_TYPES = ("context_equals", "context_expression", "tool_called")
#: AG2 group-chat targets a rule may name. Those that need no configuration beyond ``agent`` /
#: ``agents``; nested and group-chat targets carry Python config that a YAML file cannot hold.
TARGET_TYPES = (
    "AgentTarget",
    "AgentNameTarget",
    "RevertToUserTarget",
    "TerminateTarget",
    "StayTarget",
    "AskUserTarget",
    "GroupManagerTarget",
    "RandomAgentTarget",
)
HANDOFF_TYPES = ("condition", "after_work")
HANDOFF_CONDITION_TYPES = ("expression", "llm", "string_llm")
CONDITION_SCOPES = ("pre", "post")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# --- flow.yaml ----------------------------------------------------------------------------


class FlowStep(_Strict):
    """AIAgentStep: Name, StepType, StartingStep, Status, Description."""

    name: str
    type: Literal["Action", "Sub-Agent", "Prompt", "ForEach", "While"]
    starting: StrictBool = False
    status: Literal["Active", "Disabled", "Pending"] = "Active"
    description: str | None = None


class FlowPath(_Strict):
    """AIAgentStepPath: OriginStepID, DestinationStepID, Condition, Priority, Description."""

    from_: str = Field(alias="from")
    to: str
    condition: str | None = None
    # strict: a quoted "10" or a YAML ``true`` is an authoring mistake, not a priority
    priority: StrictInt = 0
    description: str | None = None


# --- transition_graph.yaml -----------------------------------------------------------------


class Target(_Strict):
    type: Literal[
        "AgentTarget",
        "AgentNameTarget",
        "RevertToUserTarget",
        "TerminateTarget",
        "StayTarget",
        "AskUserTarget",
        "GroupManagerTarget",
        "RandomAgentTarget",
    ]
    agent: str | None = None
    agents: list[str] | None = None

    def label(self, source: str) -> str:
        """What the user reads as the destination: an agent name, ``user``, ``terminate``..."""
        if self.type in ("AgentTarget", "AgentNameTarget"):
            return self.agent or "?"
        if self.type == "RevertToUserTarget":
            return "user"
        if self.type == "TerminateTarget":
            return "terminate"
        if self.type == "StayTarget":
            return source
        if self.type == "AskUserTarget":
            return "ask user"
        if self.type == "GroupManagerTarget":
            return "group manager"
        return "random of " + ", ".join(self.agents or [])


class TransitionRule(_Strict):
    source: str
    transition_type: Literal["condition", "after_turn"]
    condition_type: Literal["context_equals", "context_expression", "tool_called"] | None = None
    condition_key: str | None = None
    condition_value: Any = None
    condition: str | None = None
    tool_name: str | None = None
    target: Target
    description: str | None = None

    @field_validator("target", mode="before")
    @classmethod
    def _bare_agent(cls, value: Any) -> Any:
        # a bare string is the common short form of an AgentTarget
        return {"type": "AgentTarget", "agent": value} if isinstance(value, str) else value


# --- handoffs.yaml ---------------------------------------------------------------------------


class HandoffRule(_Strict):
    source_agent: str
    target_agent: str
    handoff_type: Literal["condition", "after_work"]
    condition: str | None = None
    condition_type: Literal["expression", "llm", "string_llm"] | None = None
    condition_scope: Literal["pre", "post"] | None = None
    # present in real Mozaiks handoff files; the target is already named by target_agent
    transition_target: (
        Literal["AgentTarget", "RevertToUserTarget", "TerminateTarget", "StayTarget"] | None
    ) = None
    description: str | None = None

    @property
    def is_expression(self) -> bool:
        """An expression by type, or by a ``${`` in the text even without the type."""
        if self.condition_type == "expression":
            return True
        if self.condition_type in ("llm", "string_llm"):
            return False
        return bool(self.condition and "${" in self.condition)


M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Entry(Generic[M]):
    """One list item of a routing file: the validated model, or ``None`` with its problems."""

    index: int
    model: M | None
    raw: Any
    loc: Loc
    path: PathKey
    problems: tuple[Diagnostic, ...] = ()

    @property
    def valid(self) -> bool:
        return self.model is not None


@dataclass(frozen=True)
class FlowFile:
    file: str
    doc: YamlDoc | None
    agent: str | None
    steps: tuple[Entry[FlowStep], ...]
    paths: tuple[Entry[FlowPath], ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    def step(self, name: str) -> FlowStep | None:
        for entry in self.steps:
            if entry.model is not None and entry.model.name == name:
                return entry.model
        return None

    @property
    def step_names(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for entry in self.steps:
            if entry.model is not None:
                seen.setdefault(entry.model.name, None)
        return tuple(seen)


@dataclass(frozen=True)
class TransitionGraphFile:
    file: str
    doc: YamlDoc | None
    rules: tuple[Entry[TransitionRule], ...]
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class HandoffsFile:
    file: str
    doc: YamlDoc | None
    rules: tuple[Entry[HandoffRule], ...]
    diagnostics: tuple[Diagnostic, ...] = ()


# --- pydantic errors as located diagnostics --------------------------------------------------


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation (``X | None``, ``list[X]``, ``Annotated``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return _model_in(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType, list, tuple):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _fields_of(model: type[BaseModel]) -> dict[str, Any]:
    return {(f.alias or name): f.annotation for name, f in model.model_fields.items()}


def _allowed_at(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The field names valid where ``loc`` ends, following the model's nested fields."""
    current: type[BaseModel] | None = model
    for part in loc[:-1]:
        if current is None:
            return []
        if isinstance(part, int):
            continue
        current = _model_in(_fields_of(current).get(part))
    return list(_fields_of(current)) if current is not None else []


def _clean_message(msg: str) -> str:
    return msg[len("Value error, ") :] if msg.startswith("Value error, ") else msg


def located_errors(
    exc: ValidationError, doc: YamlDoc, base: PathKey, model: type[BaseModel]
) -> list[Diagnostic]:
    """pydantic errors as Diagnostics at the YAML marks, with did-you-mean for unknown keys."""
    out: list[Diagnostic] = []
    for err in exc.errors(include_url=False):
        loc = tuple(err["loc"])
        path = (*base, *loc)
        kind = err["type"]
        if kind == "extra_forbidden":
            key = str(loc[-1]) if loc else ""
            allowed = _allowed_at(model, loc)
            hint = did_you_mean(key, allowed)
            out.append(doc.diag(path, f"unknown field '{key}'{hint}", key=True))
        elif kind == "missing":
            out.append(doc.diag(path[:-1], f"missing required field '{loc[-1]}'", key=True))
        elif kind == "literal_error":
            given = err.get("input")
            expected = err.get("ctx", {}).get("expected", "")
            hint = did_you_mean(str(given), _literal_options(expected)) if given else ""
            message = f"{given!r} is not allowed{hint}; expected {expected}"
            out.append(doc.diag(path, message, key=False))
        else:
            out.append(doc.diag(path, _clean_message(err["msg"]), key=False))
    return out


def _literal_options(expected: str) -> list[str]:
    return [part.strip().strip("'") for part in expected.replace(" or ", ",").split(",") if part]


# --- loading ---------------------------------------------------------------------------------


def _top_mapping(
    doc: YamlDoc, allowed: tuple[str, ...], required: str, diags: list[Diagnostic]
) -> dict[str, Any]:
    data = doc.data
    if data is None:
        diags.append(doc.diag((), f"file is empty; expected '{required}'"))
        return {}
    if not isinstance(data, dict):
        diags.append(
            doc.diag((), f"the file must be a mapping with '{required}', found {_kind(data)}")
        )
        return {}
    for key in data:
        if key not in allowed:
            hint = did_you_mean(str(key), allowed)
            diags.append(doc.diag((key,), f"unknown field '{key}'{hint}"))
    return data


def _kind(value: Any) -> str:
    return {list: "a list", dict: "a mapping", str: "a string"}.get(
        type(value), type(value).__name__
    )


def _entries(
    doc: YamlDoc, key: str, data: dict[str, Any], model: type[M], diags: list[Diagnostic]
) -> tuple[Entry[M], ...]:
    raw = data.get(key)
    if raw is None:
        return ()
    if not isinstance(raw, list):
        diags.append(doc.diag((key,), f"'{key}' must be a list, found {_kind(raw)}", key=True))
        return ()
    out: list[Entry[M]] = []
    for i, item in enumerate(raw):
        path: PathKey = (key, i)
        line, col = doc.where(path, key=False)
        loc = Loc(doc.file, line, col)
        if not isinstance(item, dict):
            problem = doc.diag(
                path, f"each entry must be a mapping, found {_kind(item)}", key=False
            )
            diags.append(problem)
            out.append(Entry(i, None, item, loc, path, (problem,)))
            continue
        try:
            parsed = model.model_validate(item)
        except ValidationError as exc:
            problems = tuple(located_errors(exc, doc, path, model))
            diags.extend(problems)
            out.append(Entry(i, None, item, loc, path, problems))
            continue
        out.append(Entry(i, parsed, item, loc, path))
    return tuple(out)


def parse_flow(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> FlowFile:
    diags = list(problems or [])
    data = _top_mapping(doc, ("agent", "steps", "paths"), "steps", diags)
    agent = data.get("agent")
    if agent is not None and not isinstance(agent, str):
        diags.append(doc.diag(("agent",), "agent must be a string (a display name)", key=False))
        agent = None
    steps = _entries(doc, "steps", data, FlowStep, diags)
    paths = _entries(doc, "paths", data, FlowPath, diags)
    seen: dict[str, int] = {}
    for entry in steps:
        if entry.model is None:
            continue
        name = entry.model.name
        if name in seen:
            diags.append(
                doc.diag(
                    (*entry.path, "name"),
                    f"duplicate step name '{name}' (first at line {seen[name]}); "
                    "paths could not tell the two apart",
                    key=False,
                )
            )
        else:
            seen[name] = doc.where((*entry.path, "name"), key=False)[0]
    return FlowFile(doc.file, doc, agent, steps, paths, tuple(diags))


def rule_problems(rule: TransitionRule) -> list[tuple[str, str]]:
    """Cross-field mistakes in a transition rule, as (field, message) pairs."""
    out: list[tuple[str, str]] = []
    if rule.transition_type == "after_turn":
        return out
    ctype = rule.condition_type
    if ctype is None:
        out.append(
            (
                "transition_type",
                f"a condition rule needs 'condition_type' (one of {', '.join(CONDITION_TYPES)})",
            )
        )
    elif ctype == "context_equals":
        if not rule.condition_key:
            out.append(("condition_type", "a context_equals rule needs 'condition_key'"))
        if "condition_value" not in rule.model_fields_set:
            out.append(("condition_type", "a context_equals rule needs 'condition_value'"))
    elif ctype == "context_expression":
        if not rule.condition:
            out.append(("condition_type", "a context_expression rule needs 'condition'"))
    elif ctype == "tool_called" and not rule.tool_name:
        out.append(("condition_type", "a tool_called rule needs 'tool_name'"))
    return out


def target_problems(target: Target) -> list[str]:
    if target.type in ("AgentTarget", "AgentNameTarget") and not target.agent:
        return [f"an {target.type} needs 'agent'"]
    if target.type == "RandomAgentTarget" and not target.agents:
        return ["a RandomAgentTarget needs 'agents' (a list of agent names)"]
    return []


def parse_transition_graph(
    doc: YamlDoc, problems: list[Diagnostic] | None = None
) -> TransitionGraphFile:
    diags = list(problems or [])
    data = _top_mapping(doc, ("transitions",), "transitions", diags)
    rules = list(_entries(doc, "transitions", data, TransitionRule, diags))
    for n, entry in enumerate(rules):
        rule = entry.model
        if rule is None:
            continue
        extra = [doc.diag((*entry.path, f), m, key=True) for f, m in rule_problems(rule)]
        extra += [doc.diag((*entry.path, "target"), m) for m in target_problems(rule.target)]
        if extra:
            diags.extend(extra)
            rules[n] = Entry(entry.index, rule, entry.raw, entry.loc, entry.path, tuple(extra))
    return TransitionGraphFile(doc.file, doc, tuple(rules), tuple(diags))


def handoff_problems(rule: HandoffRule) -> list[tuple[str, str]]:
    if rule.handoff_type == "condition" and not rule.condition:
        return [("handoff_type", "a condition handoff needs 'condition'")]
    return []


def parse_handoffs(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> HandoffsFile:
    diags = list(problems or [])
    data = _top_mapping(doc, ("handoff_rules",), "handoff_rules", diags)
    rules = list(_entries(doc, "handoff_rules", data, HandoffRule, diags))
    for n, entry in enumerate(rules):
        if entry.model is None:
            continue
        extra = [doc.diag((*entry.path, f), m) for f, m in handoff_problems(entry.model)]
        if extra:
            diags.extend(extra)
            rules[n] = Entry(
                entry.index, entry.model, entry.raw, entry.loc, entry.path, tuple(extra)
            )
    return HandoffsFile(doc.file, doc, tuple(rules), tuple(diags))


@dataclass(frozen=True)
class Routes:
    """The routing files of one workflow (each ``None`` when absent) and their load problems."""

    workflow: str
    flow: FlowFile | None = None
    transitions: TransitionGraphFile | None = None
    handoffs: HandoffsFile | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def empty(self) -> bool:
        return self.flow is None and self.transitions is None and self.handoffs is None


def _load(folder: Path, root: Path, name: str) -> tuple[YamlDoc | None, list[Diagnostic], bool]:
    path = folder / name
    if not path.exists():
        return None, [], False
    doc, problems = load_yaml_file(path, display_path(path, root))
    return doc, problems, True


def load_routes_from(folder: Path, root: Path, workflow: str) -> Routes:
    """Read and validate the routing files in ``folder``; never raises for bad content."""
    diags: list[Diagnostic] = []
    parsed: dict[str, Any] = {}
    for name, parse in (
        (FLOW_FILE, parse_flow),
        (TRANSITIONS_FILE, parse_transition_graph),
        (HANDOFFS_FILE, parse_handoffs),
    ):
        doc, problems, present = _load(folder, root, name)
        if not present:
            continue
        if doc is None:
            # unreadable or not YAML: keep the problems, route nothing from this file
            diags.extend(problems)
            continue
        result = parse(doc, problems)
        diags.extend(sorted(result.diagnostics, key=sort_key))
        parsed[name] = result
    return Routes(
        workflow,
        parsed.get(FLOW_FILE),
        parsed.get(TRANSITIONS_FILE),
        parsed.get(HANDOFFS_FILE),
        tuple(diags),
    )
