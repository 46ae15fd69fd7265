"""``transition_graph.yaml`` (current Mozaiks routing), in both of its shapes, loaded into one
``TransitionRule``; cross-field rules are reported at the key they concern.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar, Literal

from pydantic import (
    ConfigDict,
    field_validator,
)

from flowctx_core.base.diagnostics import Diagnostic, Fix, did_you_mean, suggest
from flowctx_core.base.yamlmarks import YamlDoc
from flowctx_core.routing.model.common import (
    CONDITION_TYPES,
    SHAPE_NAMES,
    TRANSITION_RULES_KEY,
    TRANSITIONS_KEY,
    USER_ALIASES,
    ConditionType,
    Entry,
    RoutingModel,
    Shape,
    TargetType,
    TransitionType,
    W,
    document_keys,
    entries,
    grouped,
    lower_text,
    optional_text,
    top_mapping,
)


class Target(RoutingModel):
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


class BriefTransitionRule(RoutingModel):
    """A rule of the ``transitions:`` shape, as written."""

    KEY_HINTS: ClassVar[dict[str, str]] = {
        "source_agent": "that is the transition_rules: spelling; under transitions: write 'source'",
        "target_agent": "that is the transition_rules: spelling; under transitions: write 'target'",
        "context_expression": "that is the transition_rules: spelling; under transitions: write "
        "'condition'",
    }
    KEY_FIXES: ClassVar[dict[str, str]] = {
        "source_agent": "source",
        "target_agent": "target",
        "context_expression": "condition",
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


class TransitionRuleSpec(RoutingModel):
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
    KEY_FIXES: ClassVar[dict[str, str]] = {
        "source": "source_agent",
        "target": "target_agent",
        "handoff_type": "transition_type",
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
        value = lower_text(value)
        if value in ("expression", "llm", "string_llm"):
            # the runtime refuses these here; they are handoffs.yaml condition types
            raise ValueError(
                f"condition_type '{value}' is a handoffs.yaml type; transition_graph.yaml "
                "routing is deterministic: use context_equals, context_expression (with "
                "context_expression:) or tool_called, and let a tool or structured output "
                "set the context first"
            )
        return value

    @field_validator("condition_key", "context_expression", "tool_name", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        # the runtime reads these with str(value).strip(): any YAML value but null is its
        # text (`context_expression: yes` is the expression True, `condition_key: 1` the key
        # "1"); the text null is a value to its model, and none to its graph compiler
        return optional_text(value if value is None or isinstance(value, str) else str(value))

    @field_validator("transition_target", mode="before")
    @classmethod
    def _declared_target(cls, value: Any) -> Any:
        # the graph compiler reads str(transition_target or ""): a false value (false, 0,
        # [], {}) declares no target; any other value is its text
        return optional_text(str(value)) if value else None


class TransitionGraphDocument(RoutingModel):
    """The file as a whole, in either shape. ``parse_transition_graph`` takes its keys from
    here and validates each rule on its own; ``flowctx schema transitions`` is this model."""

    # one shape per file: both keys is an error at the second (``_shape_of``)
    model_config = ConfigDict(
        json_schema_extra={"not": {"required": [TRANSITIONS_KEY, TRANSITION_RULES_KEY]}}
    )

    transitions: list[BriefTransitionRule] | None = None
    transition_rules: list[TransitionRuleSpec] | None = None


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
    #: transition_rules only: target_agent as written (stripped), which the runtime's model
    #: compares as text where a termination_reason is given
    target_agent: str | None = None

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
        target_agent=name,
    )


@dataclass(frozen=True)
class TransitionGraphFile:
    file: str
    doc: YamlDoc | None
    rules: tuple[Entry[TransitionRule], ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    #: the top-level key the rules came from (``transitions`` or ``transition_rules``)
    shape: Shape = "transitions"

    # The file is immutable, so what routing asks of it once per agent is worked out once: an
    # agent's rules were found by a scan of every rule, and the whole graph compiled again,
    # for each agent (500 agents and 2,500 rules took seconds).
    # (cached_property writes the instance dict directly, which a frozen dataclass allows.)
    @cached_property
    def rules_by_source(self) -> dict[Any, tuple[Entry[TransitionRule], ...]]:
        """Every rule entry (valid or not) by the agent it leaves, in file order; in the
        ``transition_rules`` shape every user alias counts as ``user``."""
        real = self.shape == TRANSITION_RULES_KEY

        def source(entry: Entry[TransitionRule]) -> Any:
            if entry.model is not None:
                return entry.model.source
            raw = entry.raw if isinstance(entry.raw, dict) else {}
            name = raw.get("source_agent" if real else "source")
            if real and isinstance(name, str):
                return "user" if is_user(name) else name.strip()
            return name

        return grouped(self.rules, source)


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
        elif isinstance(given[needed], str) and given[needed].lower() == "null":
            # the model takes the text, then the graph compiler (_optional_text) reads it as
            # no value and refuses the rule
            out.append(
                (
                    needed,
                    f"a {ctype} rule needs '{needed}', and the runtime's graph compiler reads "
                    f"'{given[needed]}' as no value; the runtime refuses it",
                )
            )
        for key in declared:
            if key != "condition_type" and key not in _SPEC_CONDITION_KEYS[ctype]:
                out.append(
                    (key, f"a {ctype} rule must not declare '{key}'; the runtime refuses it")
                )
    ends = rule.target.type == "TerminateTarget"
    # the runtime's model compares the text, case and all: `Terminate` ends a run, but with a
    # termination_reason the workflow manager refuses it
    if rule.termination_reason is not None and rule.target_agent != "terminate":
        said = "" if not ends else f" (exactly, in lower case: '{rule.target_agent}' is refused)"
        out.append(
            ("termination_reason", f"termination_reason needs target_agent: terminate{said}")
        )
    named = (rule.declared_target or "").strip().lower()
    if named == "terminatetarget" and not ends:
        out.append(
            (
                "transition_target",
                "a TerminateTarget rule needs target_agent: terminate; the runtime refuses it",
            )
        )
    # mozaiks 0.2.0, network_graph.py _target_for: only these three names compile, and a
    # RevertToUserTarget must name the human
    if named and named not in _COMPILED_TARGETS:
        shown = rule.declared_target or ""
        hint = did_you_mean(shown, _TARGET_NAMES)
        out.append(
            (
                "transition_target",
                f"transition_target '{shown}' is not one of AgentTarget, TerminateTarget, "
                f"RevertToUserTarget{hint}; the runtime's graph compiler refuses it",
            )
        )
    # (a terminate target is read first: it ends the run whatever transition_target says)
    if named == "reverttousertarget" and rule.target.type not in (
        "RevertToUserTarget",
        "TerminateTarget",
    ):
        out.append(
            (
                "transition_target",
                "a RevertToUserTarget rule needs target_agent: user; the runtime refuses it",
            )
        )
    return out


#: the transition_target names mozaiks 0.2.0's graph compiler accepts (compared lower-cased)
_COMPILED_TARGETS = frozenset({"agenttarget", "terminatetarget", "reverttousertarget"})

#: the transition_target names that compile, as authors write them
_TARGET_NAMES = ("AgentTarget", "TerminateTarget", "RevertToUserTarget")


def _expected_target(target: Target) -> str:
    return {"TerminateTarget": "TerminateTarget", "RevertToUserTarget": "RevertToUserTarget"}.get(
        target.type, "AgentTarget"
    )


def rule_fixes(rule: TransitionRule) -> dict[str, tuple[Fix, str | None]]:
    """The corrections ``rule_problems`` know, by the field the problem is on, each with the
    field whose value it replaces (None: the problem's own): a misspelt target type; the
    target_agent a TerminateTarget (or termination_reason) or RevertToUserTarget rule needs."""
    named = (rule.declared_target or "").strip().lower()
    out: dict[str, tuple[Fix, str | None]] = {}
    if named and named not in _COMPILED_TARGETS:
        fix = suggest(rule.declared_target or "", _TARGET_NAMES).fix
        if fix:
            out["transition_target"] = (fix, None)
    agent = rule.target.agent if rule.target.type == "AgentTarget" else None
    if agent and rule.shape == TRANSITION_RULES_KEY:
        if named == "terminatetarget":
            out["transition_target"] = (Fix(agent, "terminate"), "target_agent")
        elif named == "reverttousertarget":
            out["transition_target"] = (Fix(agent, "user"), "target_agent")
        if rule.termination_reason is not None:
            out["termination_reason"] = (Fix(agent, "terminate"), "target_agent")
    spelt = rule.target_agent
    # `Terminate` ends a run, but with a termination_reason the runtime's model wants the text
    # in lower case
    if (
        rule.termination_reason is not None
        and rule.target.type == "TerminateTarget"
        and spelt
        and spelt != "terminate"
    ):
        out["termination_reason"] = (Fix(spelt, "terminate"), "target_agent")
    return out


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
    if declared is not None and declared.strip().lower() == "agenttarget":
        expected = _expected_target(rule.target)
        if declared.strip() != expected and not (
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


def _converted(entry: Entry[W], convert: Callable[[W], TransitionRule]) -> Entry[TransitionRule]:
    """The entry with its validated model in the one internal rule shape."""
    model = convert(entry.model) if entry.model is not None else None
    return Entry(entry.index, model, entry.raw, entry.loc, entry.path, entry.problems)


def parse_transition_graph(
    doc: YamlDoc, problems: list[Diagnostic] | None = None
) -> TransitionGraphFile:
    diags = list(problems or [])
    keys, _ = document_keys(TransitionGraphDocument)
    data = top_mapping(doc, keys, keys, diags)
    shape = _shape_of(doc, data, diags)
    rules: list[Entry[TransitionRule]] = []
    if shape == TRANSITION_RULES_KEY:
        specs = entries(doc, shape, data, TransitionRuleSpec, diags)
        rules = [_converted(e, _from_spec) for e in specs]
    else:
        briefs = entries(doc, shape, data, BriefTransitionRule, diags)
        rules = [_converted(e, _from_brief) for e in briefs]
    for n, entry in enumerate(rules):
        rule = entry.model
        if rule is None:
            continue
        fixes = {
            f: replace(fix, line=doc.where((*entry.path, at), key=False)[0]) if at else fix
            for f, (fix, at) in rule_fixes(rule).items()
        }
        extra = [
            doc.diag((*entry.path, f), m, key=True, fix=fixes.get(f))
            for f, m in rule_problems(rule)
        ]
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
