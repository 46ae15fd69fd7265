"""``flow.yaml`` (MemberJunction flow agent): steps and paths."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pydantic import (
    Field,
    StrictBool,
    StrictInt,
)

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.yamlmarks import YamlDoc
from flowctx_core.routing.model.common import (
    Entry,
    RoutingModel,
    StepStatus,
    StepType,
    document_keys,
    entries,
    grouped,
    top_mapping,
)


class FlowStep(RoutingModel):
    """AIAgentStep: Name, StepType, StartingStep, Status, Description."""

    name: str
    type: StepType
    starting: StrictBool = False
    status: StepStatus = "Active"
    description: str | None = None


class FlowPath(RoutingModel):
    """AIAgentStepPath: OriginStepID, DestinationStepID, Condition, Priority, Description."""

    from_: str = Field(alias="from")
    to: str
    condition: str | None = None
    # strict: a quoted "10" or a YAML ``true`` is an authoring mistake, not a priority
    priority: StrictInt = 0
    description: str | None = None


class FlowDocument(RoutingModel):
    """The file as a whole. ``parse_flow`` takes its keys from here and validates each entry
    on its own (one bad step never hides the others); ``flowctx schema flow`` is this model."""

    #: a display name
    agent: str | None = None
    # routing's flow_problems: "the flow has no steps" is an error
    steps: list[FlowStep] = Field(min_length=1)
    paths: list[FlowPath] = Field(default_factory=list)


@dataclass(frozen=True)
class FlowFile:
    file: str
    doc: YamlDoc | None
    agent: str | None
    steps: tuple[Entry[FlowStep], ...]
    paths: tuple[Entry[FlowPath], ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    # The file is immutable, so its indexes are worked out once: routing and drawing ask
    # them once per source, which made a step with thousands of paths quadratic.
    # (cached_property writes the instance dict directly, which a frozen dataclass allows.)
    @cached_property
    def _steps_by_name(self) -> dict[str, FlowStep]:
        found: dict[str, FlowStep] = {}
        for entry in self.steps:
            if entry.model is not None:
                found.setdefault(entry.model.name, entry.model)  # the first one, as before
        return found

    def step(self, name: str) -> FlowStep | None:
        return self._steps_by_name.get(name)

    @cached_property
    def step_names(self) -> tuple[str, ...]:
        return tuple(self._steps_by_name)

    @cached_property
    def paths_by_origin(self) -> dict[Any, tuple[Entry[FlowPath], ...]]:
        """Every path entry (valid or not) by the step it leaves, in file order."""

        def origin(entry: Entry[FlowPath]) -> Any:
            if entry.model is not None:
                return entry.model.from_
            return entry.raw.get("from") if isinstance(entry.raw, dict) else None

        return grouped(self.paths, origin)


def parse_flow(doc: YamlDoc, problems: list[Diagnostic] | None = None) -> FlowFile:
    diags = list(problems or [])
    data = top_mapping(doc, *document_keys(FlowDocument), diags)
    agent = data.get("agent")
    if agent is not None and not isinstance(agent, str):
        diags.append(doc.diag(("agent",), "agent must be a string (a display name)", key=False))
        agent = None
    steps = entries(doc, "steps", data, FlowStep, diags)
    paths = entries(doc, "paths", data, FlowPath, diags)
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
