"""What the routing files share: the strict base, value sets, and reading a list of entries
(each validated on its own, kept in place when invalid).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationError,
)

from flowctx_core.base.diagnostics import Diagnostic, suggest
from flowctx_core.base.yamlmarks import PathKey, YamlDoc
from flowctx_core.model.matrix import Loc
from flowctx_core.model.validation import Strict, Wording, fields_of, located_errors

#: The two shapes of transition_graph.yaml, named by their top-level key.
TRANSITIONS_KEY: Final = "transitions"
TRANSITION_RULES_KEY: Final = "transition_rules"
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
#: the names transition_rules reads as the human, compared stripped and lower-cased: mozaiks
#: 0.2.0's graph compiler (network_graph.py ``_SPECIAL_USER``) knows only ``user``; any other
#: name (``UserProxy``...) is an agent id the human never speaks as
USER_ALIASES = frozenset({"user"})
HANDOFF_USER_ALIASES = frozenset(
    {"user", "User", "USER", "user_proxy", "userproxy", "UserProxy", "user-agent", "UserAgent"}
)
HANDOFF_TERMINATE_ALIASES = frozenset(
    {"terminate", "Terminate", "TERMINATE", "end", "End", "END", "stop", "Stop", "STOP"}
)


class RoutingModel(Strict):
    # routing files may spell a key by its Python name too (``from_``), as the runtimes do
    model_config = ConfigDict(populate_by_name=True)


#: routing files' messages quote the unknown key and list a Literal's choices
WORDING = Wording(quote_key=True, literal_choices=True)


def optional_text(value: Any) -> Any:
    """Strip text and read blank text as absent, as the Mozaiks loaders do."""
    if isinstance(value, str):
        return value.strip() or None
    return value


def lower_text(value: Any) -> Any:
    value = optional_text(value)
    return value.lower() if isinstance(value, str) else value


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


def grouped(
    items: Iterable[Entry[M]], key: Callable[[Entry[M]], Any]
) -> dict[Any, tuple[Entry[M], ...]]:
    """Entries by ``key(entry)`` (the step or agent a path or rule leaves), in file order: the
    index a routing file keeps so that routing asks it once per source, not scans it. An
    unhashable key (a list where a name belongs) is nobody's."""
    found: dict[Any, list[Entry[M]]] = {}
    for entry in items:
        try:
            found.setdefault(key(entry), []).append(entry)
        except TypeError:
            continue
    return {k: tuple(v) for k, v in found.items()}


def document_keys(model: type[BaseModel]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A routing file's top-level keys and the required ones, from its document model (the
    model ``flowctx schema`` turns into the file's JSON Schema)."""
    fields = fields_of(model)
    return tuple(fields), tuple(k for k, f in fields.items() if f.is_required())


def top_mapping(
    doc: YamlDoc, allowed: tuple[str, ...], required: tuple[str, ...], diags: list[Diagnostic]
) -> dict[str, Any]:
    data = doc.data
    wanted = " or ".join(f"'{key}'" for key in required)
    if data is None:
        diags.append(doc.diag((), f"file is empty; expected {wanted}"))
        return {}
    if not isinstance(data, dict):
        diags.append(
            doc.diag((), f"the file must be a mapping with {wanted}, found {kind_of(data)}")
        )
        return {}
    for key in data:
        if key not in allowed:
            hint, fix = suggest(str(key), allowed)
            diags.append(doc.diag((key,), f"unknown field '{key}'{hint}", fix=fix))
    return data


def kind_of(value: Any) -> str:
    names: dict[type, str] = {list: "a list", dict: "a mapping", str: "a string"}
    return names.get(type(value), type(value).__name__)


W = TypeVar("W", bound=BaseModel)


def entries(
    doc: YamlDoc, key: str, data: dict[str, Any], model: type[W], diags: list[Diagnostic]
) -> tuple[Entry[W], ...]:
    raw = data.get(key)
    if raw is None:
        return ()
    if not isinstance(raw, list):
        diags.append(doc.diag((key,), f"'{key}' must be a list, found {kind_of(raw)}", key=True))
        return ()
    out: list[Entry[W]] = []
    for i, item in enumerate(raw):
        path: PathKey = (key, i)
        line, col = doc.where(path, key=False)
        loc = Loc(doc.file, line, col)
        if not isinstance(item, dict):
            problem = doc.diag(
                path, f"each entry must be a mapping, found {kind_of(item)}", key=False
            )
            diags.append(problem)
            out.append(Entry(i, None, item, loc, path, (problem,)))
            continue
        try:
            parsed = model.model_validate(item)
        except ValidationError as exc:
            problems = tuple(located_errors(exc, doc, path, model, None, WORDING))
            diags.extend(problems)
            out.append(Entry(i, None, item, loc, path, problems))
            continue
        out.append(Entry(i, parsed, item, loc, path))
    return tuple(out)
