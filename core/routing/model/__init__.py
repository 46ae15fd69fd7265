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

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flowctx_core.base.diagnostics import Diagnostic, sort_key
from flowctx_core.base.lazyexports import lazy_getattr
from flowctx_core.base.pathsafety import present
from flowctx_core.base.yamlmarks import YamlDoc, load_yaml_file
from flowctx_core.model.filenames import FLOW_FILE, HANDOFFS_FILE, TRANSITIONS_FILE
from flowctx_core.model.profiles import MOZAIKS, RuntimeProfile
from flowctx_core.model.workspace import display_path, outside_workspace
from flowctx_core.routing.model.common import (
    CONDITION_SCOPES,
    CONDITION_TYPES,
    EXPRESSION_CONDITION_TYPES,
    HANDOFF_CONDITION_TYPES,
    HANDOFF_TERMINATE_ALIASES,
    HANDOFF_TYPES,
    HANDOFF_USER_ALIASES,
    PRE_SCOPES,
    SHAPE_NAMES,
    STEP_STATUSES,
    STEP_TYPES,
    TARGET_TYPES,
    TRANSITION_RULES_KEY,
    TRANSITION_TYPES,
    TRANSITIONS_KEY,
    USER_ALIASES,
    WORDING,
    ConditionScope,
    ConditionType,
    Entry,
    HandoffConditionType,
    HandoffType,
    RoutingModel,
    Shape,
    StepStatus,
    StepType,
    TargetType,
    TransitionType,
    entries,
    kind_of,
    lower_text,
    optional_text,
    top_mapping,
)

if TYPE_CHECKING:
    from flowctx_core.routing.model.flow import (
        FlowFile,
        FlowPath,
        FlowStep,
        parse_flow,
    )
    from flowctx_core.routing.model.handoffs import (
        HandoffRule,
        HandoffsFile,
        handoff_problems,
        parse_handoffs,
    )
    from flowctx_core.routing.model.transition_graph import (
        BriefTransitionRule,
        Target,
        TransitionGraphFile,
        TransitionRule,
        TransitionRuleSpec,
        is_user,
        parse_transition_graph,
        rule_problems,
        rule_warnings,
        target_problems,
    )

#: the three file models, imported when a workflow has that file (or a caller names them):
#: reading a workspace without routing files must not pay for building their model classes
_LAZY = {
    "FlowFile": "flowctx_core.routing.model.flow",
    "FlowPath": "flowctx_core.routing.model.flow",
    "FlowStep": "flowctx_core.routing.model.flow",
    "parse_flow": "flowctx_core.routing.model.flow",
    "HandoffRule": "flowctx_core.routing.model.handoffs",
    "HandoffsFile": "flowctx_core.routing.model.handoffs",
    "handoff_problems": "flowctx_core.routing.model.handoffs",
    "parse_handoffs": "flowctx_core.routing.model.handoffs",
    "BriefTransitionRule": "flowctx_core.routing.model.transition_graph",
    "Target": "flowctx_core.routing.model.transition_graph",
    "TransitionGraphFile": "flowctx_core.routing.model.transition_graph",
    "TransitionRule": "flowctx_core.routing.model.transition_graph",
    "TransitionRuleSpec": "flowctx_core.routing.model.transition_graph",
    "is_user": "flowctx_core.routing.model.transition_graph",
    "parse_transition_graph": "flowctx_core.routing.model.transition_graph",
    "rule_problems": "flowctx_core.routing.model.transition_graph",
    "rule_warnings": "flowctx_core.routing.model.transition_graph",
    "target_problems": "flowctx_core.routing.model.transition_graph",
}


__getattr__ = lazy_getattr(__name__, _LAZY)


@dataclass(frozen=True)
class Routes:
    """The routing files of one workflow (each ``None`` when absent) and their load problems."""

    workflow: str
    flow: FlowFile | None = None
    transitions: TransitionGraphFile | None = None
    handoffs: HandoffsFile | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    #: the runtime that reads these files: the order it tries rules in, the files it never
    #: opens (every decision, graph, test and coverage reads it from here)
    runtime: RuntimeProfile = field(default=MOZAIKS, compare=False)

    def unread(self, name: str) -> str:
        """Why the runtime never reads routing file ``name`` ("" when it does)."""
        if name in self.runtime.unread_files:
            return f"runtime {self.runtime.name} never reads {name}: its rules route nothing"
        return ""

    @property
    def empty(self) -> bool:
        return self.flow is None and self.transitions is None and self.handoffs is None

    def why_empty(self, *, shown_above: bool = False) -> str:
        """What to say when :attr:`empty`: no routing file, or one that could not be read
        (its errors are in :attr:`diagnostics`), which "has no routing file" contradicted;
        ``shown_above``: the errors were just printed, so they are pointed at, not repeated."""
        errors = [d for d in self.diagnostics if d.severity == "error"]
        if errors:
            more = f" and {len(errors) - 1} more error(s)" if len(errors) > 1 else ""
            said = "the error(s) above" if shown_above else f"{errors[0].format()}{more}"
            return f"workflow '{self.workflow}' has no routing file flowctx could read ({said})"
        return (
            f"workflow '{self.workflow}' has no routing file "
            "(flow.yaml, transition_graph.yaml or handoffs.yaml)"
        )


def _load(folder: Path, root: Path, name: str) -> tuple[YamlDoc | None, list[Diagnostic], bool]:
    path = folder / name
    if not present(path):  # not exists(): it raises in a folder that cannot be searched
        return None, [], False
    escape = outside_workspace(path, root)
    if escape is not None:
        return None, [Diagnostic(display_path(path, root), 0, 0, escape, code="yaml")], True
    doc, problems = load_yaml_file(path, display_path(path, root))
    return doc, problems, True


def load_routes_from(
    folder: Path, root: Path, workflow: str, runtime: RuntimeProfile = MOZAIKS
) -> Routes:
    """Read and validate the routing files in ``folder`` as ``runtime`` reads them; never
    raises for bad content."""
    diags: list[Diagnostic] = []
    parsed: dict[str, Any] = {}
    for name, module in (
        (FLOW_FILE, "flowctx_core.routing.model.flow"),
        (TRANSITIONS_FILE, "flowctx_core.routing.model.transition_graph"),
        (HANDOFFS_FILE, "flowctx_core.routing.model.handoffs"),
    ):
        doc, problems, present = _load(folder, root, name)
        if not present:
            continue
        parse = {
            FLOW_FILE: "parse_flow",
            TRANSITIONS_FILE: "parse_transition_graph",
            HANDOFFS_FILE: "parse_handoffs",
        }[name]
        parse_fn = getattr(importlib.import_module(module), parse)
        if doc is None:
            # unreadable or not YAML: keep the problems, route nothing from this file
            diags.extend(problems)
            continue
        result = parse_fn(doc, problems)
        diags.extend(sorted(result.diagnostics, key=sort_key))
        parsed[name] = result
    return Routes(
        workflow,
        parsed.get(FLOW_FILE),
        parsed.get(TRANSITIONS_FILE),
        parsed.get(HANDOFFS_FILE),
        tuple(diags),
        runtime,
    )


__all__ = [
    "CONDITION_SCOPES",
    "CONDITION_TYPES",
    "EXPRESSION_CONDITION_TYPES",
    "HANDOFF_CONDITION_TYPES",
    "HANDOFF_TERMINATE_ALIASES",
    "HANDOFF_TYPES",
    "HANDOFF_USER_ALIASES",
    "PRE_SCOPES",
    "SHAPE_NAMES",
    "STEP_STATUSES",
    "STEP_TYPES",
    "TARGET_TYPES",
    "TRANSITIONS_KEY",
    "TRANSITION_RULES_KEY",
    "TRANSITION_TYPES",
    "USER_ALIASES",
    "WORDING",
    "BriefTransitionRule",
    "ConditionScope",
    "ConditionType",
    "Entry",
    "FlowFile",
    "FlowPath",
    "FlowStep",
    "HandoffConditionType",
    "HandoffRule",
    "HandoffType",
    "HandoffsFile",
    "Routes",
    "RoutingModel",
    "Shape",
    "StepStatus",
    "StepType",
    "Target",
    "TargetType",
    "TransitionGraphFile",
    "TransitionRule",
    "TransitionRuleSpec",
    "TransitionType",
    "entries",
    "handoff_problems",
    "is_user",
    "kind_of",
    "load_routes_from",
    "lower_text",
    "optional_text",
    "parse_flow",
    "parse_handoffs",
    "parse_transition_graph",
    "rule_problems",
    "rule_warnings",
    "target_problems",
    "top_mapping",
]
