"""``orchestrator.yaml`` and ``agents.yaml`` as mozaiks 0.2.0's workflow manager reads them.

mozaiks 0.2.0, mozaiksai/core/workflow/workflow_manager.py ``_load_modular_workflow_config``
requires ``orchestrator.yaml`` and validates it (and every other file it reads) with the strict
models of mozaiksai/core/workflow/declarative/contracts.py: any error refuses the workflow at
load. ``_validate_orchestrator_contract`` then requires ``workflow_name`` to equal the folder's
name (case-insensitively) and a known ``workflow_startup_mode``. Agents come from ``agents.yaml``
only (agents/factory.py ``create_agents``); without one the run fails with ``No agents defined
for workflow '<name>'`` (orchestration_patterns.py).

Only the fields those models type are reproduced; nested objects the runtime validates further
(``image_generation``, orchestrator ``triggers``) are checked for their shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator

from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.pathsafety import present
from flowctx_core.base.yamlmarks import load_yaml_file
from flowctx_core.model.validation import Strict, located_errors

ORCHESTRATOR_FILE = "orchestrator.yaml"
AGENTS_FILE = "agents.yaml"
#: workflow_manager.py ``_ALLOWED_STARTUP_MODES``
STARTUP_MODES = ("AgentDriven", "UserDriven", "BackendOnly")


def _required(value: Any, name: str) -> str:
    text = str(value or "").strip()
    if not text:
        raise ValueError(f"{name} must be non-empty")
    return text


class OrchestratorDoc(Strict):
    """contracts.py ``OrchestratorConfig``."""

    schema_version: Literal["mozaiks.orchestrator.v1"]
    workflow_name: str
    max_turns: int = Field(default=50, ge=1, le=500)
    human_in_the_loop: bool = False
    workflow_startup_mode: Literal["AgentDriven", "UserDriven", "BackendOnly"]
    orchestration_pattern: str = "ag2_network"
    initial_message: str | None = None
    initial_agent: str | None = None
    failure_message_key: str | None = None
    triggers: list[dict[str, Any]] = Field(default_factory=list)

    @field_validator("workflow_name", "orchestration_pattern")
    @classmethod
    def _text(cls, value: Any) -> str:
        return _required(value, "the field")


class PromptSection(Strict):
    id: str | None = None
    heading: str
    content: str


class AgentSpec(Strict):
    """contracts.py ``AgentSpec``: prompt fields, and ``structured_outputs_required``."""

    name: str
    prompt_sections: list[PromptSection] = Field(default_factory=list)
    prompt_sections_custom: list[PromptSection] = Field(default_factory=list)
    system_message: str | None = None
    description: str | None = None
    human_input_mode: str | None = None
    max_consecutive_auto_reply: int = Field(default=2, ge=0)
    pending_turn_replay: Literal["allow", "block"] = "allow"
    structured_outputs_required: bool
    multimodal_inputs_enabled: bool = False
    image_generation_enabled: bool = False
    image_generation: dict[str, Any] | None = None
    sandbox_shell: bool = False
    web_search: bool = False
    web_fetch: bool = False
    duck_search: bool = False

    @field_validator("name")
    @classmethod
    def _name(cls, value: Any) -> str:
        return _required(value, "name")

    @model_validator(mode="after")
    def _prompt(self) -> AgentSpec:
        if not (self.prompt_sections or self.prompt_sections_custom or self.system_message):
            raise ValueError(
                f"agent '{self.name}' must provide prompt_sections/prompt_sections_custom or "
                "system_message"
            )
        return self


class AgentsDoc(Strict):
    agents: list[AgentSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unique(self) -> AgentsDoc:
        names = [a.name for a in self.agents]
        if len(names) != len(set(names)):
            raise ValueError("agents contains duplicate agent names")
        return self


@dataclass(frozen=True)
class WorkflowFiles:
    """What the workflow manager makes of a workflow's orchestrator.yaml and agents.yaml."""

    orchestrator: bool
    #: the errors that refuse the workflow at load, located
    problems: tuple[Diagnostic, ...] = ()
    agents_file: bool = False
    #: agents.yaml's agent names, in order (empty without the file)
    agents: tuple[str, ...] = ()
    #: agents.yaml's file name as shown (for a located "no agents" problem)
    display: str = ""
    #: agents.yaml is absent or its model accepts it (else the workflow manager refuses it)
    agents_valid: bool = True
    #: the keys extended_orchestration/task_batches.yaml's batches write (results, statuses,
    #: recovery outcomes): routing state a task batch may write
    task_batch_keys: frozenset[str] = frozenset()
    #: orchestrator.yaml's turn cap (the model's default, 50, when it says none) and first
    #: speaker, when the file reads
    max_turns: int | None = None
    initial_agent: str | None = None


def _read(
    folder: Path, root: Path, name: str, model: type[Strict]
) -> tuple[bool, Any, list[Diagnostic], str]:
    path = folder / name
    try:
        display = path.relative_to(root).as_posix()
    except ValueError:
        display = str(path)
    if not present(path):
        return False, None, [], display
    doc, problems = load_yaml_file(path, display)
    if doc is None:
        return True, None, [p if p.code else _coded(p) for p in problems], display
    data = {} if doc.data is None else doc.data
    if not isinstance(data, dict):
        msg = f"Invalid {name} configuration: root must be an object"
        return True, None, [doc.diag((), msg, code="workflow-files")], display
    try:
        parsed = model.model_validate(data)
    except ValidationError as exc:
        found = located_errors(exc, doc, (), model, data)
        return True, None, [_coded(d) for d in found], display
    return True, (parsed, doc), problems, display


def _coded(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    return replace(d, code="workflow-files")


def load_workflow_files(folder: Path, root: Path, name: str) -> WorkflowFiles:
    problems: list[Diagnostic] = []
    has_orch, orch, found, _ = _read(folder, root, ORCHESTRATOR_FILE, OrchestratorDoc)
    problems += found
    if orch is not None:
        parsed, doc = orch
        declared = parsed.workflow_name.strip()
        if declared.lower() != folder.name.lower():
            # workflow_manager.py _validate_orchestrator_contract, its own message
            problems.append(
                doc.diag(
                    ("workflow_name",),
                    f"Workflow '{folder.name}' has mismatched workflow_name '{declared}' in "
                    "orchestrator.yaml",
                    key=False,
                    code="workflow-files",
                )
            )
    has_agents, agents, found, display = _read(folder, root, AGENTS_FILE, AgentsDoc)
    problems += found
    names = tuple(a.name for a in agents[0].agents) if agents is not None else ()
    valid = not has_agents or agents is not None
    return WorkflowFiles(
        has_orch,
        tuple(problems),
        has_agents,
        names,
        display,
        valid,
        _task_batch_keys(folder),
        orch[0].max_turns if orch is not None else None,
        (orch[0].initial_agent or "").strip() or None if orch is not None else None,
    )


def _task_batch_keys(folder: Path) -> frozenset[str]:
    """mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py ``_task_batch_context_keys``:
    each batch's result and status keys and its recovery's outcome and status keys; a file
    that does not read as batches gives none (the runtime swallows the error)."""
    path = folder / "extended_orchestration" / "task_batches.yaml"
    if not present(path):
        return frozenset()
    doc, _ = load_yaml_file(path, path.name)
    data = doc.data if doc is not None and isinstance(doc.data, dict) else None
    if data is None:
        return frozenset()
    batches = data.get("batches") or []
    conveyors = data.get("conveyors") or []
    if not isinstance(batches, list) or not isinstance(conveyors, list):
        return frozenset()
    keys: set[str] = set()
    for batch in batches:
        if not isinstance(batch, dict):
            return frozenset()
        for part, names in (
            ("result", ("context_key", "status_key")),
            ("recovery", ("outcome_key", "status_key")),
        ):
            section = batch.get(part)
            if isinstance(section, dict):
                keys.update(str(section[n]) for n in names if section.get(n))
    # task_batches.py TaskBatchConveyor.to_batch_spec: a conveyor writes <id>_results and
    # <id>_status
    for conveyor in conveyors:
        if not isinstance(conveyor, dict) or not conveyor.get("id"):
            return frozenset()
        keys.update({f"{conveyor['id']}_results", f"{conveyor['id']}_status"})
    return frozenset(keys)
