"""Resolution results: rows with provenance, as frozen data.

Status vocabulary shared by the CLI and the app:
``resolved`` primary source answered; ``default`` (``source.default``, or a state's starting
value); ``fallback`` (fallbacks file); ``missing`` nothing answered (no env var, document,
file, default or fallback), so the value is None; ``pending`` None by design at load;
``error`` the variable failed.
Trace outcomes: ``used``, ``shadowed``, ``missing``, ``skipped``, ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from flowctx_core.base.diagnostics import Diagnostic, location

Status = Literal["resolved", "default", "fallback", "missing", "pending", "error"]
Outcome = Literal["used", "shadowed", "missing", "skipped", "error"]

STATUSES: tuple[Status, ...] = ("resolved", "default", "fallback", "missing", "pending", "error")


@dataclass(frozen=True, slots=True)
class Loc:
    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        return location(self.file, self.line, self.column)


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step tried while resolving a variable, in order."""

    step: str
    outcome: Outcome
    detail: str = ""

    def to_json(self) -> dict[str, str]:
        return {"step": self.step, "outcome": self.outcome, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Row:
    """One context variable of a workflow, as the runtime will see it at load."""

    name: str
    type: str
    source: str
    status: Status
    value: Any
    origin: str
    trace: tuple[TraceStep, ...] = ()
    warnings: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    error: str | None = None
    loc: Loc | None = None
    secret: bool = False
    definition: Any = None
    description: str | None = None


#: the origin of a row whose key the runtime never sets (a data_entity it skips): the value
#: shown is None, and the context has no such key at all
ABSENT_ORIGIN = "absent (no manager)"

#: the stages of the runtime's start-up, in its order (mozaiks 0.2.0: workflow_manager.py
#: discovery and strict files with contract validation, the authority policy, the launch's
#: registries, variables.py's context load, agents/factory.py, network_graph.py's compile)
STAGES = ("discovery", "workflow_manager", "authority", "launch", "context", "agents", "graph")
#: each stage as a sentence says it
STAGE_NAMES = {
    "discovery": "discovery",
    "workflow_manager": "workflow manager",
    "authority": "authority policy",
    "launch": "launch",
    "context": "context load",
    "agents": "agents",
    "graph": "graph compile",
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """The runtime would not load this workflow's context as written.

    ``outcome`` says what it does instead: ``refused`` (the load fails: the newest runtime
    validates the whole plan at once) or ``empty_plan`` (the older runtime logs a warning and
    loads no variable at all). Rows that can still be resolved are shown beside it.
    """

    reason: str
    file: str
    line: int = 0
    column: int = 0
    #: ``launch_fails``: the context loads, but the build-context provider raises at launch;
    #: ``compile_fails``: everything loads, but the transition graph does not compile
    outcome: Literal["refused", "empty_plan", "launch_fails", "compile_fails"] = "refused"
    #: the workflow whose launch fails (a registry's file does not name it)
    workflow: str = ""
    #: the runtime's stage that decides (``STAGES``); empty: the outcome's usual stage
    stage: str = ""

    @property
    def decided_by(self) -> str:
        """The stage of the runtime's start-up that refuses, in the runtime's order (STAGES)."""
        if self.stage:
            return self.stage
        return {
            "launch_fails": "launch",
            "compile_fails": "graph",
            "empty_plan": "context",
        }.get(self.outcome, "workflow_manager")

    @property
    def stage_name(self) -> str:
        return STAGE_NAMES.get(self.decided_by, self.decided_by)

    def to_json(self) -> dict[str, object]:
        from flowctx_core.base.secrets import mask_text

        return {
            "reason": mask_text(self.reason),
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "outcome": self.outcome,
            "stage": self.decided_by,
        }

    def headline(self, runtime: str = "the runtime") -> str:
        """One line for the top of the matrix, check and the app's status line."""
        where = location(self.file, self.line, self.column)
        if self.outcome == "empty_plan":
            what = f"REFUSED: {runtime} would load an empty context plan (no variable is set)"
        elif self.outcome == "launch_fails":
            what = f"REFUSED: {runtime} would fail the launch{self._of()} (build context)"
        elif self.outcome == "compile_fails":
            what = f"REFUSED: {runtime} would not compile this workflow's graph (graph compile)"
        elif self.stage:
            what = f"REFUSED: {runtime} would not load this workflow ({self.stage_name})"
        else:
            what = f"REFUSED: {runtime} would not load this workflow's context"
        return f"{what}: {where}: {self.reason}"

    def _of(self) -> str:
        return f" of {self.workflow}" if self.workflow else ""

    def short(self, runtime: str = "the runtime") -> str:
        """The refusal without its reason (check prints the error itself below it)."""
        what = {
            "empty_plan": "would load an empty context plan",
            "launch_fails": f"would fail the launch{self._of()} (build context)",
            "compile_fails": "would not compile this workflow's graph (graph compile)",
        }.get(self.outcome, "would not load this workflow's context")
        if self.outcome == "refused" and self.stage:
            what = f"would not load this workflow ({self.stage_name})"
        return f"{location(self.file, self.line, self.column)}: REFUSED: {runtime} {what}"


@dataclass(frozen=True)
class Matrix:
    """Every variable of one workflow with its value and provenance, plus the problems found."""

    workspace: str
    workflow: str
    rows: tuple[Row, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: tuple[str, ...] = field(default=())
    #: launch values the runtime drops (undeclared, over the limits), as warnings located at
    #: whoever gave them; their text is also among ``notes``
    launch_dropped: tuple[Diagnostic, ...] = ()
    #: the runtime profile the rows were judged against (``RuntimeProfile.label``)
    runtime: str = ""
    refused: Refusal | None = None
    #: files outside the workspace layout this matrix was resolved from (fallbacks file,
    #: ``file`` sources): the app watches them
    read: frozenset[Path] = field(default=frozenset(), compare=False)
    #: what build context projected (a ``flowctx_core.buildctx.projected.BuildContextProjection``:
    #: prompts render its registries' catalog projections). Typed ``object`` because the matrix
    #: sits on the model floor, below build context, which builds on the model's rows and
    #: refusals; its one reader (``runtime.exposure.agent_prompt``) checks the type.
    build_context: object | None = field(default=None, compare=False, repr=False)
    #: the runtime's context authority policy (a ``flowctx_core.runtime.policy.AuthorityPolicy``;
    #: None for a runtime that builds none). Typed ``object`` for the reason above; read it with
    #: ``flowctx_core.runtime.policy.policy_of``.
    authority: object | None = field(default=None, compare=False, repr=False)

    def row(self, name: str) -> Row | None:
        for r in self.rows:
            if r.name == name:
                return r
        return None

    @property
    def values(self) -> dict[str, Any]:
        """The context the runtime would hold at load, by variable name (unmasked)."""
        return {r.name: r.value for r in self.rows}

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")
