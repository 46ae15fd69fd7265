"""Saving what the author sees as a new test case (the app's "Save as test").

The case holds the current inputs (env and launch overrides, context edits, a flow's data,
tools called) and the current verdict (the route that wins, or the condition's value): the
author approves what is on screen. It is appended to a test file of their choice under
``.flowctx/tests/``, created when missing, so the file's comments and layout stay as they
are. Secrets never reach the file: a secret variable's value is written ``***`` (which a
case reads as the resolved value) and any other known secret string is masked.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flowctx_core.model.filenames import TESTS_DIR
from flowctx_core.model.scenarios import Scenario, SecretGuard
from flowctx_core.routing.decision import RouteDecision
from flowctx_core.testing.model import parse_test_text

_FILE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")


class SaveError(Exception):
    """The case cannot be written as asked; the message says why (one line)."""


@dataclass(frozen=True)
class NewCase:
    name: str
    env: Mapping[str, str] = field(default_factory=dict)
    launch: Mapping[str, Any] = field(default_factory=dict)
    context: Mapping[str, Any] = field(default_factory=dict)
    context_removed: tuple[str, ...] = ()
    data: Any = None
    payload: Any = None
    step_result: Any = None
    flow_context: Any = None
    tools_called: tuple[str, ...] = ()
    #: {"route": {...}} or {"condition": {...}}
    expect: Mapping[str, Any] = field(default_factory=dict)

    def lines(self, guard: SecretGuard) -> list[str]:
        out = [f"  - name: {_json(self.name, guard)}"]
        for key, value in (
            ("env", dict(self.env)),
            ("launch", dict(self.launch)),
            ("context", {k: "***" if k in guard.names else v for k, v in self.context.items()}),
            ("context_removed", list(self.context_removed)),
            ("data", self.data),
            ("payload", self.payload),
            ("stepResult", self.step_result),
            ("flowContext", self.flow_context),
            ("tools_called", list(self.tools_called)),
        ):
            if value in (None, {}, [], ""):
                continue
            out.append(f"    {key}: {_json(value, guard)}")
        out.append("    expect:")
        for key, value in self.expect.items():
            out.append(f"      {key}: {_json(value, guard)}")
        return out


def _json(value: Any, guard: SecretGuard) -> str:
    """JSON is YAML: one line, every known secret masked."""
    return json.dumps(guard.scrub(value), ensure_ascii=False, default=str)


def test_file_path(root: Path, name: str) -> Path:
    """``.flowctx/tests/<name>.yaml`` (``name`` may already end in .yaml or .yml)."""
    stem = name.strip()
    for suffix in (".yaml", ".yml"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    if not _FILE_NAME.fullmatch(stem) or stem.endswith("."):
        raise SaveError(
            f"test file name {name!r} may use letters, digits, '_', '-' and '.' (at most 64, "
            "not starting with '.' or '-')"
        )
    return root.joinpath(*TESTS_DIR, f"{stem}.yaml")


def append_case(
    root: Path, file_name: str, workflow: str, case: NewCase, guard: SecretGuard
) -> Path:
    """Append ``case`` to the test file (created when missing); returns its path.

    The file must be this workflow's and end with its ``cases:`` list (in block style), so
    that appending lines adds one item without rewriting what the author wrote; anything
    else is a SaveError naming the file.
    """
    path = test_file_path(root, file_name)
    shown = path.relative_to(root).as_posix()
    new_lines = case.lines(guard)
    if path.is_symlink():
        raise SaveError(f"{shown} is a symbolic link; not written")
    if path.exists():
        text = path.read_text(encoding="utf-8")
        parsed = parse_test_text(text, shown, path)
        if parsed.model is None:
            first = parsed.problems[0].format() if parsed.problems else shown
            raise SaveError(f"not saved: fix the test file first: {first}")
        if parsed.model.workflow != workflow:
            raise SaveError(
                f"{shown} tests workflow '{parsed.model.workflow}', not '{workflow}'; "
                "choose another file"
            )
        if not _ends_with_block_cases(text):
            raise SaveError(
                f"{shown}: 'cases:' must be the file's last key, as a block list, to append to it"
            )
        body = text if text.endswith("\n") else text + "\n"
        candidate = body + "\n".join(new_lines) + "\n"
    else:
        candidate = f"workflow: {json.dumps(workflow)}\ncases:\n" + "\n".join(new_lines) + "\n"
    check = parse_test_text(candidate, shown, path)
    if check.model is None:  # never write a file flowctx test would refuse
        first = check.problems[0].format() if check.problems else shown
        raise SaveError(f"not saved: the case would not read back: {first}")
    leaked = guard.leaks(candidate)
    if leaked:
        raise SaveError("not saved: the case would hold a secret")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(candidate, encoding="utf-8")
    tmp.replace(path)
    return path


def _ends_with_block_cases(text: str) -> bool:
    """Whether the last top-level key is ``cases:`` with its items below it."""
    last_key = None
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#") and ":" in line:
            last_key = line
    return last_key is not None and last_key.split("#", 1)[0].strip() == "cases:"


def case_from_scenario(
    scenario: Scenario,
    *,
    name: str,
    expect: Mapping[str, Any],
    env: Mapping[str, str],
    launch: Mapping[str, Any],
    flow: bool,
) -> NewCase:
    """A case holding the scenario's inputs (a flow's data only where a flow reads it)."""
    return NewCase(
        name=name,
        env=dict(env),
        launch=dict(launch),
        context=dict(scenario.context_overrides),
        context_removed=tuple(scenario.context_removed),
        data=scenario.data if flow else None,
        payload=scenario.payload if flow else None,
        step_result=scenario.step_result if flow else None,
        flow_context=scenario.flow_context if flow else None,
        tools_called=tuple(scenario.tools_called),
        expect=dict(expect),
    )


def route_case(
    scenario: Scenario,
    decisions: Sequence[RouteDecision],
    source: str,
    *,
    env: Mapping[str, str],
    launch: Mapping[str, Any],
) -> NewCase:
    """The route on screen as a case: where the run goes from ``source`` under the scenario."""
    winner = next((d.winner for d in decisions if d.winner is not None), None)
    route: dict[str, Any] = {"from": source}
    if winner is None:
        route["ends"] = True
        name = f"the run ends after {source}"
    else:
        route["to"] = winner.target
        name = f"{source} goes to {winner.target}"
    flow = any(d.kind == "flow" for d in decisions)
    return case_from_scenario(
        scenario, name=name, expect={"route": route}, env=env, launch=launch, flow=flow
    )


def condition_case(
    scenario: Scenario,
    expression: str,
    dialect: str,
    value: bool | None,
    *,
    env: Mapping[str, str],
    launch: Mapping[str, Any],
) -> NewCase:
    """The scratchpad's condition and its verdict (None: it fails to evaluate) as a case."""
    verdict = "fails" if value is None else ("holds" if value else "does not hold")
    short = expression if len(expression) <= 60 else expression[:57] + "..."
    return case_from_scenario(
        scenario,
        name=f"{short} {verdict}",
        expect={"condition": {"expression": expression, "dialect": dialect, "value": value}},
        env=env,
        launch=launch,
        flow=dialect in ("mj", "python"),
    )
