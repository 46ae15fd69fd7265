"""Scenarios: the inputs a condition or a route is tried against, saved per workflow.

A scenario holds what the runtime would receive besides the resolved context variables: ``data``,
``payload``, ``stepResult``, ``flowContext``, the tools called, the user's edits on top of the
resolved context, env and launch overrides, plus the expression being tried and its history.
Files live at ``<workspace>/.flowctx/scenarios/<workflow>/<name>.json``.

Secrets never reach those files: secret-looking keys, URI passwords,
context variables that resolved as secret and any string equal to a known secret are written as
``***``. A masked value read back means "use the resolved value", so a saved scenario still
evaluates against the real secret without ever storing it.

The context editor shows masked values too, so the same rule applies to edits: a value the user
left as it was shown (``***`` included) keeps its real value (``restore_masked``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from flowctx_core.base import fsview
from flowctx_core.base.clock import ClockError, parse_now
from flowctx_core.base.diagnostics import Diagnostic
from flowctx_core.base.jsontext import JsonTextError, parse_json
from flowctx_core.base.pathsafety import read_regular_file
from flowctx_core.base.secrets import (
    KEY_REASON,
    MASK,
    is_secret_key,
    mask_text,
    mask_value,
    restore_uri_passwords,
    secret_strings,
)
from flowctx_core.expressions import DIALECTS
from flowctx_core.model.filenames import SCENARIO_DIR
from flowctx_core.model.inputs import RUNTIME_CONTEXT_KEY
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.widening import refused_env

FORMAT = "flowctx-scenario/1"
HISTORY_LIMIT = 50
# Shorter strings are too common to scrub as substrings ("1", "true"); they are still masked
# wherever they are a whole value.
_MIN_SCRUB = 4
_NAME_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_. -]{0,63}")
_MISSING: Any = object()


@dataclass(frozen=True)
class Scenario:
    """The inputs of a condition/route trial. ``context_overrides`` are edits, not the context."""

    expression: str = ""
    dialect: str = "mj"
    data: Any = field(default_factory=dict)
    context_overrides: dict[str, Any] = field(default_factory=dict)
    context_removed: tuple[str, ...] = ()
    payload: Any = field(default_factory=dict)
    step_result: Any = field(default_factory=dict)
    flow_context: Any = field(default_factory=dict)
    tools_called: tuple[str, ...] = ()
    env_overrides: dict[str, str] = field(default_factory=dict)
    launch: dict[str, Any] = field(default_factory=dict)
    history: tuple[str, ...] = ()
    #: the instant conditions that read the clock are evaluated at (ISO 8601; "": the current
    #: time)
    now: str = ""

    def remember(self, expression: str) -> Scenario:
        """This scenario with ``expression`` last in the history (no duplicates, last 50)."""
        return replace(self, history=remember(self.history, expression))


def remember(history: tuple[str, ...], expression: str) -> tuple[str, ...]:
    text = expression.strip()
    if not text:
        return history
    kept = tuple(h for h in history if h != text)
    return (*kept, text)[-HISTORY_LIMIT:]


# --- the context overlay ---------------------------------------------------------------------


def secret_names(matrix: Matrix) -> frozenset[str]:
    """Context variables whose whole value is secret (by source or by name)."""
    return frozenset(r.name for r in matrix.rows if r.secret or is_secret_key(r.name))


def secret_reasons(matrix: Matrix, root: str | None = "context") -> dict[str, str]:
    """The explain's secret paths for a workflow's context: each secret variable (by a
    secret-looking name, or by its source's secret-looking env var), with the reason shown
    beside its masked values. ``root``: where the dialect reads variables (``context`` for
    mj and python paths; None for ag2, which reads them by name)."""
    out: dict[str, str] = {}
    for row in matrix.rows:
        if is_secret_key(row.name):
            why = KEY_REASON
        elif row.secret:
            source = row.definition.get("source") if isinstance(row.definition, dict) else None
            env_var = source.get("env_var") if isinstance(source, dict) else None
            why = f"env {env_var} looks secret" if env_var else "secret-sourced"
        else:
            continue
        out[f"{root}.{row.name}" if root else row.name] = why
    return out


def context_display(
    values: Mapping[str, Any], secret: Collection[str], *, reveal: bool
) -> dict[str, Any]:
    """The context as the editor may show it: secrets masked unless revealed."""
    if reveal:
        return dict(values)
    return {
        k: MASK if (k in secret and v is not None) else mask_value(v, k) for k, v in values.items()
    }


def restore_masked(edited: Any, shown: Any, real: Any) -> Any:
    """The value meant by ``edited``, given that the user was shown ``shown`` for ``real``.

    Whatever is still as it was shown keeps its real value, at any depth, so a masked
    placeholder never replaces a secret; what the user changed is taken as typed.
    """
    if shown is _MISSING or real is _MISSING:
        return edited
    if same(edited, shown):
        return real
    if isinstance(edited, dict) and isinstance(shown, dict) and isinstance(real, dict):
        return {
            k: restore_masked(v, shown.get(k, _MISSING), real.get(k, _MISSING))
            for k, v in edited.items()
        }
    if (
        isinstance(edited, list)
        and isinstance(shown, list)
        and isinstance(real, list)
        and len(edited) == len(shown) == len(real)
    ):
        return [restore_masked(e, s, r) for e, s, r in zip(edited, shown, real, strict=True)]
    if isinstance(edited, str) and isinstance(real, str):
        return restore_uri_passwords(edited, real)
    return edited


def restore_context(
    edited: Mapping[str, Any], shown: Mapping[str, Any], real: Mapping[str, Any]
) -> dict[str, Any]:
    """The context meant by an edited context editor (see ``restore_masked``)."""
    return {
        k: restore_masked(v, shown.get(k, _MISSING), real.get(k, _MISSING))
        for k, v in edited.items()
    }


def unmask(value: Any, real: Any) -> Any:
    """A loaded value with ``***`` placeholders replaced by the real value at the same place."""
    if real is _MISSING:
        return value
    if value == MASK:
        return real
    if isinstance(value, dict) and isinstance(real, dict):
        return {k: unmask(v, real.get(k, _MISSING)) for k, v in value.items()}
    if isinstance(value, list) and isinstance(real, list) and len(value) == len(real):
        return [unmask(v, r) for v, r in zip(value, real, strict=True)]
    if isinstance(value, str) and isinstance(real, str):
        return restore_uri_passwords(value, real)
    return value


def apply_overrides(
    resolved: Mapping[str, Any],
    overrides: Mapping[str, Any],
    removed: Collection[str] = (),
) -> dict[str, Any]:
    """The context a condition sees: resolved values, the user's edits on top, removals gone."""
    out = {k: v for k, v in resolved.items() if k not in removed}
    for k, v in overrides.items():
        out[k] = unmask(v, resolved.get(k, _MISSING))
    return out


def real_overrides(resolved: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``overrides`` with masked placeholders replaced by the resolved values they stand for."""
    return {k: unmask(v, resolved.get(k, _MISSING)) for k, v in overrides.items()}


def diff_context(
    effective: Mapping[str, Any], resolved: Mapping[str, Any]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The edits that turn ``resolved`` into ``effective``: (changed or added, removed)."""
    changed = {k: v for k, v in effective.items() if k not in resolved or not same(v, resolved[k])}
    removed = tuple(k for k in resolved if k not in effective)
    return changed, removed


def same(a: Any, b: Any) -> bool:
    """JSON equality: ``1`` is not ``true`` and ``1`` equals ``1.0`` as JSON numbers do."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


# --- what must never be written --------------------------------------------------------------


@dataclass(frozen=True)
class SecretGuard:
    """Context variables that are secret as a whole, and every known secret string."""

    names: frozenset[str] = frozenset()
    values: frozenset[str] = frozenset()

    def scrub(self, value: Any) -> Any:
        """``value`` with every known secret (in keys and strings, at any depth) masked."""
        if isinstance(value, str):
            return self.scrub_text(value)
        if isinstance(value, Mapping):
            return {self.scrub_text(str(k)): self.scrub(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.scrub(v) for v in value]
        if isinstance(value, int | float) and not isinstance(value, bool):
            return MASK if str(value) in self.values or repr(value) in self.values else value
        return value

    def scrub_text(self, text: str) -> str:
        if text in self.values:
            return MASK
        for secret in sorted(self.values, key=len, reverse=True):
            if len(secret) >= _MIN_SCRUB and secret in text:
                text = text.replace(secret, MASK)
        return mask_text(text)

    def leaks(self, text: str) -> list[str]:
        """Known secrets (long enough to search for) found in ``text``; used before writing."""
        found = []
        for secret in self.values:
            if len(secret) < _MIN_SCRUB:
                continue
            escaped = json.dumps(secret, ensure_ascii=False)[1:-1]
            if secret in text or escaped in text:
                found.append(secret)
        return found


def secret_guard(matrix: Matrix | None, env: Mapping[str, str] | None = None) -> SecretGuard:
    """What to keep out of a scenario file for this workflow and environment."""
    names: set[str] = set()
    values: set[str] = set()
    for row in matrix.rows if matrix is not None else ():
        if row.secret or is_secret_key(row.name):
            names.add(row.name)
            values |= _all_strings(row.value)
        values |= secret_strings(row.value, row.name)
    if env:
        values |= secret_strings(dict(env))
    values.discard("")
    values.discard(MASK)
    return SecretGuard(frozenset(names), frozenset(values))


def _all_strings(value: Any) -> set[str]:
    if value is None or value == "":
        return set()
    if isinstance(value, Mapping):
        out: set[str] = set()
        for v in value.values():
            out |= _all_strings(v)
        return out
    if isinstance(value, list | tuple):
        out = set()
        for v in value:
            out |= _all_strings(v)
        return out
    if isinstance(value, bool):
        return set()  # true/false are not secrets worth scrubbing everywhere
    return {value if isinstance(value, str) else str(value)}


def to_file_json(scenario: Scenario, guard: SecretGuard, workflow: str) -> dict[str, Any]:
    """The scenario as written to disk: every secret masked."""

    def masked(value: Any) -> Any:
        return guard.scrub(mask_value(value))

    context = {
        k: MASK if (k in guard.names or is_secret_key(k)) and v is not None else masked(v)
        for k, v in scenario.context_overrides.items()
    }
    env = {
        k: MASK if is_secret_key(k) else guard.scrub_text(str(v))
        for k, v in scenario.env_overrides.items()
    }
    return {
        "format": FORMAT,
        "workflow": workflow,
        "expression": guard.scrub_text(scenario.expression),
        "dialect": scenario.dialect,
        "data": masked(scenario.data),
        "context": context,
        "contextRemoved": list(scenario.context_removed),
        "payload": masked(scenario.payload),
        "stepResult": masked(scenario.step_result),
        "flowContext": masked(scenario.flow_context),
        "toolsCalled": [guard.scrub_text(t) for t in scenario.tools_called],
        "env": env,
        "launch": masked({k: v for k, v in scenario.launch.items() if k != RUNTIME_CONTEXT_KEY}),
        # what the host supplies for 'type: runtime' sources, kept out of the launch values
        **(
            {"runtimeContext": masked(scenario.launch[RUNTIME_CONTEXT_KEY])}
            if RUNTIME_CONTEXT_KEY in scenario.launch
            else {}
        ),
        "history": [guard.scrub_text(h) for h in scenario.history],
        "now": scenario.now or None,
    }


# --- files -----------------------------------------------------------------------------------


class ScenarioError(Exception):
    """A scenario could not be saved; the message is safe to show."""


def scenario_dir(root: Path, workflow: str) -> Path:
    return root.joinpath(*SCENARIO_DIR, workflow)


def check_name(name: str) -> str | None:
    """Why ``name`` cannot name a scenario file, or None when it can."""
    if not name.strip():
        return "a scenario needs a name"
    if not _NAME_RE.fullmatch(name) or name.endswith((".", " ")):
        return (
            f"scenario name {name!r} may use letters, digits, space, '_', '-' and '.' "
            "(at most 64, not starting with '.' or '-')"
        )
    return None


#: the largest saved scenario file read (as every other JSON file of a workspace)
MAX_SCENARIO_BYTES = 4 * 1024 * 1024


def list_scenarios(root: Path, workflow: str) -> list[str]:
    from flowctx_core.model.workspace_root import outside_workspace

    folder = scenario_dir(root, workflow)
    if not fsview.is_dir(folder):
        return []
    if outside_workspace(folder, root) is not None:
        return []  # a folder linked elsewhere: not even its file names are the workspace's
    try:
        found = fsview.iterdir(folder) if fsview.is_mounted(folder) else folder.glob("*.json")
    except OSError:
        return []
    return sorted(p.stem for p in found if p.name.endswith(".json") and fsview.is_file(p))


def saved_scenarios(root: Path, workflows: Iterable[str]) -> dict[str, dict[str, Scenario]]:
    """Every saved scenario that reads, by workflow, then by name (a broken scenario file is
    the scratchpad's to report)."""
    out: dict[str, dict[str, Scenario]] = {}
    for wf in workflows:
        found: dict[str, Scenario] = {}
        for name in list_scenarios(root, wf):
            scenario, _problems = load_scenario(root, wf, name)
            if scenario is not None:
                found[name] = scenario
        if found:
            out[wf] = found
    return out


def save_scenario(
    root: Path, workflow: str, name: str, scenario: Scenario, guard: SecretGuard
) -> Path:
    """Write the scenario (masked) and return its path; raises ``ScenarioError``."""
    problem = check_name(name) or check_name(workflow)
    if problem:
        raise ScenarioError(problem)
    text = json.dumps(to_file_json(scenario, guard, workflow), indent=2, ensure_ascii=False)
    if guard.leaks(text):
        # scrubbing is exhaustive, so this is a bug; refuse rather than write a secret
        raise ScenarioError("refused to save: a secret value would have been written")
    folder = scenario_dir(root, workflow)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    tmp = path.with_name(f".{name}.json.tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_scenario(
    root: Path, workflow: str, name: str, display: str | None = None
) -> tuple[Scenario | None, list[Diagnostic]]:
    """Read a saved scenario; problems come back as diagnostics with line:column."""
    from flowctx_core.model.workspace_root import outside_workspace

    path = scenario_dir(root, workflow) / f"{name}.json"
    shown = display or path.relative_to(root).as_posix()
    # a scenario linked to a file elsewhere is not read (nor is any of its keys shown)
    escape = outside_workspace(path, root) if fsview.is_file(path) or os.path.islink(path) else None
    if escape is not None:
        return None, [Diagnostic(shown, 0, 0, f"cannot read scenario: {escape}")]
    # bounded, and never a FIFO or device: a scenario folder is workspace content, and a
    # saved scenario linked to /dev/zero would otherwise never finish reading
    raw, why = read_regular_file(path, MAX_SCENARIO_BYTES)
    if raw is None:
        if why == "file not found":
            return None, [Diagnostic(shown, 0, 0, f"no scenario named {name!r}")]
        return None, [Diagnostic(shown, 0, 0, f"cannot read scenario: {why}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None, [Diagnostic(shown, 0, 0, "cannot read scenario: not valid UTF-8 text")]
    return parse_scenario(text, shown, root)


def parse_scenario(
    text: str, display: str, root: Path | None = None
) -> tuple[Scenario | None, list[Diagnostic]]:
    """A scenario from its file's text. ``root`` is the workspace it belongs to (None: a
    revision with no folder on disk), against which env values that widen access are judged."""
    try:
        raw = parse_json(text)  # huge integers and deep nesting are located problems too
    except JsonTextError as exc:
        return None, [Diagnostic(display, exc.line, exc.column, str(exc))]
    if not isinstance(raw, dict):
        return None, [Diagnostic(display, 1, 1, "a scenario file must be a JSON object")]
    problems: list[Diagnostic] = []

    def want(key: str, kind: type | tuple[type, ...], default: Any) -> Any:
        value = raw.get(key, default)
        if not isinstance(value, kind):
            problems.append(
                Diagnostic(display, 1, 1, f"'{key}' has the wrong type; it was ignored")
            )
            return default
        return value

    dialect = want("dialect", str, "mj")
    if dialect not in DIALECTS:
        problems.append(
            Diagnostic(
                display, 1, 1, f"unknown dialect {dialect!r}; expected one of mj, ag2, python"
            )
        )
        dialect = "mj"
    env = {
        str(k): str(v)
        for k, v in want("env", dict, {}).items()
        if v != MASK  # a masked env value means: use the real environment
    }
    # a scenario is a workspace file, and ``diff`` applies every saved one unasked
    env, refused = refused_env(env, root, "a saved scenario")
    problems.extend(
        Diagnostic(display, 1, 1, message, severity="warning") for _, message in refused
    )
    launch = {k: v for k, v in want("launch", dict, {}).items() if v != MASK}
    now = want("now", (str, type(None)), None) or ""
    if now:
        try:
            parse_now(now)
        except ClockError as exc:
            problems.append(Diagnostic(display, 1, 1, f"'now': {exc}; it was ignored"))
            now = ""
    runtime_context = {k: v for k, v in want("runtimeContext", dict, {}).items() if v != MASK}
    if runtime_context:
        launch[RUNTIME_CONTEXT_KEY] = runtime_context
    scenario = Scenario(
        now=now,
        expression=want("expression", str, ""),
        dialect=dialect,
        data=raw.get("data", {}),
        context_overrides=dict(want("context", dict, {})),
        context_removed=tuple(str(k) for k in want("contextRemoved", list, [])),
        payload=raw.get("payload", {}),
        step_result=raw.get("stepResult", {}),
        flow_context=raw.get("flowContext", {}),
        tools_called=tuple(str(t) for t in want("toolsCalled", list, [])),
        env_overrides=env,
        launch=launch,
        history=tuple(str(h) for h in want("history", list, []))[-HISTORY_LIMIT:],
    )
    return scenario, problems
