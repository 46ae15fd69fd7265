"""``flowctx check``: every problem in a workspace, each located as file:line:col.

``check(snapshot, inputs)`` is pure over a workspace snapshot. Checks are small functions, one
per concern, listed in ``WORKFLOW_CHECKS`` (run per workflow) and ``WORKSPACE_CHECKS`` (run
once); other modules contribute theirs here. Each workflow is also
resolved, and every error and warning on a matrix row is a problem here with the same severity,
so ``check``, ``matrix`` and the app's status line count the same things
(``workflow_problems`` and ``count_problems``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from itertools import chain
from typing import Any

from flowctx_core.base.cancelcheck import stop_if_cancelled
from flowctx_core.base.diagnostics import Diagnostic, Severity
from flowctx_core.base.secrets import mask_text
from flowctx_core.buildctx import registry_problems
from flowctx_core.model.check_tuning import commented_rows, tune, tune_one, unknown_codes
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Matrix, Refusal, Row
from flowctx_core.model.source_types import SOURCE_TYPES
from flowctx_core.model.workspace import VariableSpec, WorkflowSnapshot, display_path
from flowctx_core.resolve import RUNTIME_FIX, resolve
from flowctx_core.routing.checks import routes_problems
from flowctx_core.runtime.checks import (
    bare_workspace_problems,
    config_default_problems,
    data_source_problems,
    discovery_problems,
    persisted_default_problems,
    unknown_type_problems,
)
from flowctx_core.runtime.exposure import withheld_reason
from flowctx_core.session import Session
from flowctx_core.snapshot import WorkspaceSnapshot
from flowctx_core.stages import authority_problems, workflow_file_problems

WorkflowCheck = Callable[[WorkspaceSnapshot, WorkflowSnapshot], list[Diagnostic]]
WorkspaceCheck = Callable[[WorkspaceSnapshot, ResolveInputs], list[Diagnostic]]


def contract_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    return list(wf.diagnostics)


def exposure_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Warnings: variables no agent exposes, agents that expose nothing, and exposures the
    runtime never renders (build-context and ``model_visible: false`` variables)."""
    out: list[Diagnostic] = []
    if wf.doc is None:
        return out
    exposed = frozenset(n for names in wf.agents.values() for n in names)

    def each(spec: VariableSpec) -> list[Diagnostic]:
        shown = spec.name in exposed
        return spec.remembered(
            "not exposed", shown, partial(_not_exposed, wf, spec, shown), "problems"
        )

    out.extend(chain.from_iterable(wf.per_item("not exposed", wf.variables, exposed, each)))
    for agent, names in wf.agents.items():
        if not names:
            out.append(
                wf.doc.diag(
                    ("agents", agent),
                    f"agent '{agent}' exposes no variables",
                    severity="warning",
                    code="exposure.agent-empty",
                )
            )
        for i, name in enumerate(names):
            listed = wf.variable(name)
            judged = wf.runtime if wf.runtime.prompt_exposure != "none" else None
            why = withheld_reason(listed, judged) if listed is not None else None
            if why is not None:
                out.append(
                    wf.doc.diag(
                        ("agents", agent, "variables", i),
                        f"agent '{agent}' lists '{name}', which the runtime never puts in its "
                        f"prompt ({why})",
                        key=False,
                        severity="warning",
                        code="exposure.never-rendered",
                    )
                )
    return out


def _not_exposed(wf: WorkflowSnapshot, spec: VariableSpec, shown: bool) -> list[Diagnostic]:
    """``exposure_problems``' warning of one declaration no agent lists (``shown`` False)."""
    # tool-only variables are meant to stay out of prompts: not exposing them is right
    if shown or wf.doc is None or withheld_reason(spec) is not None:
        return []
    return [
        wf.doc.diag(
            ("definitions", spec.name),
            f"variable '{spec.name}' is not exposed to any agent",
            severity="warning",
            code="exposure.not-exposed",
        )
    ]


def routing_problems(snap: WorkspaceSnapshot, wf: WorkflowSnapshot) -> list[Diagnostic]:
    files = snap.workflow_files.get(wf.name)
    # mozaiks 0.2.0 creates agents from agents.yaml only (agents/factory.py create_agents)
    agents_from = (
        (files.agents, files.display)
        if wf.runtime.strict_workflow_files and files is not None and files.agents_file
        else None
    )
    return routes_problems(snap.routes[wf.name], wf, agents_from)


def profile_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    # checks: naming a code check does not have is located at its key
    return [*snap.profile.diagnostics, *unknown_codes(snap.profile.checks, PROBLEM_CODES)]


def database_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    return list(inputs.database_problems)


def folder_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    """Folders that cannot be listed: the workspace loader treats them as empty (no
    workflows, no contract), which without this would pass as a clean workspace."""
    return list(snap.folder_problems)


def build_context_problems(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    """Every registry under ``<workspace>/build_context/`` and under the configured root."""
    setting = snap.build_context
    out: list[Diagnostic] = []
    configured = snap.registry_roots[-1]
    if setting.enabled and setting.root is not None and not configured.is_dir:
        out.append(
            Diagnostic(
                display_path(setting.root, snap.root),
                0,
                0,
                f"build-context registry root does not exist ({setting.root_reason})",
                severity="warning",
            )
        )
    for found in snap.registry_roots:
        if found.same_as_workspace:
            continue
        for reg in found.registries:
            out.extend(registry_problems(reg, snap.workflows, snap.names))
    return out


#: check -> the code its problems carry (when the module that found them set none)
WORKFLOW_CHECKS: dict[WorkflowCheck, str] = {
    contract_problems: "contract",
    exposure_problems: "exposure",
    routing_problems: "routing",
    config_default_problems: "runtime.config-default",
    data_source_problems: "runtime.data-source",
    discovery_problems: "runtime.discovery",
    bare_workspace_problems: "runtime.discovery",
    persisted_default_problems: "runtime.persisted-default",
    unknown_type_problems: "runtime.unknown-type",
    authority_problems: "authority.compile",
    workflow_file_problems: "workflow-files",
}
WORKSPACE_CHECKS: dict[WorkspaceCheck, str] = {
    profile_problems: "profile",
    database_problems: "database",
    folder_problems: "folder",
    build_context_problems: "build-context",
}


@dataclass(frozen=True)
class ProblemKind:
    """What one problem code means: the rule SARIF names and docs/commands/check.md's table."""

    #: one line, for a table row or a rule's ``shortDescription``
    short: str
    #: what the runtime does, why it matters and what to change (``fullDescription``)
    full: str
    #: the severity its problems usually carry (each problem still says its own)
    level: Severity = "error"


def _resolve_kind(source: str, what: str) -> ProblemKind:
    return ProblemKind(
        f"a {source} variable failed to resolve (error) or resolved with a warning, exactly "
        "as its matrix row shows",
        f"The {source} variable's matrix row is in error or carries a warning: {what} The "
        "problem points at the value that caused it, and `flowctx matrix` shows the row with "
        "every step of its resolution trace.",
    )


_RESOLVE_WHAT = {
    "config": "a required environment variable is unset, or the value does not coerce to the "
    "declared type (the runtime reads only the environment once env_var is declared).",
    "data_reference": "the query finds no document, names no database or collection, or the "
    "database cannot be reached, so the runtime sets the default or nothing.",
    "data_entity": "the entity names no collection or database, so the runtime makes no "
    "manager and the key stays unset.",
    "computed": "the computation cannot be predicted before the run, or its inputs are missing.",
    "state": "the state default or a trigger cannot be read as declared.",
    "external": "the external service is called only at run time; its default or its "
    "declaration has a problem.",
    "file": "the file is missing, unreadable, outside the workspace or does not parse in the "
    "declared format, so the runtime uses None (or the default, as the documentation says).",
    "build_context": "no registry projects the variable, or the projection is refused by the "
    "trusted build-context loader.",
    "runtime": "a key the runtime injects itself (database schema capability) cannot be "
    "computed with these settings, or a `type: runtime` source is missing from the launch's "
    "runtime context (give it with --runtime-context or runtime_context: in flowctx.yaml).",
}

#: THE table of every code ``flowctx check`` gives a problem: stable (a script may filter on
#: them, SARIF rules are named by them). ``resolve.<source type>`` is a matrix row in error
#: or warned.
PROBLEM_KINDS: dict[str, ProblemKind] = {
    "yaml": ProblemKind(
        "a YAML file does not parse (syntax, nesting, aliases, encoding, size)",
        "A workflow, routing, registry or profile file is not YAML the runtime can load: a "
        "syntax error, nesting or alias expansion past the limits, a byte that is not UTF-8, "
        "or a file too large to read. Nothing in the file is used until it parses.",
    ),
    "contract": ProblemKind(
        "context_variables.yaml does not follow the contract (fields, types, agents)",
        "context_variables.yaml breaks the context-variables contract as the selected runtime "
        "profile validates it: an unknown or misspelt key, a missing field, a value of the "
        "wrong type, an unknown source or trigger type, a reserved name, or an agent exposing "
        "an undeclared variable. The newest runtime refuses the whole plan on the first "
        "such error; the older one loads an empty plan.",
    ),
    "exposure.not-exposed": ProblemKind(
        "a variable that could be shown is exposed to no agent",
        "The variable is declared and could appear in a prompt, but no agent lists it under "
        "agents.<name>.variables, so no agent ever sees its value. List it under an agent, "
        "or mark it model_visible: false if it is meant for tools only.",
        "warning",
    ),
    "exposure.agent-empty": ProblemKind(
        "an agent exposes no variables",
        "The agent is listed under agents with no variables, so its prompt gets no context "
        "block. Remove the entry or list the variables it needs.",
        "warning",
    ),
    "exposure.never-rendered": ProblemKind(
        "an agent lists a variable the runtime never puts in a prompt",
        "The agent lists a variable the runtime withholds from prompts (a build-context "
        "variable, or one declared model_visible: false): listing it has no effect, and the "
        "agent will not see the value an author may expect it to.",
        "warning",
    ),
    "routing": ProblemKind(
        "flow.yaml, transition_graph.yaml or handoffs.yaml: shape or condition",
        "A routing file does not follow its shape (unknown keys, missing fields, mixed "
        "transition shapes, duplicate steps), or a condition does not parse in the engine "
        "that reads it (MemberJunction path conditions, the Mozaiks transition evaluator, AG2 "
        "ContextExpression). A rule in error is kept in place but never routes.",
    ),
    "routing.order": ProblemKind(
        "a rule the runtime tries at another place than the file puts it",
        "mozaiks 0.2.0's graph compiler gives a condition rule the priority of its position and "
        "an after_turn rule len(rules) + position, so every condition rule of a source is tried "
        "before any of its after_turn fallbacks, each group in file order. An after_turn rule "
        "written above a condition rule of the same source is therefore tried after it, which a "
        "reader of the file does not expect: move the fallback below the source's conditions.",
        "warning",
    ),
    "profile": ProblemKind(
        "flowctx.yaml: unknown keys, wrong shapes, refused settings",
        "The workspace's flowctx.yaml (the environment and launch values flowctx assumes, and "
        "the runtime profile) has an unknown key, a value of the wrong shape, or a setting "
        "flowctx refuses; the rest of the file still applies.",
    ),
    "database": ProblemKind(
        "the seed/ database or the MongoDB URI",
        "The embedded database seeded from seed/ cannot be built (a seed file that is not "
        "JSON, a document that is not an object), or the MongoDB URI cannot be used: "
        "data_reference variables are then resolved without a database.",
    ),
    "folder": ProblemKind(
        "a folder of the workspace cannot be listed",
        "A folder of the workspace (workflows/, a workflow folder, build_context/) cannot be "
        "listed, usually for lack of permission. flowctx reads it as empty, which would "
        "otherwise pass as a clean workspace.",
    ),
    "build-context": ProblemKind(
        "a build-context registry, its root or a projection",
        "A build-context registry (build_context/<name>/context.yaml) does not follow the "
        "registry contract, its configured root does not exist, an asset is missing or "
        "refused, or a projection into a context variable or a prompt cannot be made.",
    ),
    "runtime.config-default": ProblemKind(
        "the runtime ignores a documented default (env_var declared)",
        "A config source declares both env_var and default. The documentation says the "
        "default applies when the variable is unset; the runtime's code reads only the "
        "environment once env_var is declared, so the value is None when it is unset.",
        "warning",
    ),
    "runtime.data-source": ProblemKind(
        "a data source the runtime's loader reads differently from the docs",
        "A data_reference or data_entity source is read by the runtime's loader differently "
        "from what the documentation promises (for example without database_name the "
        "adapter fetches nothing).",
        "warning",
    ),
    "runtime.discovery": ProblemKind(
        "a folder the runtime does not take for a workflow",
        "A folder under workflows/ holds none of the files the runtime discovers workflows "
        "by (orchestrator.yaml, tools.yaml), so the runtime never loads it, although flowctx "
        "shows it. Beside discovered workflows the runtime's verdict refuses it; in a "
        "workspace where no folder has one, each folder gets a warning.",
        "warning",
    ),
    "runtime.unknown-type": ProblemKind(
        "a variable type the runtime gives no meaning to (a typo such as intger)",
        "mozaiks 0.2.0 accepts any text as a variable's type, so a misspelt one loads without "
        "a word; then the value is never coerced (a config '30' stays the string '30', "
        "'false' a truthy string) and the persistence guard admits any value. Use one of "
        "string, boolean, integer, number, object, array or any.",
        "warning",
    ),
    "workflow-files": ProblemKind(
        "orchestrator.yaml or agents.yaml as the runtime's workflow manager refuses it, or a "
        "workflow without agents",
        "mozaiks 0.2.0 reads orchestrator.yaml (schema_version mozaiks.orchestrator.v1, "
        "workflow_name equal to the folder, workflow_startup_mode AgentDriven, UserDriven or "
        "BackendOnly) and agents.yaml (a list of agents, each with prompt_sections or "
        "system_message and structured_outputs_required) with strict models: any error "
        "refuses the workflow at load. Without agents.yaml it creates no agent and the run "
        "fails ('No agents defined for workflow').",
    ),
    "authority.policy": ProblemKind(
        "the runtime's context authority policy cannot be built: the context never loads",
        "mozaiks 0.2.0 classifies every variable when the context loads (authority.py "
        "build_context_authority_policy) and raises for a build_context variable with routing, "
        "persisted or writer metadata, a runtime source that is not "
        "immutable_runtime_authority, or a persisted variable whose class cannot be replayed "
        "(tool-only or immutable state, authorization data). Remove the metadata or change "
        "the class.",
    ),
    "authority.compile": ProblemKind(
        "a transition rule routes on a variable the authority policy does not let it route on",
        "The graph compiler (network_graph.py compile_transition_rules_to_graph) refuses the "
        "workflow when a variable a rule reads is unknown to the policy, is not routing "
        "state, or has no deterministic writer (WorkflowGraphCompileError): the run never "
        "starts. Give the variable an exact `equals` agent_text trigger, a deterministic tool "
        "writer or a declared deterministic writer_ids entry.",
    ),
    "authority.silent-trigger": ProblemKind(
        "an agent_text trigger that can never write its variable",
        "The trigger writes as agent_text (freeform: contains, regex) or "
        "sentinel_text_trigger (every trigger an exact `equals`), and the variable's authority "
        "refuses that writer; the runtime drops the write at debug level, so the variable "
        "never changes. Use an exact `equals` match, or change the variable's class.",
        level="warning",
    ),
    "runtime.persisted-default": ProblemKind(
        "a persisted variable's default of the wrong type (the first persist fails)",
        "A variable the runtime persists has a default that is not of its declared type; the "
        "runtime's persistence guard refuses such a value, so the run fails the first time "
        "the context is persisted unless a writer has replaced the value.",
        "warning",
    ),
    "security": ProblemKind(
        "a condition the published engine would execute as code (flowctx refuses it)",
        "The condition reaches code the published engine would execute (attribute walks to "
        "interpreter internals, constructors, calls it does not sandbox). flowctx never "
        "evaluates it; the runtime would run it. Rewrite the condition with plain names and "
        "comparisons.",
    ),
    "launch": ProblemKind(
        "a launch value the runtime would drop (undeclared, over 64 KB, past 50 keys)",
        "A launch (before_chat) value would be dropped by the runtime: its key is not "
        "declared in the contract, its value is larger than 64 KB, or it comes after the "
        "first 50 keys.",
    ),
    **{
        f"resolve.{source}": _resolve_kind(source, _RESOLVE_WHAT[source])
        for source in (*SOURCE_TYPES, "runtime")
    },
}

#: code -> one line: what ``flowctx check --format json`` documents for each code
PROBLEM_CODES: dict[str, str] = {code: kind.short for code, kind in PROBLEM_KINDS.items()}


def _coded(problems: Iterable[Diagnostic], code: str) -> list[Diagnostic]:
    return [p if p.code else replace(p, code=code) for p in problems]


def row_problems(matrix: Matrix, wf: WorkflowSnapshot) -> list[Diagnostic]:
    """Every error and warning shown on the matrix's rows, located at the definition (a file
    source at its ``path``, a config at its ``env_var``), with the row's severity.

    Rows of definitions that did not validate are left out: the contract's own problems
    already say why, at the key that is wrong.
    """
    from flowctx_core.sources.data_reference import looked_up_with_a_secret

    looked_up = frozenset(looked_up_with_a_secret(matrix.rows, wf.per_item))

    def each(row: Row) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        if row.origin == "invalid definition" or row.name in looked_up:
            # whether a lookup by a secret found its record (or fell back, or failed) is a
            # bit of the secret: a filter of ``$lt`` bounds bisected a key one variable at a
            # time; such a row's own problems are not reported
            return out
        found = [*((w, "warning") for w in row.warnings)]
        if row.error:
            error = row.error
            if row.source == "runtime" and row.origin == "runtime context (missing)":
                error += f" ({RUNTIME_FIX})"
            found.append((error, "error"))
        for message, severity in found:
            out.append(_row_diagnostic(row, wf, mask_text(message), severity))
        return out

    # each row's problems are a function of it (a row kept from the last matrix is of a
    # declaration kept in place) and of what is looked up with a secret
    key = (looked_up, wf.doc is None)
    return list(chain.from_iterable(wf.per_item("row problems", matrix.rows, key, each)))


def _row_diagnostic(row: Row, wf: WorkflowSnapshot, message: str, severity: str) -> Diagnostic:
    code = f"resolve.{row.source}"
    if wf.doc is None or row.loc is None:
        where = row.loc.file if row.loc else wf.contract_file
        line, col = (row.loc.line, row.loc.column) if row.loc else (0, 0)
        return Diagnostic(where, line, col, f"{row.name}: {message}", severity, code=code)  # type: ignore[arg-type]
    path: tuple[Any, ...] = ("definitions", row.name)
    key = True
    source = row.definition.get("source") if isinstance(row.definition, dict) else None
    field = _problem_field(row)
    if field and isinstance(source, dict) and field in source:
        path, key = (*path, "source", field), False
    return replace(wf.doc.diag(path, message, key=key, severity=severity), code=code)


def _problem_field(row: Row) -> str | None:
    """The source field a row's problem is about, whose value is the place to point at: a
    file's ``path``; a config's ``default`` when the default was used (a coercion warning
    is about it), else its ``env_var``."""
    if row.source == "file":
        return "path"
    if row.source == "config":
        used = [t.step for t in row.trace if t.outcome == "used"]
        return "default" if used == ["default"] else "env_var"
    return None


def _broken(wf: WorkflowSnapshot) -> bool:
    """The contract did not load at all: resolving it would only add noise."""
    return not wf.variables and any(d.severity == "error" for d in wf.diagnostics)


def workflow_problems(
    snap: WorkspaceSnapshot,
    inputs: ResolveInputs,
    resolved: Mapping[str, tuple[WorkflowSnapshot, Matrix]],
) -> list[Diagnostic]:
    """THE list of problems for these workflows, as ``flowctx check`` prints them.

    ``resolved`` maps each workflow name to its snapshot and the matrix its caller resolved
    (``check`` with the command line's inputs; the app with its overrides and launch values).
    The list holds the workspace's own problems once (profile, database, folders, build
    context), each workflow's static problems (contract, exposure, routing), and every error
    and warning its matrix shows (rows and the matrix's diagnostics); exact duplicates are
    merged and the order is file:line:col. Every problem has a ``code`` (``PROBLEM_CODES``).

    Assembled from ``workspace_part`` and one ``workflow_part`` per workflow by
    ``tuned_problems``: a caller that keeps the parts of workflows nothing changed (the
    language server) assembles the same list from them.
    """
    problems = workspace_part(snap, inputs)
    for wf, matrix in resolved.values():
        problems.extend(workflow_part(snap, wf, matrix))
    return tuned_problems(snap, problems)


def workspace_part(snap: WorkspaceSnapshot, inputs: ResolveInputs) -> list[Diagnostic]:
    """The workspace's own problems (profile, database, folders, build context)."""
    problems: list[Diagnostic] = []
    for check, code in WORKSPACE_CHECKS.items():
        problems.extend(_coded(check(snap, inputs), code))
    return problems


def workflow_part(
    snap: WorkspaceSnapshot, wf: WorkflowSnapshot, matrix: Matrix
) -> list[Diagnostic]:
    """One workflow's problems, before the workspace's tuning: its static checks and what its
    matrix shows. Reads ``snap`` for this workflow's routes, files and the workspace's settings,
    never another workflow."""
    problems: list[Diagnostic] = []
    static: list[Diagnostic] = []
    for wcheck, code in WORKFLOW_CHECKS.items():
        stop_if_cancelled()
        static.extend(_coded(wcheck(snap, wf), code))
    problems.extend(static)
    if not _broken(wf):
        # the matrix repeats the contract's problems; the rest are projections'
        contract = set(wf.diagnostics)
        extra = [d for d in matrix.diagnostics if d not in contract]
        problems.extend(_coded(extra, "build-context"))
        # a row problem a static check already reports (a runtime check names the
        # profile, at the key it is about) is one problem, not two
        rows = row_problems(matrix, wf)
        if rows:
            said = _Said(d.message for d in static if d.file == wf.contract_file)
            problems.extend(d for d in rows if d.message not in said)
        # launch values the runtime would drop (undeclared, over 64 KB, past 50 keys)
        problems.extend(_coded(matrix.launch_dropped, "launch"))
    return problems


def tuned_problems(snap: WorkspaceSnapshot, problems: Iterable[Diagnostic]) -> Problems:
    """The parts' problems merged (exact duplicates once), tuned as the workspace asks
    (``checks:``, ignore comments) and sorted file:line:col (``problem_order``)."""
    kept, ignored = tune(set(problems), snap.profile.checks, lambda rel: _text(snap, rel))
    return Problems(
        sorted(kept, key=problem_order), ignored=tuple(sorted(ignored, key=problem_order))
    )


def problem_order(d: Diagnostic) -> tuple[Any, ...]:
    """``sort_key`` (file:line:col, message), then every other field: two problems with the
    same key are equal, so the order never depends on the order they were found in."""
    fix = d.fix
    rest = (fix.old, fix.new, fix.line) if fix is not None else ()
    return (d.file, d.line, d.column, d.message, d.severity, d.code, d.yaml_path, rest)


class TunedProblems:
    """``tuned_problems`` asked again and again of lists that differ a little from one call
    to the next (the language server's check after each edit): each problem is tuned once and
    put in its place in the sorted lists, so a call costs what changed, not the whole list.
    Problems are told apart by identity (the parts keep the same objects for what an edit did
    not change); exact duplicates (equal values) are still merged.

    What a problem's tuning reads besides itself is looked at on every call: ``checks:``
    (another one starts over) and its file's ignore comments (every problem of a file that
    holds one, or held one at the last call, is tuned again)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget every call: the next one tunes its whole list."""
        self._tuning: Any = None
        #: the objects of the last call, by id (kept alive, so an id is never another's)
        self._objects: dict[int, Diagnostic] = {}
        #: each value (the first object of it) -> how many objects of the last call have it
        self._count: dict[Diagnostic, int] = {}
        #: each value -> (it tuned, whether it is ignored)
        self._result: dict[Diagnostic, tuple[Diagnostic, bool]] = {}
        #: the values of each file
        self._files: dict[str, set[Diagnostic]] = {}
        #: files whose text held an ignore comment at the last call
        self._commented: set[str] = set()
        self._kept: list[Diagnostic] = []
        self._ignored: list[Diagnostic] = []

    def __call__(self, snap: WorkspaceSnapshot, problems: Iterable[Diagnostic]) -> Problems:
        try:
            return self._tuned(snap, problems)
        except BaseException:
            self.reset()  # half-placed lists are never reused
            raise

    def _tuned(self, snap: WorkspaceSnapshot, problems: Iterable[Diagnostic]) -> Problems:
        tuning = snap.profile.checks
        if tuning is not self._tuning and tuning != self._tuning:
            self.reset()
            self._tuning = tuning
        listed = problems if isinstance(problems, list) else list(problems)
        now = dict(zip(map(id, listed), listed, strict=True))
        before = self._objects
        gone = before.keys() - now.keys()
        added = [now[i] for i in now.keys() - before.keys()]
        rows: dict[str, list[str] | None] = {}

        def rows_of(file: str) -> list[str] | None:
            if file not in rows:
                rows[file] = commented_rows(lambda rel: _text(snap, rel), file)
            return rows[file]

        if len(gone) + len(added) > max(64, len(now) // 8):
            # most of the list is new (lines added above thousands of problems): placing
            # each would cost more than sorting them all once
            return self._all(now, rows_of)
        for i in gone:
            self._drop(before[i])
        self._objects = now

        # every value of a file with an ignore comment (now or at the last call) again
        commented = {f for f in self._files if rows_of(f) is not None}
        for file in commented | (self._commented & self._files.keys()):
            for value in self._files[file]:
                self._unplace(self._result.pop(value))
                self._place(value, rows_of(file))
        for p in added:
            count = self._count.get(p, 0)
            self._count[p] = count + 1
            if count == 0:
                self._files.setdefault(p.file, set()).add(p)
                self._place(p, rows_of(p.file) if p.line > 0 else None)
        self._commented = {f for f in self._files if rows.get(f) is not None}
        return Problems(self._kept, ignored=tuple(self._ignored))  # a copy of each

    def _all(
        self, now: dict[int, Diagnostic], rows_of: Callable[[str], list[str] | None]
    ) -> Problems:
        """Every problem of ``now`` tuned and sorted afresh (the tuning is kept)."""
        tuning = self._tuning
        self.reset()
        self._tuning = tuning
        self._objects = now
        for p in now.values():
            count = self._count.get(p, 0)
            self._count[p] = count + 1
            if count == 0:
                self._files.setdefault(p.file, set()).add(p)
                result = tune_one(p, tuning, rows_of(p.file) if p.line > 0 else None)
                self._result[p] = result
                (self._ignored if result[1] else self._kept).append(result[0])
        self._kept.sort(key=problem_order)
        self._ignored.sort(key=problem_order)
        self._commented = {f for f in self._files if rows_of(f) is not None}
        return Problems(self._kept, ignored=tuple(self._ignored))

    def _place(self, value: Diagnostic, rows: list[str] | None) -> None:
        tuned, ignored = tune_one(value, self._tuning, rows if value.line > 0 else None)
        self._result[value] = (tuned, ignored)
        into = self._ignored if ignored else self._kept
        into.insert(bisect_right(into, problem_order(tuned), key=problem_order), tuned)

    def _unplace(self, result: tuple[Diagnostic, bool]) -> None:
        tuned, ignored = result
        into = self._ignored if ignored else self._kept
        i = bisect_left(into, problem_order(tuned), key=problem_order)
        while into[i] is not tuned:
            i += 1
        del into[i]

    def _drop(self, p: Diagnostic) -> None:
        count = self._count[p] - 1
        if count:
            self._count[p] = count
            return
        del self._count[p]
        self._unplace(self._result.pop(p))
        values = self._files[p.file]
        values.discard(p)
        if not values:
            del self._files[p.file]


class Problems(list[Diagnostic]):
    """``workflow_problems``' list, and the problems the workspace asked not to see
    (``checks:`` in flowctx.yaml, ``# flowctx: ignore[...]`` comments), kept to be counted."""

    def __init__(self, items: Iterable[Diagnostic] = (), ignored: tuple[Diagnostic, ...] = ()):
        super().__init__(items)
        self.ignored = ignored


def _text(snap: WorkspaceSnapshot, rel: str) -> str:
    """The text of a workspace file a problem is in, for its ignore comments: the snapshot's
    own copy of a contract, else the file as the snapshot's reader reads it (a revision's from
    the revision), capped like every workspace file."""
    for wf in snap.workflows.values():
        if wf.contract_file == rel and wf.text:
            return wf.text
    if snap.revision is not None:
        return ""  # a revision's other files are not kept once read: no comments from them
    from flowctx_core.base.pathsafety import confine, read_regular_file
    from flowctx_core.base.yamlmarks import MAX_YAML_BYTES

    real, refused = confine(snap.root, rel, allow_outside=False)
    if real is None or refused:
        return ""
    data, _ = read_regular_file(real, MAX_YAML_BYTES)
    return "" if data is None else data.decode("utf-8", errors="replace")


class _Said:
    """``message in said``: is ``message`` part of any of these messages? One search of all of
    them joined (NUL never occurs in a message) instead of one per message: a 3,000-variable
    workflow has thousands of each, and comparing every pair took seconds on each reload."""

    def __init__(self, messages: Iterable[str]) -> None:
        self._messages = list(messages)
        self._joined = "\0".join(self._messages)

    def __contains__(self, message: str) -> bool:
        if "\0" in message:  # cannot be told apart from a join: ask each message
            return any(message in m for m in self._messages)
        return message in self._joined


@dataclass(frozen=True)
class ProblemCount:
    errors: int = 0
    warnings: int = 0
    #: problems the workspace asked not to see: counted, so nothing disappears silently
    ignored: int = 0

    def __str__(self) -> str:
        """``1 error, 2 warnings`` (``, 3 ignored``): the words the status line and ``check``
        both use."""
        e, w = self.errors, self.warnings
        said = f"{e} error{'' if e == 1 else 's'}, {w} warning{'' if w == 1 else 's'}"
        return said + (f", {self.ignored} ignored" if self.ignored else "")


def count_problems(problems: Iterable[Diagnostic]) -> ProblemCount:
    """THE count of errors and warnings: ``flowctx check``'s summary and the app's status
    line both count ``workflow_problems(...)`` with this, so they always agree."""
    items = list(problems)
    errors = sum(1 for p in items if p.severity == "error")
    ignored = len(problems.ignored) if isinstance(problems, Problems) else 0
    return ProblemCount(errors, len(items) - errors, ignored)


@dataclass(frozen=True)
class CheckReport:
    """What ``flowctx check`` prints: the problems, and the workflows the runtime would
    refuse to load (as their matrices say, so check and matrix name the same refusals)."""

    problems: list[Diagnostic]
    refused: dict[str, Refusal]


def check_report(
    snap: WorkspaceSnapshot, inputs: ResolveInputs, workflows: Iterable[str] | None = None
) -> CheckReport:
    """Resolve these workflows of the snapshot (default: all) and report them; pure."""
    names = list(workflows) if workflows is not None else list(snap.names)
    resolved = {n: (snap.workflow(n), resolve(snap, inputs, n)) for n in names}
    refused = {n: m.refused for n, (_, m) in resolved.items() if m.refused is not None}
    return CheckReport(workflow_problems(snap, inputs, resolved), refused)


def check(
    snap: WorkspaceSnapshot, inputs: ResolveInputs, workflows: Iterable[str] | None = None
) -> list[Diagnostic]:
    """The problems of ``check_report``."""
    return check_report(snap, inputs, workflows).problems


def workspace_report(
    session: Session,
    workflows: list[str] | None = None,
    *,
    env_overrides: Mapping[str, str] | None = None,
    launch: Mapping[str, Any] | None = None,
) -> CheckReport:
    """``check_report`` of the workspace as the session reads it now, with these inputs."""
    # the workflows checked are read (registries are judged against them, and every name the
    # workspace lists): `check -w W` reports what the app shows for W
    snap = session.snapshot(workflows, env_overrides)
    return check_report(snap, session.inputs(env_overrides, launch), workflows)


def check_workspace(
    session: Session,
    workflows: list[str] | None = None,
    *,
    env_overrides: Mapping[str, str] | None = None,
    launch: Mapping[str, Any] | None = None,
) -> list[Diagnostic]:
    """The problems of ``workspace_report``."""
    return workspace_report(session, workflows, env_overrides=env_overrides, launch=launch).problems
