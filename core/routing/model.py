"""The three routing files of a workflow folder, as strict pydantic models with YAML marks.

``flow.yaml`` (MemberJunction flow agent), ``transition_graph.yaml`` (current Mozaiks routing) and
``handoffs.yaml`` (legacy Mozaiks routing). Unknown fields are rejected at every level. Each rule,
step and path is validated on its own, so one bad entry never hides the others; an entry that
fails validation is kept as an invalid entry (with its raw data) so that routing can still show
it in place rather than silently routing past it. Cross-field rules (a ``context_equals`` rule
without ``condition_key``...) are reported here too, at the key they concern.

``transition_graph.yaml`` comes in two shapes that load into one internal ``TransitionRule``:

* ``transitions:`` (flowctx's own shape): ``source``, ``target`` (a bare agent name or an AG2
  target mapping), ``condition`` for ``context_expression``, optional ``description``;
* ``transition_rules:`` (the shape the Mozaiks runtime reads, ``TransitionRuleSpec`` and
  ``TransitionGraphConfig`` in mozaiksai/core/workflow/declarative/contracts.py):
  ``source_agent``, ``target_agent`` (an agent, ``user`` or ``terminate``), ``transition_type``,
  ``condition_type`` (case-insensitive), ``condition_key``/``condition_value``,
  ``context_expression``, ``tool_name``, ``transition_target`` (an informational AG2 target
  name) and ``termination_reason``. Like the runtime's schema it has no ``description`` and no
  ``condition`` (removed in favour of ``context_expression``), and it refuses condition fields
  that do not belong to the rule's condition type.

Each shape is checked against its own keys; a file that uses both is an error. ``handoffs.yaml``
also accepts what the legacy runtime's HandoffManager accepts: ``condition_type`` aliases
(``context_expression``/``context`` for expressions), ``condition_scope`` synonyms of ``pre``,
explicit nulls and ``transition_target``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, TypeVar, get_args

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
from core.layout import FLOW_FILE, HANDOFFS_FILE, TRANSITIONS_FILE
from core.pathsafety import present
from core.results import Loc
from core.validation import Strict, Wording, located_errors
from core.workspace import display_path
from core.yamlmarks import PathKey, YamlDoc, load_yaml_file

#: The two shapes of transition_graph.yaml, named by their top-level key.
TRANSITIONS_KEY = "transitions"
TRANSITION_RULES_KEY = "transition_rules"
Shape = Literal["transitions", "transition_rules"]
SHAPE_NAMES = {
    TRANSITIONS_KEY: "flowctx's shape (source, target)",
    TRANSITION_RULES_KEY: "the Mozaiks runtime's shape (source_agent, target_agent)",
}

# Each value set is written once, as the Literal the models validate with; the tuples used in
# messages and did-you-mean hints are derived from it.
StepType = Literal["Action", "Sub-Agent", "Prompt", "ForEach", "While"]
StepStatus = Literal["Active", "Disabled", "Pending"]
TransitionType = Literal["condition", "after_turn"]
ConditionType = Literal["context_equals", "context_expression", "tool_called"]
#: AG2 group-chat targets a rule may name. Those that need no configuration beyond ``agent`` /
#: ``agents``; nested and group-chat targets carry Python config that a YAML file cannot hold.
TargetType = Literal[
    "AgentTarget",
    "AgentNameTarget",
    "RevertToUserTarget",
    "TerminateTarget",
    "StayTarget",
    "AskUserTarget",
    "GroupManagerTarget",
    "RandomAgentTarget",
]
HandoffType = Literal["condition", "after_work"]
STEP_TYPES = get_args(StepType)
STEP_STATUSES = get_args(StepStatus)
TRANSITION_TYPES = get_args(TransitionType)
CONDITION_TYPES = get_args(ConditionType)
TARGET_TYPES = get_args(TargetType)
HANDOFF_TYPES = get_args(HandoffType)
HandoffConditionType = Literal["expression", "context_expression", "context", "llm", "string_llm"]
HANDOFF_CONDITION_TYPES = get_args(HandoffConditionType)
#: condition_type values the legacy runtime builds an expression condition from
EXPRESSION_CONDITION_TYPES = frozenset({"expression", "context_expression", "context"})
ConditionScope = Literal["pre", "post", "before_reply", "immediate", "context_pre"]
CONDITION_SCOPES = get_args(ConditionScope)
#: condition_scope values the legacy runtime checks before the LLM runs; any other is "post"
PRE_SCOPES = frozenset({"pre", "before_reply", "immediate", "context_pre"})
#: Names the runtimes read as the human rather than an agent (compared lowercased) and as the
#: end of the run. transition_graph.yaml (network runtime) knows only ``terminate``; the legacy
#: HandoffManager also takes end/stop and a few spellings, exactly as listed.
USER_ALIASES = frozenset({"user", "user_proxy", "userproxy", "userproxyagent"})
HANDOFF_USER_ALIASES = frozenset(
    {"user", "User", "USER", "user_proxy", "userproxy", "UserProxy", "user-agent", "UserAgent"}
)
HANDOFF_TERMINATE_ALIASES = frozenset(
    {"terminate", "Terminate", "TERMINATE", "end", "End", "END", "stop", "Stop", "STOP"}
)


class _Strict(Strict):
    # routing files may spell a key by its Python name too (``from_``), as the runtimes do
    model_config = ConfigDict(populate_by_name=True)


#: routing files' messages quote the unknown key and list a Literal's choices
_WORDING = Wording(quote_key=True, literal_choices=True)


def _optional_text(value: Any) -> Any:
    """Strip text and read blank text as absent, as the Mozaiks loaders do."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def _lower_text(value: Any) -> Any:
    value = _optional_text(value)
    return value.lower() if isinstance(value, str) else value


# --- flow.yaml ----------------------------------------------------------------------------


class FlowStep(_Strict):
    """AIAgentStep: Name, StepType, StartingStep, Status, Description."""

    name: str
    type: StepType
    starting: StrictBool = False
    status: StepStatus = "Active"
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
    type: TargetType
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


class BriefTransitionRule(_Strict):
    """A rule of the ``transitions:`` shape, as written."""

    KEY_HINTS: ClassVar[dict[str, str]] = {
        "source_agent": "that is the transition_rules: spelling; under transitions: write 'source'",
        "target_agent": "that is the transition_rules: spelling; under transitions: write 'target'",
        "context_expression": "that is the transition_rules: spelling; under transitions: write "
        "'condition'",
    }

    source: str
    transition_type: TransitionType
    condition_type: ConditionType | None = None
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


class TransitionRuleSpec(_Strict):
    """A rule of the ``transition_rules:`` shape, keyed as the Mozaiks runtime's contract."""

    KEY_HINTS: ClassVar[dict[str, str]] = {
        "source": "transition_rules: entries name it 'source_agent'",
        "target": "transition_rules: entries name it 'target_agent' (an agent, user or terminate)",
        "condition": "removed from transition rules; write condition_type: context_expression "
        'with context_expression: "${...}" (or context_equals with condition_key/'
        "condition_value)",
        "description": "transition_rules entries have none (the runtime's schema forbids extra "
        "keys); use a YAML comment",
        "condition_scope": "it belongs to handoffs.yaml; a transition rule is checked after its "
        "source agent's turn",
        "handoff_type": "transition_rules entries name it 'transition_type' (after_turn or "
        "condition)",
    }

    source_agent: str
    target_agent: str
    transition_type: TransitionType
    condition_type: ConditionType | None = None
    condition_key: str | None = None
    condition_value: Any = None
    context_expression: str | None = None
    tool_name: str | None = None
    transition_target: str | None = None
    termination_reason: Literal["workflow_complete", "workflow_failed"] | None = None

    @field_validator("source_agent", "target_agent", mode="before")
    @classmethod
    def _agent_ref(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("must name an agent (it is empty)")
        return value.strip() if isinstance(value, str) else value

    @field_validator("condition_type", mode="before")
    @classmethod
    def _condition_type(cls, value: Any) -> Any:
        value = _lower_text(value)
        if value in ("expression", "llm", "string_llm"):
            # the runtime refuses these here; they are handoffs.yaml condition types
            raise ValueError(
                f"condition_type '{value}' is a handoffs.yaml type; transition_graph.yaml "
                "routing is deterministic: use context_equals, context_expression (with "
                "context_expression:) or tool_called, and let a tool or structured output "
                "set the context first"
            )
        return value

    @field_validator(
        "condition_key", "context_expression", "tool_name", "transition_target", mode="before"
    )
    @classmethod
    def _text(cls, value: Any) -> Any:
        return _optional_text(value)


@dataclass(frozen=True)
class TransitionRule:
    """One transition rule as routing reads it, whichever shape the file used.

    Names are the ``transitions:`` shape's; ``key`` maps them back to the YAML key of the file's
    shape so problems point at what the author wrote.
    """

    source: str
    transition_type: str  # "condition" | "after_turn"
    condition_type: str | None
    condition_key: str | None
    condition_value: Any
    condition: str | None  # context_expression's text in either shape
    tool_name: str | None
    target: Target
    description: str | None = None
    shape: Shape = "transitions"
    has_condition_value: bool = False
    #: transition_rules only: the AG2 target name the author declared, and why a run ends
    declared_target: str | None = None
    termination_reason: str | None = None

    _REAL_KEYS: ClassVar[dict[str, str]] = {
        "source": "source_agent",
        "target": "target_agent",
        "condition": "context_expression",
    }

    def key(self, name: str) -> str:
        """The YAML key that holds ``name`` in this rule's file shape."""
        return self._REAL_KEYS.get(name, name) if self.shape == TRANSITION_RULES_KEY else name


def is_user(name: str) -> bool:
    """Whether a transition_rules agent name means the human (``user``, ``UserProxy``...)."""
    return name.strip().lower() in USER_ALIASES


def _from_brief(rule: BriefTransitionRule) -> TransitionRule:
    return TransitionRule(
        source=rule.source,
        transition_type=rule.transition_type,
        condition_type=rule.condition_type,
        condition_key=rule.condition_key,
        condition_value=rule.condition_value,
        condition=rule.condition,
        tool_name=rule.tool_name,
        target=rule.target,
        description=rule.description,
        has_condition_value="condition_value" in rule.model_fields_set,
    )


def _from_spec(rule: TransitionRuleSpec) -> TransitionRule:
    name = rule.target_agent
    # as the runtime compiles it: 'terminate' ends the run, the user aliases pause for the
    # human, any other name is an agent
    if name.lower() == "terminate":
        target = Target(type="TerminateTarget")
    elif is_user(name):
        target = Target(type="RevertToUserTarget")
    else:
        target = Target(type="AgentTarget", agent=name)
    return TransitionRule(
        source="user" if is_user(rule.source_agent) else rule.source_agent,
        transition_type=rule.transition_type,
        condition_type=rule.condition_type,
        condition_key=rule.condition_key,
        condition_value=rule.condition_value,
        condition=rule.context_expression,
        tool_name=rule.tool_name,
        target=target,
        shape=TRANSITION_RULES_KEY,
        has_condition_value="condition_value" in rule.model_fields_set,
        declared_target=rule.transition_target,
        termination_reason=rule.termination_reason,
    )


# --- handoffs.yaml ---------------------------------------------------------------------------


class HandoffRule(_Strict):
    source_agent: str
    target_agent: str
    handoff_type: HandoffType
    condition: str | None = None
    # the legacy runtime lowercases both and takes the aliases listed in the constants above
    condition_type: HandoffConditionType | None = None
    condition_scope: ConditionScope | None = None
    # present in real Mozaiks handoff files; the target is already named by target_agent
    transition_target: (
        Literal["AgentTarget", "RevertToUserTarget", "TerminateTarget", "StayTarget"] | None
    ) = None
    description: str | None = None

    @field_validator("condition_type", "condition_scope", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return _lower_text(value)

    @property
    def is_expression(self) -> bool:
        """An expression by type, or by a ``${`` in the text even without the type."""
        if self.condition_type in EXPRESSION_CONDITION_TYPES:
            return True
        if self.condition_type in ("llm", "string_llm"):
            return False
        return bool(self.condition and "${" in self.condition)

    @property
    def is_pre(self) -> bool:
        return self.condition_scope in PRE_SCOPES

    @property
    def target_label(self) -> str:
        """``user``/``terminate`` for the spellings the runtime reads as those, else the agent."""
        if self.target_agent in HANDOFF_USER_ALIASES:
            return "user"
        if self.target_agent in HANDOFF_TERMINATE_ALIASES:
            return "terminate"
        return self.target_agent


M = TypeVar("M")


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
    #: the top-level key the rules came from (``transitions`` or ``transition_rules``)
    shape: Shape = "transitions"


@dataclass(frozen=True)
class HandoffsFile:
    file: str
    doc: YamlDoc | None
    rules: tuple[Entry[HandoffRule], ...]
    diagnostics: tuple[Diagnostic, ...] = ()


# --- loading ---------------------------------------------------------------------------------


def _top_mapping(
    doc: YamlDoc, allowed: tuple[str, ...], required: tuple[str, ...], diags: list[Diagnostic]
) -> dict[str, Any]:
    data = doc.data
    wanted = " or ".join(f"'{key}'" for key in required)
    if data is None:
        diags.append(doc.diag((), f"file is empty; expected {wanted}"))
        return {}
    if not isinstance(data, dict):
        diags.append(doc.diag((), f"the file must be a mapping with {wanted}, found {_kind(data)}"))
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


W = TypeVar("W", bound=BaseModel)


def _entries(
    doc: YamlDoc, key: str, data: dict[str, Any], model: type[W], diags: list[Diagnostic]
) -> tuple[Entry[W], ...]:
    raw = data.get(key)
    if raw is None:
        return ()
    if not isinstance(raw, list):
        diags.append(doc.diag((key,), f"'{key}' must be a list, found {_kind(raw)}", key=True))
        return ()
    out: list[Entry[W]] = []
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
            problems = tuple(located_errors(exc, doc, path, model, None, _WORDING))
            diags.extend(problems)
            out.append(Entry(i, None, item, loc, path, problems))
            continue
        out.append(Entry(i, parsed, item, loc, path))
    return tuple(out)


def parse_flow(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> FlowFile:
    diags = list(problems or [])
    data = _top_mapping(doc, ("agent", "steps", "paths"), ("steps",), diags)
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
    """Cross-field mistakes in a transition rule, as (YAML key, message) pairs.

    For the ``transition_rules:`` shape these are the rules the runtime refuses to load.
    """
    if rule.shape == TRANSITION_RULES_KEY:
        return _spec_problems(rule)
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
        if not rule.has_condition_value:
            out.append(("condition_type", "a context_equals rule needs 'condition_value'"))
    elif ctype == "context_expression":
        if not rule.condition:
            out.append(("condition_type", "a context_expression rule needs 'condition'"))
    elif ctype == "tool_called" and not rule.tool_name:
        out.append(("condition_type", "a tool_called rule needs 'tool_name'"))
    return out


#: the keys each condition type reads in the transition_rules shape
_SPEC_CONDITION_KEYS = {
    "context_equals": ("condition_key", "condition_value"),
    "context_expression": ("context_expression",),
    "tool_called": ("tool_name",),
}
_SPEC_NEEDS = {
    "context_equals": "condition_key",
    "context_expression": "context_expression",
    "tool_called": "tool_name",
}


def _spec_problems(rule: TransitionRule) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    given = {
        "condition_type": rule.condition_type,
        "condition_key": rule.condition_key,
        # the runtime's contract treats an explicit null value as not declared
        "condition_value": rule.condition_value,
        "context_expression": rule.condition,
        "tool_name": rule.tool_name,
    }
    declared = [key for key, value in given.items() if value is not None]
    ctype = rule.condition_type
    if rule.transition_type == "after_turn":
        if declared:
            out.append(
                (
                    declared[0],
                    "an after_turn rule must not declare condition fields "
                    f"({', '.join(declared)}); the runtime refuses it",
                )
            )
    elif ctype is None:
        out.append(
            (
                "transition_type",
                f"a condition rule needs 'condition_type' (one of {', '.join(CONDITION_TYPES)})",
            )
        )
    else:
        needed = _SPEC_NEEDS[ctype]
        if given[needed] is None:
            out.append(("condition_type", f"a {ctype} rule needs '{needed}'"))
        for key in declared:
            if key != "condition_type" and key not in _SPEC_CONDITION_KEYS[ctype]:
                out.append(
                    (key, f"a {ctype} rule must not declare '{key}'; the runtime refuses it")
                )
    ends = rule.target.type == "TerminateTarget"
    if rule.termination_reason is not None and not ends:
        out.append(("termination_reason", "termination_reason needs target_agent: terminate"))
    if (rule.declared_target or "").lower() == "terminatetarget" and not ends:
        out.append(
            (
                "transition_target",
                "a TerminateTarget rule needs target_agent: terminate; the runtime refuses it",
            )
        )
    return out


def _expected_target(target: Target) -> str:
    return {"TerminateTarget": "TerminateTarget", "RevertToUserTarget": "RevertToUserTarget"}.get(
        target.type, "AgentTarget"
    )


def rule_warnings(rule: TransitionRule) -> list[tuple[str, str]]:
    """Things the runtime accepts but that are probably not what the author meant."""
    out: list[tuple[str, str]] = []
    if rule.shape != TRANSITION_RULES_KEY:
        return out
    if (
        rule.transition_type == "condition"
        and rule.condition_type == "context_equals"
        and rule.condition_key
        and rule.condition_value is None
    ):
        out.append(
            (
                "condition_key",
                f"{'condition_value is null' if rule.has_condition_value else 'no condition_value'}"
                f": the rule matches while '{rule.condition_key}' is None or not in context",
            )
        )
    declared = rule.declared_target
    if declared is not None and declared.lower() != "terminatetarget":
        expected = _expected_target(rule.target)
        if declared not in TARGET_TYPES:
            out.append(
                (
                    "transition_target",
                    f"'{declared}' is not an AG2 target name{did_you_mean(declared, TARGET_TYPES)}"
                    "; the runtime routes by target_agent",
                )
            )
        elif declared != expected and not (
            expected == "AgentTarget" and declared == "AgentNameTarget"
        ):
            out.append(
                (
                    "transition_target",
                    f"transition_target says {declared} but target_agent "
                    f"'{rule.target.label(rule.source)}' makes it {expected}; the runtime "
                    "routes by target_agent",
                )
            )
    return out


def target_problems(target: Target) -> list[str]:
    if target.type in ("AgentTarget", "AgentNameTarget") and not target.agent:
        return [f"an {target.type} needs 'agent'"]
    if target.type == "RandomAgentTarget" and not target.agents:
        return ["a RandomAgentTarget needs 'agents' (a list of agent names)"]
    return []


def _shape_of(doc: YamlDoc, data: dict[str, Any], diags: list[Diagnostic]) -> Shape:
    """The file's shape from its top-level key; using both keys is an error at the second."""
    present = [key for key in data if key in (TRANSITIONS_KEY, TRANSITION_RULES_KEY)]
    if len(present) > 1:
        first, second = present[0], present[1]
        line = doc.where((first,))[0]
        diags.append(
            doc.diag(
                (second,),
                f"this file mixes two shapes: '{first}' (line {line}) is "
                f"{SHAPE_NAMES[first]}, '{second}' is {SHAPE_NAMES[second]}; use one per file "
                f"(the rules under '{second}' are ignored)",
            )
        )
    return (
        TRANSITION_RULES_KEY if present and present[0] == TRANSITION_RULES_KEY else TRANSITIONS_KEY
    )


def parse_transition_graph(
    doc: YamlDoc, problems: list[Diagnostic] | None = None
) -> TransitionGraphFile:
    diags = list(problems or [])
    data = _top_mapping(
        doc, (TRANSITIONS_KEY, TRANSITION_RULES_KEY), (TRANSITIONS_KEY, TRANSITION_RULES_KEY), diags
    )
    shape = _shape_of(doc, data, diags)
    rules: list[Entry[TransitionRule]] = []
    if shape == TRANSITION_RULES_KEY:
        specs = _entries(doc, shape, data, TransitionRuleSpec, diags)
        rules = [replace(e, model=_from_spec(e.model) if e.model else None) for e in specs]
    else:
        briefs = _entries(doc, shape, data, BriefTransitionRule, diags)
        rules = [replace(e, model=_from_brief(e.model) if e.model else None) for e in briefs]
    for n, entry in enumerate(rules):
        rule = entry.model
        if rule is None:
            continue
        extra = [doc.diag((*entry.path, f), m, key=True) for f, m in rule_problems(rule)]
        extra += [
            doc.diag((*entry.path, rule.key("target")), m) for m in target_problems(rule.target)
        ]
        diags.extend(
            doc.diag((*entry.path, f), m, key=True, severity="warning")
            for f, m in rule_warnings(rule)
        )
        if extra:
            diags.extend(extra)
            rules[n] = replace(entry, problems=tuple(extra))
    return TransitionGraphFile(doc.file, doc, tuple(rules), tuple(diags), shape)


def handoff_problems(rule: HandoffRule) -> list[tuple[str, str]]:
    if rule.handoff_type == "condition" and not rule.condition:
        return [("handoff_type", "a condition handoff needs 'condition'")]
    return []


def parse_handoffs(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> HandoffsFile:
    diags = list(problems or [])
    data = _top_mapping(doc, ("handoff_rules",), ("handoff_rules",), diags)
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
    if not present(path):  # not exists(): it raises in a folder that cannot be searched
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
