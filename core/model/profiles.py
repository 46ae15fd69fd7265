"""Named runtime profiles: what one Mozaiks runtime release does with a workspace.

A profile is frozen data, chosen once when a workspace is opened (``flowctx.yaml``
``runtime:``, ``--runtime NAME``, or the app's palette) and carried by the snapshot and the
resolution inputs. Each concern reads the one field that describes it (the contract loader its
``contract``, the config resolver its ``config``...), so a runtime's behaviour lives here, not
as flags scattered through the code.

Facts are read from the runtimes' published code: ``mozaiks-0.2.0`` from the released package
(mozaiks 0.2.0, 2026-10: ``mozaiksai/`` and ``factory_app/``), ``mozaiks-2026-01`` from the
mozaiks-ai repository at one commit; the ``spec`` profile is the documented contract where it
differs from the code. A new release is a new profile, not an edit of an existing one;
``mozaiks`` names the newest release profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from flowctx_core.base.diagnostics import Fix
from flowctx_core.model.filenames import FLOW_FILE, HANDOFFS_FILE, TRANSITIONS_FILE
from flowctx_core.model.profile_names import (
    ALIASES,
    DEFAULT_PROFILE,
    NAMES,
    UnknownRuntime,
    known_names,
)
from flowctx_core.model.source_types import SOURCE_TYPES

#: how a contract file is read and what happens to a plan with one invalid definition
InvalidPlan = Literal["refuse", "empty_plan", "per_definition"]
#: config sources: ``env_only`` is ``getenv(env_var) if env_var else default`` (shipped code);
#: ``env_then_default`` falls back to the default when the variable is unset (documented)
ConfigRule = Literal["env_only", "env_then_default"]
#: a folder under ``workflows/`` is a workflow when it holds one of these files
#: (``None``: every folder is one)
Discovery = tuple[str, ...] | None


@dataclass(frozen=True)
class ContractRules:
    """How ``context_variables.yaml`` is parsed and validated."""

    #: ``definitions``/``agents`` may be lists of entries with a name (the older runtime)
    accepts_lists: bool
    #: unknown keys: ``forbid`` fails validation, ``ignore`` drops them silently
    extra: Literal["forbid", "ignore"]
    invalid_plan: InvalidPlan
    source_types: tuple[str, ...]
    trigger_types: tuple[str, ...]
    #: trigger requirements (agent_text needs agent and match ...) and match needs one rule
    trigger_rules: bool
    #: ``agents.<A>.variables`` naming an undeclared variable fails validation
    agent_refs_checked: bool
    #: a ``context_variables`` wrapper key at the root is unwrapped (older runtime)
    unwraps_root: bool
    #: names the runtime reserves: exact names and prefixes
    reserved_names: frozenset[str] = frozenset()
    reserved_prefixes: tuple[str, ...] = ()
    #: the runtime's source model types its fields (write_strategy's values, retry a mapping...)
    typed_sources: bool = True
    #: the definition's authority metadata is typed (authority_class, writer_ids, routing...)
    typed_authority: bool = True
    #: persisted values pass the authority policy's type check (authority.py
    #: ``require_replayable_value``): a wrongly typed value fails the persist
    persist_type_guard: bool = False


@dataclass(frozen=True)
class SourceRules:
    """How each source type resolves at load."""

    config: ConfigRule
    #: ``required: true`` with a default given fails when the env var is unset
    config_required_ignores_default: bool
    #: the Mongo adapter returns None when the source names no ``database_name``
    data_reference_needs_database_name: bool
    #: ``MOZAIKS_CONTEXT_FALLBACKS_FILE`` is consulted for data_reference values left None
    data_reference_fallbacks: bool
    #: what a data_entity with no collection/database does: ``absent`` (warning, key unset)
    data_entity_incomplete: Literal["absent", "error"]
    #: what a data_entity puts in the context when it loads
    data_entity_value: Literal["placeholder", "manager"]
    #: a file source that fails to parse: ``none`` (the loader catches it) or ``default``
    file_parse_error: Literal["none", "default"]
    #: build_context variables exist in this runtime
    build_context: bool
    #: protected (trusted) build-context projection, load_trusted_build_context: a declared
    #: build_context variable takes only a static source (a dotted path, {from} or {value});
    #: lists projected by several registries are merged; a launch value must equal it
    build_context_trusted: bool = False
    #: prompt projections reach an agent only through middleware.yaml, from every registry
    #: under the reader's folders (flowctx_core.buildctx.injection); else from the admitted
    #: registries
    prompt_via_middleware: bool = False
    #: the source types whose loaded value (a default and a fallback included) is coerced to
    #: the declared boolean or integer type (``flowctx_core.base.coercion``)
    coerced: frozenset[str] = frozenset({"config", "state"})


@dataclass(frozen=True)
class RoutingRules:
    #: which condition engine reads each routing file (the condition-engines issue)
    engines: Mapping[str, str]
    #: a ``condition_key`` the contract does not declare fails graph compilation
    condition_key_declared: bool
    #: a source with no matching rule: the run ends with this reason
    no_rule: str = "no_transition_matched"
    #: the order a source's ``transition_rules`` are tried in: ``file`` (position is
    #: priority) or ``conditions_first`` (every condition rule, then every ``after_turn``
    #: fallback, each group in file order)
    order: Literal["file", "conditions_first"] = "file"
    #: which tool a ``tool_called`` rule reads: ``any`` (every tool called this turn) or
    #: ``first_graph_tool`` (the first tool called, in call order, that a ``tool_called`` rule
    #: of the graph names; the rest are not routed on)
    tool_routing: Literal["any", "first_graph_tool"] = "any"


@dataclass(frozen=True)
class RuntimeProfile:
    name: str
    title: str
    #: the public code it reproduces: repository, commit and date
    repository: str
    commit: str
    date: str
    contract: ContractRules
    sources: SourceRules
    routing: RoutingRules
    discovery: Discovery
    #: the profile whose behaviour the documentation promises (for disagreement notes)
    documented: str | None = "spec"
    notes: tuple[str, ...] = field(default=())
    #: the published release it reproduces (its version), when it is one
    release: str | None = None
    #: the release reads ``type: runtime`` sources from the launch's runtime context
    runtime_context: bool = False
    #: the release's workflow manager: strict orchestrator.yaml/agents.yaml, agents only from
    #: agents.yaml, the load-time contract validation and the authority policy
    strict_workflow_files: bool = False
    #: routing files this runtime never opens (shown as not read)
    unread_files: tuple[str, ...] = ()
    #: what the agent factory appends to a prompt: ``all_listed`` every variable the agent
    #: lists, de-duplicated; ``model_visible`` only model-visible ones (documented); ``none``
    prompt_exposure: Literal["all_listed", "model_visible", "none"] = "model_visible"
    #: what a matching text trigger sets: ``capture`` the regex's first group (else true), as
    #: documented; ``true`` always true (mozaiks 0.2.0: derived.py builds every declared text
    #: trigger with value=True)
    text_trigger_value: Literal["capture", "true"] = "capture"

    @property
    def label(self) -> str:
        """``mozaiks 0.2.0 (2026-10)`` for a release; else ``name (repository commit, date)``."""
        if self.release is not None:
            return f"mozaiks {self.release} ({self.date})"
        return f"{self.name} ({self.repository} {self.commit[:7]}, {self.date})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "repository": self.repository,
            "commit": self.commit,
            "date": self.date,
        }
        if self.release is not None:
            out["release"] = self.release
        return out

    def source_type_fix(self, tag: str) -> Fix | None:
        """The known source type a misspelt ``tag`` is closest to, as a check's fix."""
        from flowctx_core.base.diagnostics import suggest

        return suggest(tag, self.contract.source_types).fix

    def unknown_source_type(self, tag: str) -> str:
        """Why this runtime refuses a definition whose source type it does not know."""
        from flowctx_core.base.diagnostics import did_you_mean

        accepted = ", ".join(self.contract.source_types)
        hint = did_you_mean(tag, self.contract.source_types)
        if self.repository == "documentation":
            return f"source type {tag!r} is not documented{hint} (the contract lists {accepted})"
        where = (
            f"mozaiks {self.release}" if self.release else f"{self.repository} {self.commit[:7]}"
        )
        newer = next((p for p in PROFILES.values() if tag in p.contract.source_types), None)
        return (
            f"source type {tag!r} is refused by runtime {self.name}{hint}: its contract model "
            f"({where}) accepts only {accepted}, so the runtime's validation fails here"
            + (
                f"; runtime {newer.name} reads it"
                if newer is not None and newer is not self and self.repository != "documentation"
                else ""
            )
        )

    def reserved(self, name: str) -> str | None:
        """Why the runtime refuses ``name`` as a context variable, or None."""
        key = name.strip()
        if key in self.contract.reserved_names:
            return f"'{key}' is reserved runtime vocabulary"
        for prefix in self.contract.reserved_prefixes:
            if key.startswith(prefix):
                return f"names starting '{prefix}' are reserved by AG2"
        return None


# the eight documented source types, in the contract's order (the older runtime lacks the last)
_ALL_SOURCES = SOURCE_TYPES
_ENGINES = MappingProxyType(
    {
        # transition_graph.yaml context_expression: Mozaiks' own value-comparing evaluator
        TRANSITIONS_FILE: "mozaiks-expression",
        # handoffs.yaml: AG2 ContextExpression (text substitution), ag2 0.14.0
        HANDOFFS_FILE: "ag2-context-expression",
        FLOW_FILE: "mj-safe-expression",
    }
)

#: the release published as ``mozaiks==0.2.0`` (2026-10): package ``mozaiksai`` and its
#: ``factory_app/``; every fact below is read from that release's code
MOZAIKS_0_2_0 = RuntimeProfile(
    name="mozaiks-0.2.0",
    title="mozaiks 0.2.0 (2026-10), the published runtime",
    repository="BlocUnited-LLC/mozaiks",
    commit="0.2.0",
    date="2026-10",
    release="0.2.0",
    runtime_context=True,
    strict_workflow_files=True,
    # mozaiks 0.2.0, mozaiksai/core/workflow/workflow_manager.py _load_modular_workflow_config:
    # orchestrator, agents, transition_graph, context_variables, structured_outputs,
    # middleware, a2a, tools and ui_config; handoffs.yaml is never opened
    unread_files=("handoffs.yaml",),
    # mozaiks 0.2.0, mozaiksai/core/workflow/agents/factory.py create_agents ->
    # context/context_utils.py apply_context_exposures: every listed variable (schema.py
    # ContextAgentView de-duplicates the list), model_visible is not consulted
    prompt_exposure="all_listed",
    # mozaiks 0.2.0, mozaiksai/core/workflow/context/derived.py: AgentTextTrigger and
    # UserTextBinding are built with value=True; a '$1' capture is never declared
    text_trigger_value="true",
    contract=ContractRules(
        accepts_lists=False,
        extra="forbid",
        # mozaiks 0.2.0, mozaiksai/core/workflow/context/schema.py: the whole plan is one model;
        # variables.py lets its ValueError end the load
        invalid_plan="refuse",
        # schema.py ContextVariableSource.type: the eight documented types and 'runtime'
        source_types=(*_ALL_SOURCES, "runtime"),
        trigger_types=("agent_text", "ui_response", "user_text"),
        trigger_rules=True,
        agent_refs_checked=True,
        unwraps_root=False,
        # mozaiks 0.2.0, mozaiksai/core/workflow/reserved_context_keys.py
        reserved_names=frozenset({"structured_output"}),
        reserved_prefixes=("ag:", "a2a:"),
        persist_type_guard=True,
    ),
    sources=SourceRules(
        # mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py _resolve_config
        config="env_only",
        config_required_ignores_default=True,
        data_reference_needs_database_name=True,
        data_reference_fallbacks=True,
        # variables.py _create_data_entity_manager: "Skipping data_entity ..." and no key
        data_entity_incomplete="absent",
        data_entity_value="placeholder",
        file_parse_error="none",
        build_context=True,
        build_context_trusted=True,
        prompt_via_middleware=True,
        # variables.py: _resolve_config, _resolve_state_default, _resolve_file_source (its
        # default too) and _load_data_reference_value (document, field, default) and the
        # fallback each pass through _coerce_value
        coerced=frozenset({"config", "state", "file", "data_reference"}),
    ),
    # mozaiks 0.2.0, mozaiksai/core/workflow/execution/network_graph.py
    # compile_transition_rules_to_graph: a condition rule's priority is its position, an
    # after_turn rule's len(rules) + position; AG2's WorkflowAdapter tries them by priority.
    # The turn's routing tool is the first call whose name a graph rule names
    # (ag2/network/adapters/workflow.py _resolve_routing), and ToolCalled compares that one.
    routing=RoutingRules(
        engines=_ENGINES,
        condition_key_declared=True,
        order="conditions_first",
        tool_routing="first_graph_tool",
    ),
    # mozaiks 0.2.0, mozaiksai/core/workflow/paths.py discover_workflow_paths: a folder is a
    # workflow only with orchestrator.yaml (not a dot-folder, not extended_orchestration)
    discovery=("orchestrator.yaml",),
)
#: the newest release profile
MOZAIKS = MOZAIKS_0_2_0

#: the older runtime the first public workflows shipped with (list-shaped contracts)
MOZAIKS_2026_01 = RuntimeProfile(
    name="mozaiks-2026-01",
    title="Mozaiks runtime of January 2026 (mozaiks-ai, list-shaped contracts)",
    repository="BlocUnited-LLC/mozaiks-ai",
    commit="169b28704442ecd54caf228734fa38e8031d76a4",
    date="2026-01-17",
    # agents/factory.py applies exposures only when _mozaiks_context_exposures is set, which
    # that runtime's loader never sets: no VAR: value block
    prompt_exposure="none",
    contract=ContractRules(
        accepts_lists=True,
        # pydantic's default: unknown keys (db_type, ...) are dropped at every level
        extra="ignore",
        # a ValueError is logged as a warning and an empty ContextVariablesPlan is used
        invalid_plan="empty_plan",
        source_types=_ALL_SOURCES[:-1],
        trigger_types=("agent_text", "ui_response"),
        trigger_rules=False,
        agent_refs_checked=False,
        unwraps_root=True,
        # its definition model had no authority metadata: those keys are ignored
        typed_authority=False,
    ),
    sources=SourceRules(
        config="env_only",
        config_required_ignores_default=True,
        data_reference_needs_database_name=True,
        data_reference_fallbacks=False,
        data_entity_incomplete="absent",
        data_entity_value="manager",
        file_parse_error="none",
        build_context=False,
    ),
    routing=RoutingRules(engines=_ENGINES, condition_key_declared=False),
    discovery=("orchestrator.yaml", "tools.yaml"),
)

#: the documented contract, where it differs from the shipped code
SPEC = RuntimeProfile(
    name="spec",
    title="The documented context-variables contract",
    repository="documentation",
    commit="001_6d6b2107939f9cef",
    date="as documented",
    contract=ContractRules(
        accepts_lists=False,
        extra="forbid",
        # the documentation reports each definition on its own
        invalid_plan="per_definition",
        source_types=_ALL_SOURCES,
        trigger_types=("agent_text", "ui_response", "user_text"),
        trigger_rules=True,
        agent_refs_checked=True,
        unwraps_root=False,
        # the documentation names the fields, not their types
        typed_sources=False,
        typed_authority=False,
    ),
    sources=SourceRules(
        config="env_then_default",
        config_required_ignores_default=False,
        data_reference_needs_database_name=False,
        data_reference_fallbacks=True,
        data_entity_incomplete="error",
        data_entity_value="placeholder",
        file_parse_error="default",
        build_context=True,
    ),
    routing=RoutingRules(engines=_ENGINES, condition_key_declared=False),
    discovery=None,
    documented=None,
)

PROFILES: Mapping[str, RuntimeProfile] = MappingProxyType(
    {p.name: p for p in (MOZAIKS_0_2_0, MOZAIKS_2026_01, SPEC)}
)
if (
    tuple(PROFILES) != NAMES
    or MOZAIKS.name != ALIASES["mozaiks"]
    or MOZAIKS.name != DEFAULT_PROFILE
):
    raise ImportError("profile_names does not name the shipped profiles")  # caught by any test


def get_profile(name: str | None) -> RuntimeProfile:
    """The profile called ``name`` (the default for None); UnknownRuntime lists the names."""
    if name is None or name == "":
        return MOZAIKS
    key = name.strip().lower()
    profile = PROFILES.get(ALIASES.get(key, key))
    if profile is None:
        from flowctx_core.base.diagnostics import did_you_mean

        hint = did_you_mean(name, [*PROFILES, *ALIASES])
        raise UnknownRuntime(f"unknown runtime '{name}'{hint}; known runtimes: {known_names()}")
    return profile
