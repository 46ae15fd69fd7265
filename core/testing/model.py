"""Test files: ``.flowctx/tests/*.yaml``, each a workflow and its cases, as strict models.

A test file is data: it names inputs (env, launch values, a saved scenario, context values,
a flow's data) and what the author expects (a route, resolved values, a refusal, a number of
problems, text in an agent's prompt). Nothing in it ever runs: every expectation is judged by
the same core calls as ``matrix``, ``routes``, ``check`` and ``prompt``. Problems are located
diagnostics (file:line:col, did-you-mean), never exceptions.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    Field,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from flowctx_core.base import fsview
from flowctx_core.base.diagnostics import Diagnostic, Fix
from flowctx_core.base.yamlmarks import PathKey, YamlDoc, load_yaml_file, parse_yaml_text
from flowctx_core.model.filenames import PROFILE_FILE, TESTS_DIR, WORKFLOW_FILES
from flowctx_core.model.validation import Strict, Wording, located_errors
from flowctx_core.routing.trace import TurnSpec

_WORDING = Wording(quote_key=True, show_input=True, literal_choices=True)
#: a file with more cases than this is refused (each case resolves the workflow at worst)
MAX_CASES = 5_000


class RouteExpect(Strict):
    """Where the run goes from ``from``: a target, the Nth candidate (as ``flowctx routes``
    numbers them), or that the run ends there."""

    from_: str = Field(alias="from", min_length=1)
    to: str | None = Field(default=None, min_length=1)
    rule: StrictInt | None = Field(default=None, ge=1)
    ends: StrictBool | None = None

    @model_validator(mode="after")
    def _one_outcome(self) -> RouteExpect:
        given = [k for k in ("to", "rule", "ends") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a route expectation needs exactly one of 'to', 'rule' or 'ends'")
        return self


class ProblemsExpect(Strict):
    """How many problems ``flowctx check`` reports for the workflow under the case's inputs."""

    errors: StrictInt | None = Field(default=None, ge=0)
    warnings: StrictInt | None = Field(default=None, ge=0)


class PromptExpect(Strict):
    """Text the agent's prompt additions hold (and must not hold)."""

    agent: str = Field(min_length=1)
    contains: str | list[str] | None = None
    not_contains: str | list[str] | None = None

    def wanted(self) -> list[str]:
        return _as_list(self.contains)

    def unwanted(self) -> list[str]:
        return _as_list(self.not_contains)


def _as_list(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


class ConditionExpect(Strict):
    """What a condition evaluates to under the case's inputs, as the scratchpad shows it."""

    expression: str = Field(min_length=1)
    dialect: Literal["mj", "ag2", "mozaiks", "python"] = "mj"
    #: the condition's verdict; null: it fails to evaluate (an error)
    value: StrictBool | None


class Expect(Strict):
    route: RouteExpect | None = None
    #: the speakers of a whole run, in order, from the first (``flowctx trace``): the case's
    #: ``turns`` are played from ``path[0]`` (one turn that changes nothing per step when the
    #: case gives none)
    path: list[str] | None = Field(default=None, min_length=1)
    condition: ConditionExpect | list[ConditionExpect] | None = None
    #: resolved values by variable name (the matrix's, before the case's context overrides)
    values: dict[str, Any] | None = None
    #: False: the runtime loads the workflow; True: it refuses it; a word: the refusal's
    #: outcome or stage (``refused``, ``empty_plan``, ``launch_fails``...)
    refused: StrictBool | str | None = None
    problems: ProblemsExpect | None = None
    prompt: PromptExpect | list[PromptExpect] | None = None

    @model_validator(mode="after")
    def _something(self) -> Expect:
        kinds = ("route", "path", "condition", "values", "refused", "problems", "prompt")
        if all(getattr(self, k) is None for k in kinds):
            raise ValueError(
                "'expect' names nothing to check: give route, path, condition, values, "
                "refused, problems or prompt"
            )
        return self

    def conditions(self) -> list[ConditionExpect]:
        if self.condition is None:
            return []
        if isinstance(self.condition, ConditionExpect):
            return [self.condition]
        return list(self.condition)

    def prompts(self) -> list[PromptExpect]:
        if self.prompt is None:
            return []
        return [self.prompt] if isinstance(self.prompt, PromptExpect) else list(self.prompt)


Scalar = str | int | float | bool


class Case(Strict):
    name: str = Field(min_length=1)
    #: environment variables, as ``--env``: numbers and booleans are written as the shell would
    env: dict[str, Scalar] = Field(default_factory=dict)
    launch: dict[str, Any] = Field(default_factory=dict)
    #: start from a saved scenario of the workflow (``.flowctx/scenarios/<workflow>/<name>.json``)
    scenario: str | None = None
    #: context values on top of the resolved ones (what routes and conditions read)
    context: dict[str, Any] = Field(default_factory=dict)
    #: context variables taken out of the context (read as missing: undefined, None)
    context_removed: list[str] = Field(default_factory=list)
    data: Any = None
    payload: Any = None
    stepResult: Any = None
    flowContext: dict[str, Any] | None = None
    tools_called: list[str] = Field(default_factory=list)
    #: the turns of a whole run, for ``expect: path`` (as ``flowctx trace --script`` writes them)
    turns: list[TurnSpec] = Field(default_factory=list)
    #: the instant conditions that read the clock are evaluated at (ISO 8601), unless the
    #: command was given --now
    now: str | None = None
    expect: Expect

    @field_validator("now", mode="before")
    @classmethod
    def _yaml_timestamp(cls, value: Any) -> Any:
        # YAML reads an unquoted 2026-12-01T09:00:00Z as a timestamp: keep the instant it says
        if isinstance(value, datetime.datetime):
            if value.tzinfo is None:
                value = value.replace(tzinfo=datetime.UTC)
            return value.isoformat().replace("+00:00", "Z")
        if isinstance(value, datetime.date):
            return value.isoformat()
        return value

    @field_validator("now", mode="after")
    @classmethod
    def _instant(cls, value: str | None) -> str | None:
        # located at the key: an instant out of range (or an offset of +99:99) is said there
        if value is not None:
            from flowctx_core.base.clock import ClockError, parse_now

            try:
                parse_now(value)
            except ClockError as exc:
                raise ValueError(str(exc)) from None
        return value

    def env_strings(self) -> dict[str, str]:
        return {k: _shell_text(v) for k, v in self.env.items()}


def _shell_text(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class TestFileModel(Strict):
    __test__ = False  # not a pytest test class, whatever its name
    workflow: str = Field(min_length=1)
    #: the runtime profile these cases are judged against (default: the workspace's)
    runtime: str | None = None
    cases: list[Case] = Field(min_length=1, max_length=MAX_CASES)


@dataclass(frozen=True)
class TestFile:
    """One parsed test file: its model (None when it did not validate) and where things are."""

    __test__ = False  # not a pytest test class, whatever its name

    path: Path
    display: str
    doc: YamlDoc | None
    model: TestFileModel | None
    problems: tuple[Diagnostic, ...]

    def where(self, path: PathKey, *, key: bool = True) -> tuple[int, int]:
        return self.doc.where(path, key=key) if self.doc is not None else (0, 0)

    def diag(
        self, path: PathKey, message: str, *, key: bool = True, fix: Fix | None = None
    ) -> Diagnostic:
        if self.doc is None:
            return Diagnostic(self.display, 0, 0, message)
        return self.doc.diag(path, message, key=key, fix=fix)


def parse_test_text(text: str, display: str, path: Path | None = None) -> TestFile:
    """Parse and validate one test file's text; never raises for bad content."""
    doc, problems = parse_yaml_text(text, display)
    return _validated(path or Path(display), display, doc, problems)


def load_test_file(path: Path, display: str) -> TestFile:
    doc, problems = load_yaml_file(path, display)
    return _validated(path, display, doc, problems)


def _validated(
    path: Path, display: str, doc: YamlDoc | None, problems: list[Diagnostic]
) -> TestFile:
    if doc is None or problems:
        return TestFile(path, display, doc, None, tuple(problems))
    if not isinstance(doc.data, dict):
        found = "empty" if doc.data is None else f"a {type(doc.data).__name__}"
        message = "a test file is a mapping with 'workflow' and 'cases'; this one is " + found
        return TestFile(path, display, doc, None, (Diagnostic(display, 1, 1, message),))
    if not {"workflow", "cases"} & doc.data.keys():
        # another kind of file given to --file (a contract, a routing file): one message that
        # says so, not an "unknown field" for each of its keys and "0 cases"
        keys = ", ".join(str(k) for k in list(doc.data)[:4]) or "none"
        name = path.name
        kind = f"a workflow's {name}" if name in (*WORKFLOW_FILES, PROFILE_FILE) else "it"
        message = (
            f"not a test file: {kind} has no 'workflow' or 'cases' (its keys: {keys}); "
            "a test file names its workflow and lists its cases"
        )
        return TestFile(path, display, doc, None, (Diagnostic(display, 1, 1, message),))
    try:
        model = TestFileModel.model_validate(doc.data)
    except ValidationError as exc:
        located = located_errors(exc, doc, (), TestFileModel, doc.data, _WORDING)
        return TestFile(path, display, doc, None, tuple(located))
    return TestFile(path, display, doc, model, ())


def load_workspace_test_file(path: Path, root: Path, display: str) -> TestFile:
    """A test file of the workspace at ``root``: one that a symbolic link (its own or a
    folder's on the way) takes out of the workspace is not read, as contracts are not, so none
    of its keys reaches an output."""
    from flowctx_core.model.workspace_root import outside_workspace

    escape = outside_workspace(path, root)
    if escape is not None:
        return TestFile(path, display, None, None, (Diagnostic(display, 0, 0, escape),))
    return load_test_file(path, display)


def workspace_test_files(root: Path) -> list[TestFile]:
    """The workspace's test files, read (``load_workspace_test_file``); when the tests folder
    itself is a symbolic link out of the workspace, one problem for it and nothing listed in
    it (not even its files' names are the workspace's)."""
    from flowctx_core.model.workspace_root import outside_workspace

    folder = root.joinpath(*TESTS_DIR)
    display = "/".join(TESTS_DIR)
    if fsview.is_dir(folder):
        escape = outside_workspace(folder, root)
        if escape is not None:
            return [TestFile(folder, display, None, None, (Diagnostic(display, 0, 0, escape),))]
    return [
        load_workspace_test_file(p, root, p.relative_to(root).as_posix()) for p in test_files(root)
    ]


def test_files(root: Path) -> list[Path]:
    """The workspace's test files, sorted: ``.flowctx/tests/*.yaml`` (and ``*.yml``)."""
    folder = root.joinpath(*TESTS_DIR)
    if not fsview.is_dir(folder):
        return []
    found = [
        p for p in fsview.iterdir(folder) if p.suffix in (".yaml", ".yml") and fsview.is_file(p)
    ]
    return sorted(found)
