"""``resolve(snapshot, inputs, workflow)``: every variable's load-time value with its provenance.

A pure function of a workspace snapshot (every file already read) and explicit inputs: it never
touches the disk. Variables resolve in declaration order so ``{{var.path}}`` placeholders see
the ones before them, as in the runtime.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from itertools import compress, repeat
from operator import attrgetter, eq, is_, itemgetter
from pathlib import Path
from typing import Any

from flowctx_core.base.cancelcheck import stop_if_cancelled
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.gcpause import gc_paused
from flowctx_core.base.peritem import flagged
from flowctx_core.base.secrets import is_secret_key, mask_text
from flowctx_core.buildctx import project_build_context
from flowctx_core.model.inputs import PROCESS_ORIGIN, ResolveInputs
from flowctx_core.model.matrix import Loc, Matrix, Refusal, Row, TraceStep
from flowctx_core.model.widening import widened_by
from flowctx_core.model.workspace import VariableSpec
from flowctx_core.runtime.launch import IDENTITY_KEYS, admit_launch
from flowctx_core.runtime.schema_keys import schema_rows
from flowctx_core.snapshot import WorkspaceSnapshot
from flowctx_core.sources.base import SourceContext
from flowctx_core.sources.data_reference import secret_field
from flowctx_core.sources.registry import RESOLVERS
from flowctx_core.stages import (
    agents_refusal,
    compile_refusal,
    contract_refusal,
    discovery_refusal,
    empty_key_refusal,
    manager_refusal,
    policy_refusal,
    snapshot_policy,
)


def _is_secret(spec: VariableSpec) -> bool:
    if is_secret_key(spec.name):
        return True
    src = spec.definition.source if spec.definition else None
    env_var = getattr(src, "env_var", None)
    # a secret-looking document field unwrapped into the variable (fields: [api_secret])
    return bool(env_var and is_secret_key(env_var)) or secret_field(src) is not None


#: what resolving reads of one declaration before resolving it (``_kind``)
Kind = tuple[str | None, Any, Any, bool]
_TYPE, _ENV_VAR, _TEMPLATE, _SECRET = (itemgetter(i) for i in range(4))
_NAME = attrgetter("name")
_VALUE = attrgetter("value")


def _kind(spec: VariableSpec) -> Kind:
    """(its source type (None when it did not validate), a config source's env_var, a
    data_reference's filter, whether it is a secret on its own): a function of the declaration
    alone, kept per item for the next read of the contract."""
    src = spec.definition.source if spec.definition else None
    stype = src.type if src is not None else None
    env_var = getattr(src, "env_var", None) if stype == "config" else None
    template = getattr(src, "query_template", None) if stype == "data_reference" else None
    return stype, env_var, template, spec.remembered("secret", None, partial(_is_secret, spec))


def _positions(values: list[Any], wanted: Any) -> list[int]:
    """Where ``wanted`` (a source type, or None: by identity) stands in ``values``."""
    if wanted is not None and wanted not in values:  # the usual case: one pass of C's
        return []
    return flagged(list(map(is_ if wanted is None else eq, values, repeat(wanted))))


def _looked_up_with_secrets(
    specs: Sequence[VariableSpec],
    secret: list[bool],
    machine: frozenset[str] = frozenset(),
    kinds: Sequence[Kind] | None = None,
) -> list[bool]:
    """``secret`` with every ``data_reference`` whose filter reads a secret (a secret
    variable, a secret-looking key, a value of the process's own environment (``machine``),
    or a variable itself looked up with one) made secret too: which record a secret finds, if
    any, tells something of it, so the record is masked as the secret is."""
    from flowctx_core.sources.data_reference import reads_secret

    kinds = kinds if kinds is not None else [_kind(v) for v in specs]
    out = list(secret)
    # only the data_references with a filter can change
    lookups = [
        (i, template)
        for i in _positions(list(map(_TYPE, kinds)), "data_reference")
        if (template := kinds[i][2])
    ]
    if not lookups:
        return out
    names = set(compress(map(_NAME, specs), out)) | set(machine)
    changed = True
    while changed:
        changed = False
        for i, template in lookups:
            if not out[i] and reads_secret(template, names):
                out[i] = True
                names.add(specs[i].name)
                changed = True
    return out


def _from_the_process(
    specs: Sequence[VariableSpec], inputs: ResolveInputs, kinds: Sequence[Kind] | None = None
) -> frozenset[str]:
    """The config variables whose value the process's own environment gives."""
    kinds = kinds if kinds is not None else [_kind(v) for v in specs]
    out: set[str] = set()
    for i in _positions(list(map(_TYPE, kinds)), "config"):
        env_var = kinds[i][1]
        if env_var and env_var in inputs.env and inputs.env_origins.get(env_var) == PROCESS_ORIGIN:
            out.add(specs[i].name)
    return frozenset(out)


def _state_row(
    workflow: Any, replaced: frozenset[str], ctx: SourceContext, spec: VariableSpec
) -> Row | None:
    """The row of a state declaration no launch value or run identity replaces (None for any
    other), kept on its spec too, which moves it with its lines. A state source reads its
    declaration alone (``sources/state.py``): ``ctx`` only carries the run's inputs."""
    definition = spec.definition
    if definition is None or definition.source.type != "state" or spec.name in replaced:
        return None
    is_secret = spec.remembered("secret", None, partial(_is_secret, spec))
    agents = workflow.agents_of(spec.name)
    known = spec.memo.get("state row")
    if known is not None and known[0] == (is_secret, agents):
        return known[1]  # type: ignore[no-any-return]
    result = RESOLVERS["state"](replace(ctx, name=spec.name, definition=definition))
    row = Row(
        name=spec.name,
        type=definition.canonical_type,
        source="state",
        status="error" if result.error else result.status,
        value=result.value,
        # messages may quote paths and URIs: mask passwords once, for every consumer
        origin=mask_text(result.origin),
        trace=tuple(_masked_step(t) for t in result.trace),
        warnings=tuple(mask_text(w) for w in result.warnings),
        agents=agents,
        error=mask_text(result.error) if result.error else None,
        loc=spec.loc,
        secret=is_secret,
        definition=spec.raw,
        description=definition.description,
    )
    spec.memo["state row"] = ((is_secret, agents), row, "row")
    return row


def _error_row(spec: VariableSpec, agents: tuple[str, ...]) -> Row:
    raw = spec.raw if isinstance(spec.raw, dict) else {}
    src = raw.get("source")
    stype = src.get("type") if isinstance(src, dict) else None
    message = "; ".join(d.format() for d in spec.errors) or "invalid definition"
    return Row(
        name=spec.name,
        type=str(raw.get("type", "?")),
        source=str(stype or "?"),
        status="error",
        value=None,
        origin="invalid definition",
        trace=tuple(TraceStep("definition", "error", d.format()) for d in spec.errors),
        agents=agents,
        error=message,
        loc=spec.loc,
        secret=is_secret_key(spec.name),
        definition=spec.raw,
        description=raw.get("description") if raw else None,
    )


def resolve(
    snapshot: WorkspaceSnapshot, inputs: ResolveInputs, workflow_name: str | None = None
) -> Matrix:
    """Resolve ``workflow_name`` (default: the one workflow the snapshot loaded).

    The environment that decided which files were read is the snapshot's; ``inputs.env`` is
    what ``config`` sources see (the same mapping when both come from one session).
    """
    with gc_paused():
        return _resolve(snapshot, inputs, workflow_name)


def _resolve(
    snapshot: WorkspaceSnapshot, inputs: ResolveInputs, workflow_name: str | None
) -> Matrix:
    if workflow_name is None:
        if len(snapshot.workflows) != 1:
            raise ValueError("resolve: name the workflow (the snapshot holds several)")
        workflow_name = next(iter(snapshot.workflows))
    workflow = snapshot.workflow(workflow_name)
    specs = workflow.variables
    declared = list(map(_NAME, specs))
    kinds = workflow.per_item("resolve kind", specs, None, _kind)
    types = list(map(_TYPE, kinds))
    admission = admit_launch(inputs.launch, declared)
    launch = admission.admitted
    # the runtime profile is the snapshot's: the contract was read with it, and every source
    # resolves as that runtime's loader does
    inputs = replace(inputs, launch=launch, runtime=snapshot.runtime)
    fallbacks = snapshot.fallbacks
    files = snapshot.file_contents(workflow)
    # build-context projections sit between the load value and launch values (mozaiks 0.2.0,
    # mozaiksai/core/session/build_context.py)
    setting = snapshot.build_context
    projection = project_build_context(
        workflow,
        setting,
        snapshot.registries_under(setting.root),
        launch,
        admission.trigger,
        snapshot.injection_source(workflow.name),
    )
    runtime_context = admission.runtime_context
    seeded: dict[str, Any] = {}
    if snapshot.runtime.runtime_context:
        runtime_context, seeded = _run_identity(runtime_context, launch, workflow.name)
    values: dict[str, Any] = dict(launch)
    # variables.py resolves runtime sources before every other, whatever the declaration order
    # (mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py): templates see them
    for i in _positions(types, "runtime"):
        name = specs[i].name
        values.setdefault(name, (runtime_context or {}).get(name))
    # each definition's secrecy once (rows and sources both ask)
    machine = _from_the_process(specs, inputs, kinds)
    secret = _looked_up_with_secrets(specs, list(map(_SECRET, kinds)), machine, kinds)
    secret_names = frozenset(compress(declared, secret))
    # shown masked in a lookup's filter too: a value of the process's own environment (on a
    # CI runner a secret may have any name, and a contract chooses which variables it reads)
    hidden = secret_names | machine
    # a state variable's row is a function of its declaration, its secrecy (a state source is
    # never looked up: its own) and who sees it alone, when no launch value or run identity
    # replaces it: kept per declaration; only the others are resolved in the loop below, in
    # declaration order, each seeing the values of those before it
    replaced = frozenset(launch) | frozenset(seeded)

    def context(name: str, definition: Any) -> SourceContext:
        return SourceContext(
            name,
            definition,
            workflow,
            inputs,
            values,
            fallbacks,
            hidden,
            files,
            projection,
            runtime_context,
        )

    run = context("", None)
    state = workflow.per_item(
        "state rows",
        specs,
        (workflow.agents, replaced),
        partial(_state_row, workflow, replaced, run),
    )
    rows: list[Row] = []
    raised: list[tuple[str, str, Loc | None]] = []
    done = 0
    for i in _positions(state, None):
        stop_if_cancelled()
        if done < i:  # the state rows before it, with their values
            rows.extend(state[done:i])  # type: ignore[arg-type]  # no None among them
            values.update(zip(declared[done:i], map(_VALUE, state[done:i]), strict=True))
        done = i + 1
        spec, is_secret = specs[i], secret[i]
        agents = workflow.agents_of(spec.name)
        if spec.definition is None:
            rows.append(_error_row(spec, agents))
            values[spec.name] = None
            continue
        definition = spec.definition
        ctx = context(spec.name, definition)
        result = RESOLVERS[definition.source.type](ctx)
        value, status, origin = result.value, result.status, result.origin
        trace = list(result.trace)
        if result.error and definition.source.type in ("runtime", "config"):
            # what raises in the loader, before any launch value or the run's identity is set
            raised.append((definition.source.type, mask_text(result.error), spec.loc))
        protected = (
            definition.source.type == "build_context"
            and inputs.runtime.sources.build_context_trusted
        )
        if spec.name in launch and protected and not projection.setting.enabled:
            # no provider checks a caller's value at launch; the run's hydration then keeps
            # only what the registries admit for a protected key, else None (mozaiks 0.2.0,
            # build_context.py revalidate_build_context)
            trace.append(
                TraceStep(
                    "launch",
                    "skipped",
                    f"launch value for '{spec.name}' dropped: with the provider off the run "
                    "keeps only what the registries admit for a protected build_context key",
                )
            )
        elif spec.name in launch and _untrusted_override(
            definition, result, launch[spec.name], inputs
        ):
            # merge_build_context: a caller's value for a protected build_context key must
            # equal the registry's trusted projection, else the launch fails
            why = (
                f"launch value for '{spec.name}' differs from the registry's trusted projection: "
                "the runtime fails the launch (untrusted override of a protected build-context "
                "key)"
            )
            trace.append(TraceStep("launch", "error", why))
            value, status, origin = None, "error", "untrusted override"
            result.error = why
        elif (
            spec.name in launch
            and result.error
            and definition.source.type in ("runtime", "config")
            and inputs.runtime.runtime_context
        ):
            # the loader raised before any launch value applies: a launch value does not save
            # the load, so the row keeps the loader's error (one verdict with the refusal)
            trace.append(
                TraceStep(
                    "launch",
                    "skipped",
                    f"launch value for '{spec.name}' is never applied: the loader raises first"
                    + (
                        f"; a runtime context is given with --runtime-context {spec.name}=..., "
                        "runtime_context: in flowctx.yaml or a test case, or the app's Launch "
                        "dialog"
                        if definition.source.type == "runtime"
                        else ""
                    ),
                )
            )
        elif spec.name in launch:
            # explicit launch values win over what was loaded (mozaiks 0.2.0,
            # mozaiksai/core/session/build_context.py)
            for i, step in enumerate(trace):
                if step.outcome == "used":
                    trace[i] = TraceStep(
                        step.step, "shadowed", step.detail + " (launch value wins)"
                    )
            given = inputs.launch_origin(spec.name)
            trace.append(TraceStep("launch", "used", f"launch value '{spec.name}'{given}"))
            value, status, origin = launch[spec.name], "resolved", f"launch value{given}"
            result.error = None
        elif spec.name in seeded:
            # the run's identity is set over what the declaration loaded (mozaiks 0.2.0,
            # orchestration_patterns.py run_workflow_orchestration), here from the host's
            # runtime context
            for i, step in enumerate(trace):
                if step.outcome == "used":
                    trace[i] = TraceStep(step.step, "shadowed", step.detail + " (the run wins)")
            said = "the run's workflow" if spec.name == "workflow_name" else "runtime context"
            trace.append(TraceStep("run identity", "used", f"'{spec.name}' from {said}"))
            value, status = seeded[spec.name], "resolved"
            origin = f"run identity ({said})"
            result.error = None
        values[spec.name] = value
        rows.append(
            Row(
                name=spec.name,
                type=definition.canonical_type,
                source=definition.source.type,
                status="error" if result.error else status,
                value=value,
                # messages may quote paths and URIs: mask passwords once, for every consumer
                origin=mask_text(origin),
                trace=tuple(_masked_step(t) for t in trace),
                warnings=tuple(mask_text(w) for w in result.warnings),
                agents=agents,
                error=mask_text(result.error) if result.error else None,
                loc=spec.loc,
                secret=is_secret,
                definition=spec.raw,
                description=definition.description,
            )
        )
    if done < len(specs):  # the state rows after the last one resolved (nothing reads on)
        rows.extend(state[done:])  # type: ignore[arg-type]  # no None among them
    rows.extend(schema_rows(inputs, workflow.declared))
    dropped = tuple(
        Diagnostic(
            f"launch values from {inputs.launch_origins.get(key) or 'the caller'}",
            0,
            0,
            note,
            severity="warning",
        )
        for (key, _), note in zip(admission.dropped, admission.notes, strict=True)
    )
    # one verdict, in the runtime's order of stages (flowctx_core.model.matrix.STAGES)
    policy = snapshot_policy(snapshot, workflow)
    refused = (
        discovery_refusal(snapshot, workflow)
        or manager_refusal(snapshot, workflow)
        or workflow.refused
        or contract_refusal(snapshot, workflow)
        or policy_refusal(workflow, policy)
        or _at(projection.refused, "launch")
        or _load_failure(rows, raised if snapshot.runtime.runtime_context else None)
        or _at(projection.refused, "context")
        or empty_key_refusal(workflow)
        or agents_refusal(snapshot, workflow)
        or compile_refusal(workflow, snapshot.routes.get(workflow.name), policy)
    )
    notes = [*admission.notes, *projection.notes]
    if fallbacks.warning and fallbacks.display:
        notes.append(fallbacks.warning)
    # said wherever the matrix is shown: flowctx reads beyond the workspace, and who asked
    notes.extend(
        f"reads beyond the workspace: {n}"
        for n in widened_by(inputs.env, inputs.env_origins, Path(workflow.root))
    )
    return Matrix(
        workspace=str(workflow.root),
        workflow=workflow.name,
        rows=tuple(rows),
        diagnostics=(*workflow.diagnostics, *projection.diagnostics),
        notes=tuple(notes),
        launch_dropped=dropped,
        runtime=snapshot.runtime.label,
        refused=refused,
        read=snapshot.read_paths(workflow, files),
        build_context=projection,
        authority=policy,
    )


def _masked_step(step: TraceStep) -> TraceStep:
    """``step`` with URI passwords masked in its detail (the same step when there are none)."""
    detail = mask_text(step.detail)
    return step if detail is step.detail else TraceStep(step.step, step.outcome, detail)


def _untrusted_override(definition: Any, result: Any, given: Any, inputs: ResolveInputs) -> bool:
    if definition.source.type != "build_context":
        return False
    if not inputs.runtime.sources.build_context_trusted:
        return False
    # only with the provider on: without it nothing is projected and nothing is compared
    projected = result.status == "resolved"
    return not projected or given != result.value


def _run_identity(
    given: Mapping[str, Any] | None, launch: Mapping[str, Any], workflow: str
) -> tuple[Mapping[str, Any] | None, dict[str, Any]]:
    """The runtime context the loader reads, and the identity the run sets after the load.

    The runtime starts a run with the host's session fields and the run's own ids
    (workflow_name, app_id, chat_id, user_id) as the runtime context its ``type: runtime``
    sources read, and after loading sets those ids over whatever the declarations gave
    (mozaiks 0.2.0, orchestration_patterns.py): here the ids are the launch's, else the
    runtime context's; an id neither gives is not invented."""
    ids = {k: launch[k] for k in IDENTITY_KEYS if k in launch and k != "workflow_name"}
    ids["workflow_name"] = workflow
    context = {**(given or {}), **ids}
    seeded = {k: context[k] for k in IDENTITY_KEYS if k in context and k not in launch}
    return (context if given is not None or len(ids) > 1 else given), seeded


def _at(refusal: Refusal | None, stage: str) -> Refusal | None:
    """``refusal`` when its stage is ``stage``: a build-context failure is the launch's with
    the provider on, the context hydration's (after the loader) with it off."""
    return refusal if refusal is not None and refusal.decided_by == stage else None


#: how to supply a runtime context, said with every refusal for a missing one
RUNTIME_FIX = (
    "supply it as runtime context: --runtime-context NAME=VALUE, runtime_context: in "
    "flowctx.yaml or a test case, or the app's Launch dialog; a launch value is not one"
)


def _load_failure(
    rows: list[Row], raised: list[tuple[str, str, Loc | None]] | None = None
) -> Refusal | None:
    """A required runtime-context value missing, or a required config variable left unset,
    raises out of the loader: nothing loads (runtime sources are read first). ``raised``: what
    the loader met before launch values applied (mozaiks 0.2.0 raises before any caller value
    or the run's identity is set, so a launch value does not save the load)."""
    if raised is not None:
        for source, error, where in sorted(raised, key=lambda r: r[0] != "runtime"):
            loc = where or Loc("")
            reason = f"{error}: the loader raises, so the workflow's context does not load"
            if source == "runtime":
                reason += f" ({RUNTIME_FIX})"
            return Refusal(reason, loc.file, loc.line, loc.column, "refused", stage="context")
        return None
    ordered = sorted(rows, key=lambda r: r.source != "runtime")
    for row in ordered:
        if (
            row.source in ("runtime", "config")
            and row.status == "error"
            and row.definition is not None
        ):
            loc = row.loc or Loc("")
            reason = f"{row.error}: the loader raises, so the workflow's context does not load"
            return Refusal(reason, loc.file, loc.line, loc.column, "refused", stage="context")
    return None
