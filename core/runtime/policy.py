"""The context authority policy, as mozaiks 0.2.0 builds it, and the graph compiler's refusal.

mozaiks 0.2.0, mozaiksai/core/workflow/context/authority.py ``build_context_authority_policy``
classifies every declared variable: its authority class, whether it is routing state, persisted,
visible to the model and to tools, and which writers may set it (declared ``writer_ids``, else
inferred from its name, source, triggers and the transition rules that read it). The policy is
built when the workflow's context loads (variables.py) with the ``transition_rules`` of
``transition_graph.yaml``; a build error (a build_context variable with routing or persisted
metadata, a runtime source that is not immutable, a persisted variable that is not replayable)
fails the load.

mozaiksai/core/workflow/execution/network_graph.py ``compile_transition_rules_to_graph`` then
calls ``validate_transition_context_authority``: every variable a ``context_equals`` or
``context_expression`` rule reads must be known, routing, and have a deterministic writer, else
``WorkflowGraphCompileError`` with every failure joined by ``; `` and the run never starts.

An agent_text trigger writes through ``sentinel_text_trigger`` when every agent_text trigger of
its variable is an exact ``equals`` (mozaiksai/core/workflow/context/derived.py
``apply_agent_text``), else through ``agent_text``; the policy's ``can_write`` refuses what the
variable does not authorize, and derived.py swallows that refusal (logged at debug level), so
the trigger never writes its key and nothing says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import chain
from operator import itemgetter
from typing import Any

from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot
from flowctx_core.runtime.authority import PROTECTED_NAMES, PROTECTED_PARTS, PROTECTED_SUFFIXES

# mozaiks 0.2.0, mozaiksai/core/workflow/context/authority.py: the closed vocabularies
IMMUTABLE = "immutable_runtime_authority"
ROUTING_STATE = "closed_writer_routing_state"
QUALITY_STATE = "closed_writer_quality_state"
MUTABLE = "mutable_workflow_state"
MODEL_VISIBLE = "model_visible_information"
TOOL_ONLY = "tool_only_information"
DERIVED = "derived_information"
CLOSED = frozenset({ROUTING_STATE, QUALITY_STATE})

RUNTIME_SYSTEM = "runtime_system"
CALLER_INPUT = "caller_input"
TRANSITION_ROUTER = "transition_router"
LIVE_USER_CONTEXT = "live_user_context"
CONTEXT_BRIDGE = "context_bridge"
TOOL_WRITEBACK = "tool_writeback"
AGENT_TEXT = "agent_text"
UI_RESPONSE_TRIGGER = "ui_response_trigger"
USER_TEXT_TRIGGER = "user_text_trigger"
PERSISTED_REPLAY = "persisted_replay"
TASK_BATCH = "task_batch"
STRUCTURED_OUTPUT = "structured_output"
LIFECYCLE_TOOL = "lifecycle_tool"
DETERMINISTIC_TOOL = "deterministic_tool"
SENTINEL_TEXT_TRIGGER = "sentinel_text_trigger"

DETERMINISTIC_WRITERS = frozenset(
    {
        RUNTIME_SYSTEM,
        TRANSITION_ROUTER,
        UI_RESPONSE_TRIGGER,
        TASK_BATCH,
        STRUCTURED_OUTPUT,
        LIFECYCLE_TOOL,
        DETERMINISTIC_TOOL,
        SENTINEL_TEXT_TRIGGER,
    }
)
ORDINARY_WRITERS = frozenset(
    {
        CALLER_INPUT,
        TRANSITION_ROUTER,
        LIVE_USER_CONTEXT,
        CONTEXT_BRIDGE,
        TOOL_WRITEBACK,
        UI_RESPONSE_TRIGGER,
        USER_TEXT_TRIGGER,
        TASK_BATCH,
        STRUCTURED_OUTPUT,
        LIFECYCLE_TOOL,
        DETERMINISTIC_TOOL,
        SENTINEL_TEXT_TRIGGER,
    }
)
#: the names mozaiks 0.2.0 holds immutable: the before_chat guard's protected names and
#: suffixes and parts (``runtime.authority``), and three more that 0.2.0's policy adds
_IMMUTABLE_EXACT = frozenset(
    {*PROTECTED_NAMES, "run_build_binding", "workflow_run_id", "build_terminal_receipt"}
)
_IMMUTABLE_SUFFIXES = PROTECTED_SUFFIXES
_IMMUTABLE_PARTS = PROTECTED_PARTS
_ROUTING_EXACT = frozenset(
    {"build_mode", "revision_scope", "task_run_mode", "sequence_status", "routing_mode"}
)
_ROUTER_SEEDED = frozenset(
    {"build_mode", "coding_participation", "revision_scope", "sequence_status"}
)
_ROUTING_SUFFIXES = ("_route_ready", "_complete", "_decision", "_selected")
_QUALITY_PARTS = ("quality", "validation_status", "acceptance_status", "tests_passed", "gate")
_TOOL_ONLY_SOURCES = frozenset(
    {"config", "data_reference", "data_entity", "file", "build_context", "external"}
)
_REPLAYABLE = frozenset({ROUTING_STATE, QUALITY_STATE, MUTABLE, MODEL_VISIBLE, DERIVED})
_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_.:-]{0,127}$")
_CONTEXT_REF = re.compile(r"\$\{([^}]+)\}")
#: run identity: in every policy even when the workflow declares no state
IDENTITY = ("app_id", "chat_id", "user_id", "workflow_name")


def clean_key(value: Any) -> str:
    """authority.py ``_clean_key``: the stripped name, or "" when it is not an identifier (a
    leading ``_`` or digit, a space, over 128 characters...)."""
    if type(value) is str:
        return _clean_name(value)
    key = str(value or "").strip()
    return key if key and _IDENTIFIER.match(key) else ""


@lru_cache(maxsize=1 << 14)
def _clean_name(value: str) -> str:
    # memoised: the policy and the start-up stages each ask it of every declared name
    key = value.strip()
    return key if key and _IDENTIFIER.match(key) else ""


@lru_cache(maxsize=1 << 14)
def is_immutable_key(key: str) -> bool:
    # memoised: the policy asks it of every variable twice, on every resolution
    low = key.lower()
    return (
        low in _IMMUTABLE_EXACT
        or low.endswith(_IMMUTABLE_SUFFIXES)
        or any(p in low for p in _IMMUTABLE_PARTS)
    )


@lru_cache(maxsize=1 << 14)
def _is_quality_key(key: str) -> bool:
    low = key.lower()
    return any(p in low for p in _QUALITY_PARTS)


@dataclass(frozen=True)
class VariableAuthority:
    """One variable's authority, with why each field has its value (declared or inferred)."""

    key: str
    authority_class: str
    model_visible: bool
    tool_visible: bool
    persisted: bool
    routing: bool
    authorization: bool
    writer_ids: tuple[str, ...]
    source_type: str | None = None
    value_type: str | None = None
    #: field -> "declared" or the inference that gave it
    why: Mapping[str, str] = field(default_factory=dict)

    @property
    def deterministic_writers(self) -> tuple[str, ...]:
        return tuple(w for w in self.writer_ids if w in DETERMINISTIC_WRITERS)

    def can_write(self, writer: str) -> bool:
        """authority.py ``ContextAuthorityPolicy.can_write``."""
        if writer == RUNTIME_SYSTEM:
            return True
        if writer == PERSISTED_REPLAY or self.source_type == "build_context":
            return False
        if self.authority_class == IMMUTABLE:
            return False
        if writer == AGENT_TEXT:
            return (
                self.authority_class == DERIVED
                and AGENT_TEXT in self.writer_ids
                and not self.routing
                and not self.authorization
            )
        if self.authority_class in CLOSED:
            return writer in self.writer_ids and writer in DETERMINISTIC_WRITERS
        if self.writer_ids:
            return writer in self.writer_ids
        return writer in ORDINARY_WRITERS

    def to_json(self) -> dict[str, Any]:
        return {
            "authority_class": self.authority_class,
            "routing": self.routing,
            "persisted": self.persisted,
            "model_visible": self.model_visible,
            "tool_visible": self.tool_visible,
            "authorization": self.authorization,
            "writer_ids": list(self.writer_ids),
            "why": dict(self.why),
        }

    def summary(self) -> str:
        """``closed_writer_routing_state, routing, persisted; writers: deterministic_tool, …``."""
        flags = [
            name
            for name, on in (
                ("routing", self.routing),
                ("persisted", self.persisted),
                ("model-visible", self.model_visible),
                ("authorization", self.authorization),
            )
            if on
        ]
        writers = ", ".join(self.writer_ids) or "none"
        return f"{', '.join([self.authority_class, *flags])}; writers: {writers}"


@dataclass(frozen=True)
class CompileFailure:
    """One failure of ``validate_transition_context_authority``, at the rule that reads it."""

    key: str
    #: the runtime's own text for this failure
    message: str
    #: what would make the graph compile
    fix: str
    #: indexes of the transition_rules that read the key
    rules: tuple[int, ...] = ()


@dataclass(frozen=True)
class SilentTrigger:
    """A trigger whose writer the variable's authority refuses: it never writes (derived.py
    catches the refusal and logs it at debug level)."""

    key: str
    trigger: int
    writer: str
    why: str


@dataclass(frozen=True)
class AuthorityPolicy:
    workflow: str
    variables: Mapping[str, VariableAuthority]
    #: the ContextAuthorityError (or ValueError) the policy's construction raises, and the
    #: variable it concerns: the context load fails with it
    error: str | None = None
    error_key: str | None = None
    #: the graph compiler's refusal: each failure, and the runtime's whole message
    compile_failures: tuple[CompileFailure, ...] = ()
    silent_triggers: tuple[SilentTrigger, ...] = ()
    #: the routing keys the transition rules read
    routing_keys: frozenset[str] = frozenset()

    @property
    def compile_error(self) -> str | None:
        """The WorkflowGraphCompileError text (authority.py / network_graph.py)."""
        if not self.compile_failures:
            return None
        joined = "; ".join(f.message for f in self.compile_failures)
        return f"{self.workflow} context authority contract mismatch: {joined}"

    def get(self, key: str) -> VariableAuthority | None:
        return self.variables.get(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "error": self.error,
            "compile_error": self.compile_error,
            "variables": {k: v.to_json() for k, v in self.variables.items()},
        }


class AuthorityError(ValueError):
    """What the runtime raises while building the policy (the load fails)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


# --- reading the declarations ------------------------------------------------------------------


def _raw(spec: VariableSpec) -> dict[str, Any]:
    return spec.raw if isinstance(spec.raw, dict) else {}


def _source(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    src = raw.get("source")
    # a dict (what YAML gives) first: Mapping's own check is an abstract-class lookup, asked
    # of every declaration several times a policy
    return src if type(src) is dict or isinstance(src, Mapping) else {}


def _source_triggers(src: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = src.get("triggers")
    if not isinstance(found, list):
        return []
    return [t for t in found if type(t) is dict or isinstance(t, Mapping)]


def _text(value: Any) -> str:
    return str(value or "").strip()


def _is_sentinel(trigger: Mapping[str, Any]) -> bool:
    """authority.py: an agent_text trigger with an exact ``equals`` (and no ``$1`` value)."""
    match = trigger.get("match")
    equals = _text(match.get("equals")) if isinstance(match, Mapping) else ""
    return (
        _text(trigger.get("type")) == "agent_text"
        and bool(equals)
        and str(trigger.get("value") or "") != "$1"
    )


def transition_keys(rules: Iterable[Any]) -> dict[str, list[int]]:
    """authority.py ``_transition_context_keys``: the keys each rule reads, by rule index."""
    out: dict[str, list[int]] = {}
    for i, rule in enumerate(rules):
        if not isinstance(rule, Mapping):
            continue
        ctype = _text(rule.get("condition_type"))
        keys: list[str] = []
        if ctype == "context_equals":
            keys = [clean_key(rule.get("condition_key"))]
        elif ctype == "context_expression":
            text = str(rule.get("context_expression") or "")
            keys = [clean_key(m.group(1)) for m in _CONTEXT_REF.finditer(text)]
        for key in keys:
            if key:
                out.setdefault(key, []).append(i)
    return out


def _infer_class(
    key: str,
    source_type: str,
    trigger_types: set[str],
    routing: frozenset[str],
    task_keys: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    if is_immutable_key(key):
        return IMMUTABLE, "inferred: the name is runtime identity, scope or a secret handle"
    if source_type == "runtime":
        return IMMUTABLE, "inferred: a runtime source"
    if _is_quality_key(key):
        return QUALITY_STATE, "inferred: the name marks quality or gate state"
    if key in routing:
        return ROUTING_STATE, "inferred: a transition rule reads it"
    if key in _ROUTING_EXACT or key.endswith(_ROUTING_SUFFIXES):
        return ROUTING_STATE, "inferred: the name marks routing state"
    if key in task_keys:
        return ROUTING_STATE, "inferred: a task batch writes it"
    if "agent_text" in trigger_types:
        return DERIVED, "inferred: an agent_text trigger sets it"
    if source_type in _TOOL_ONLY_SOURCES:
        return TOOL_ONLY, f"inferred: a {source_type} source"
    return MUTABLE, "inferred: workflow state"


def _infer_writers(
    authority_class: str,
    source_type: str,
    trigger_types: set[str],
    key: str,
    sentinel: bool,
    task_keys: frozenset[str] = frozenset(),
) -> set[str]:
    if authority_class == DERIVED and "agent_text" in trigger_types:
        return {AGENT_TEXT, SENTINEL_TEXT_TRIGGER} if sentinel else {AGENT_TEXT}
    writers: set[str] = set()
    if authority_class in CLOSED:
        # closed state: only deterministic machinery (declared tools, lifecycle hooks,
        # structured-output projection)
        writers |= {DETERMINISTIC_TOOL, LIFECYCLE_TOOL, STRUCTURED_OUTPUT}
    if sentinel:
        writers.add(SENTINEL_TEXT_TRIGGER)
    if "ui_response" in trigger_types:
        writers.add(UI_RESPONSE_TRIGGER)
    if "user_text" in trigger_types:
        writers.add(USER_TEXT_TRIGGER)
    if key in task_keys:
        writers.add(TASK_BATCH)
    if key in _ROUTER_SEEDED:
        writers.add(TRANSITION_ROUTER)
    if source_type == "state" and authority_class not in CLOSED:
        writers |= {CALLER_INPUT, TRANSITION_ROUTER, CONTEXT_BRIDGE, TOOL_WRITEBACK}
        writers.add(LIVE_USER_CONTEXT)
    return writers


def _declared_bool(raw: Mapping[str, Any], name: str) -> bool | None:
    value = raw.get(name)
    return value if isinstance(value, bool) else None


def infer(
    key: str,
    raw: Mapping[str, Any],
    routing: frozenset[str],
    task_keys: frozenset[str] = frozenset(),
) -> VariableAuthority:
    """authority.py ``infer_context_authority`` for one declaration (raises AuthorityError)."""
    src = _source(raw)
    source_type = _text(src.get("type"))
    triggers = _source_triggers(src)
    trigger_types = {_text(t.get("type")) for t in triggers}
    sentinel = any(_is_sentinel(t) for t in triggers) if triggers else False
    declared_class = _text(raw.get("authority_class")) or None
    declared_writers: list[str] = []
    written = raw.get("writer_ids")
    if written:  # most declarations name none: no comprehension to run
        declared_writers = [w for w in dict.fromkeys(_text(w) for w in written) if w]
    value_type = _text(raw.get("type")).lower() or None
    why: dict[str, str] = {}
    if declared_class == IMMUTABLE and declared_writers:
        # ContextAuthorityMetadata's own validator
        raise AuthorityError(
            key, "immutable_runtime_authority variables must not declare variable writers"
        )
    if source_type == "build_context":
        if (
            declared_class not in (None, TOOL_ONLY)
            or _declared_bool(raw, "model_visible") is True
            or _declared_bool(raw, "persisted") is True
            or _declared_bool(raw, "routing") is True
            or _declared_bool(raw, "authorization") is True
            or set(declared_writers) - {RUNTIME_SYSTEM}
            or triggers
            or is_immutable_key(key)
            or key in routing
            or key in task_keys
        ):
            raise AuthorityError(
                key,
                f"build_context '{key}' must remain tool-only, non-persisted trusted "
                "projection authority",
            )
        tool_visible = _declared_bool(raw, "tool_visible")
        return VariableAuthority(
            key,
            TOOL_ONLY,
            model_visible=False,
            tool_visible=True if tool_visible is None else tool_visible,
            persisted=False,
            routing=False,
            authorization=False,
            writer_ids=(RUNTIME_SYSTEM,),
            source_type=source_type,
            value_type=value_type,
            why={"authority_class": "build_context: trusted projection, tool-only"},
        )
    if source_type == "runtime" and declared_class not in (None, IMMUTABLE):
        raise AuthorityError(key, f"runtime context '{key}' must be immutable_runtime_authority")
    if declared_class is not None:
        authority_class = declared_class
        why["authority_class"] = "declared"
    else:
        authority_class, why["authority_class"] = _infer_class(
            key, source_type, trigger_types, routing, task_keys
        )

    def flag(name: str, inferred: bool, reason: str) -> bool:
        declared = _declared_bool(raw, name)
        if declared is not None:
            why[name] = "declared"
            return declared
        why[name] = reason
        return inferred

    from_class = f"inferred from {authority_class}"
    routing_flag = flag(
        "routing",
        key in routing or authority_class == ROUTING_STATE,
        "inferred: a transition rule reads it" if key in routing else from_class,
    )
    authorization = flag(
        "authorization", is_immutable_key(key), "inferred from the name (identity or secret)"
    )
    hidden = authority_class in (IMMUTABLE, TOOL_ONLY)
    model_visible = flag("model_visible", not hidden, from_class)
    tool_visible = flag("tool_visible", True, "inferred: tools see every variable")
    persisted = flag("persisted", not hidden, from_class)
    if declared_writers:
        writers = set(declared_writers)
        why["writer_ids"] = "declared"
    else:
        writers = _infer_writers(
            authority_class, source_type, trigger_types, key, sentinel, task_keys
        )
        why["writer_ids"] = "inferred from the class, source and triggers"
    if authority_class == IMMUTABLE:
        writers = set()
        why["writer_ids"] = "immutable: only the runtime writes it"
    if authority_class in CLOSED:
        kept = {w for w in writers if w in DETERMINISTIC_WRITERS}
        if kept != writers:
            why["writer_ids"] += "; closed state keeps only deterministic writers"
        writers = kept
    return VariableAuthority(
        key,
        authority_class,
        model_visible=model_visible,
        tool_visible=tool_visible,
        persisted=persisted,
        routing=routing_flag,
        authorization=authorization,
        writer_ids=tuple(sorted(writers)),
        source_type=source_type or None,
        value_type=value_type,
        why=why,
    )


def _replay_problem(workflow: str, authority: VariableAuthority) -> str | None:
    """authority.py ``_validate_replay_contract``: persisted state must be replayable."""
    if not authority.persisted:
        return None
    if not authority.authorization and authority.authority_class in _REPLAYABLE:
        return None
    return (
        f"{workflow} context authority contract mismatch: persisted context variable "
        f"{authority.key!r} is not replayable"
    )


# fixes the compiler's refusals would take, in the words a workflow author uses
_FIX_UNKNOWN = (
    "rename the variable so it starts with a letter (letters, digits, '_', '.', ':' or '-', at "
    "most 128 characters): the policy skips any other name"
)
_FIX_NOT_ROUTING = "remove 'routing: false' from its declaration (a rule routes on it)"
_FIX_NO_WRITER = (
    "give it a deterministic writer: an agent_text trigger with an exact 'equals' "
    "(sentinel_text_trigger), a deterministic tool (writer_ids: [deterministic_tool]), or "
    "declare one of lifecycle_tool, structured_output, ui_response_trigger, task_batch"
)


def build_policy(
    workflow: WorkflowSnapshot, rules: list[Any], task_keys: frozenset[str] = frozenset()
) -> AuthorityPolicy:
    """The workflow's policy as the context load builds it, and the compiler's verdict.

    ``task_keys``: the keys the workflow's task batches write (variables.py
    ``_task_batch_context_keys``): routing state a task batch may write.
    """
    reads = transition_keys(rules)
    routing = frozenset(reads)  # once: every variable is judged against the same rules
    specs = workflow.variables
    # what each declaration gives on its own, kept for the next read of the contract
    facts = workflow.per_item(
        "authority",
        specs,
        (workflow.name, routing, task_keys),
        partial(_facts, workflow.name, routing, task_keys),
    )
    error: str | None = None
    error_key: str | None = None
    keys = list(map(_KEY, facts))
    variables = dict(zip(keys, map(_AUTHORITY, facts), strict=True))
    variables.pop("", None)
    failed = any(map(_ERROR, facts)) or any(map(_REPLAY, facts))
    silent: list[SilentTrigger]
    if not failed and len(variables) == len(keys) - keys.count(""):
        # no declaration fails and no name is declared twice: each one's own authority holds
        silent = list(chain.from_iterable(map(_SILENT, facts)))
    else:
        variables = {}
        for fact in facts:
            key = fact[0]
            if not key or key in variables:
                continue
            if fact[2] is not None:
                error, error_key = fact[2]
                break
            variables[key] = fact[1]
            if fact[3] is not None:
                error, error_key = fact[3], key
                break
        silent = [
            t
            for spec in specs
            if (held := variables.get(clean_key(spec.name))) is not None
            for t in _silent_triggers(held, spec)
        ]
    for key in IDENTITY:
        if key not in variables:
            variables[key] = infer(key, {"type": "string"}, frozenset())
    failures: list[CompileFailure] = []
    # an undeclared key never gets here: contract_validation.py refuses it at load (stages.py)
    declared: set[str] | None = None
    for key in sorted(reads):
        known = variables.get(key)
        at = tuple(reads[key])
        if known is None:
            if declared is None:
                declared = {spec.name.strip() for spec in specs}
            if key not in declared:
                continue
        if known is None:
            message = f"unknown routing context variable {key!r}"
            failures.append(CompileFailure(key, message, _FIX_UNKNOWN, at))
        elif not known.routing:
            message = f"non-routing context variable {key!r} used as routing condition"
            failures.append(CompileFailure(key, message, _FIX_NOT_ROUTING, at))
        elif not known.deterministic_writers:
            message = f"routing context variable {key!r} has no authorized deterministic writer"
            failures.append(CompileFailure(key, message, _FIX_NO_WRITER, at))
    return AuthorityPolicy(
        workflow.name,
        variables,
        error,
        error_key,
        tuple(failures),
        tuple(silent),
        routing,
    )


_KEY = itemgetter(0)
_AUTHORITY = itemgetter(1)
_ERROR = itemgetter(2)
_REPLAY = itemgetter(3)
_SILENT = itemgetter(4)

#: one declaration's part of the policy: its key (clean_key), its authority (None when its
#: key is empty or it fails), the error its inference raises (message, key), the error its
#: replay contract gives, and its triggers that never write under its own authority
Facts = tuple[
    str, VariableAuthority | None, tuple[str, str] | None, str | None, tuple[SilentTrigger, ...]
]


def _facts(
    workflow: str, routing: frozenset[str], task_keys: frozenset[str], spec: VariableSpec
) -> Facts:
    """``build_policy``'s reading of one declaration, alone."""
    key = clean_key(spec.name)
    if not key:
        return key, None, None, None, ()
    try:
        # a function of the declaration (never changed: specs are frozen, their raw value is
        # the parse's) and of these rules alone
        authority = spec.remembered(
            "authority",
            (key, routing, task_keys),
            partial(infer, key, _raw(spec), routing, task_keys),
        )
    except AuthorityError as exc:
        return key, None, (str(exc), exc.key), None, ()
    replay = _replay_problem(workflow, authority)
    return key, authority, None, replay, tuple(_silent_triggers(authority, spec))


def _silent_triggers(held: VariableAuthority, spec: VariableSpec) -> list[SilentTrigger]:
    """The triggers of a state declaration whose writer ``held`` (the authority of its key)
    refuses."""
    src = _source(_raw(spec))
    if _text(src.get("type")) != "state":
        return []
    triggers = list(enumerate(_source_triggers(src)))
    agent_text = [t for _, t in triggers if _text(t.get("type")) == "agent_text"]
    # derived.py apply_agent_text: sentinel only when every agent_text trigger is one
    sentinel = bool(agent_text) and all(_is_sentinel(t) for t in agent_text)
    out: list[SilentTrigger] = []
    for i, trigger in triggers:
        writer = _TRIGGER_WRITERS.get(_text(trigger.get("type")))
        if writer == AGENT_TEXT and sentinel:
            writer = SENTINEL_TEXT_TRIGGER
        if writer is None or held.can_write(writer):
            continue
        out.append(SilentTrigger(held.key, i, writer, _silent_reason(held, writer)))
    return out


#: the writer each trigger type writes as (derived.py: apply_agent_text, apply_user_text,
#: the ui_response binding)
_TRIGGER_WRITERS = {
    "agent_text": AGENT_TEXT,
    "user_text": USER_TEXT_TRIGGER,
    "ui_response": UI_RESPONSE_TRIGGER,
}


def _silent_reason(authority: VariableAuthority, writer: str) -> str:
    if writer != AGENT_TEXT and authority.authority_class in CLOSED:
        return (
            f"{authority.authority_class} takes only its deterministic writers "
            f"({', '.join(authority.writer_ids) or 'none'})"
        )
    if writer == AGENT_TEXT:
        if authority.routing:
            return (
                "a freeform agent_text trigger (contains, regex, or several triggers not all "
                "exact 'equals') writes as agent_text, which may never write routing state"
            )
        if authority.authority_class != DERIVED:
            return f"agent_text may write only derived_information, not {authority.authority_class}"
        return "the variable's writer_ids do not include agent_text"
    writers = ", ".join(authority.writer_ids) or "none"
    return f"{writer} is not among its writers ({writers})"


def policy_of(matrix: Matrix) -> AuthorityPolicy | None:
    """The authority policy a matrix was resolved with (its field is typed ``object``: the
    matrix sits below the runtime's rules), or None."""
    found = matrix.authority
    return found if isinstance(found, AuthorityPolicy) else None
