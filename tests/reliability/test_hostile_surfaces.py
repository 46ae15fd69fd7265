"""Issue 21, third security round: inputs that widen access, secrets in dependencies' messages,
URI and query masking, and the low findings (authority's echo, ``normalize`` past the limit).

Each test builds its hostile workspace in ``tmp_path`` and runs ``flowctx_tui.cli.main()`` (or
the app's loader), asserting what a user would notice: the secret is in no output, the refusal
is said once and located, the widening is said when the user typed it.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.base.secrets import mask_text
from flowctx_core.buildctx import setting
from flowctx_core.model import widening
from flowctx_core.session import open_session
from flowctx_tui.loader import load
from tests.conftest import write_tree
from tests.reliability.harness import run_cli

ALLOW = "CONTEXT_FILE_ALLOW_OUTSIDE_ROOT"


def _secret(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(10)}"


# --- finding 2: env values that widen access are refused wherever they come from -------------


def _outside_workspace(tmp_path: Path, secret: str) -> tuple[Path, Path]:
    """A workspace whose file source reads ``../outside/credentials`` (a stand-in for
    ~/.aws/credentials holding ``secret``), and a route whose winner spells out its first
    character, as the attack in the issue did."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "credentials.json").write_text(json.dumps({"aws_key": secret}), encoding="utf-8")
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  creds:\n"
                "    type: object\n"
                "    source: {type: file, path: ../outside/credentials.json, default: {}}\n"
                "agents:\n  Planner: {variables: [creds]}\n  Reviewer: {variables: [creds]}\n"
            ),
        },
    )
    return root, outside


def _save_scenario(root: Path, name: str, env: dict[str, str]) -> None:
    write_tree(
        root,
        {
            f".flowctx/scenarios/W/{name}.json": {
                "format": "flowctx-scenario/1",
                "expression": "1 == 1",
                "env": env,
            }
        },
    )


def test_a_saved_scenario_cannot_turn_outside_access_back_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _secret("AKIA")
    root, _ = _outside_workspace(tmp_path, secret)
    _save_scenario(root, "evil", {ALLOW: "true", "FLOWCTX_MONGO_URI": "mongodb://evil.invalid/"})
    base = tmp_path / "base"
    write_tree(base, {"workflows/W/context_variables.yaml": "definitions: {}\nagents: {}\n"})
    for args in (
        ["diff", str(root), "--base", str(base), "--format", "markdown"],
        ["diff", str(root), "--base", str(base), "--format", "json"],
        ["graph", str(root), "--scenario", "evil"],
        ["matrix", str(root), "--reveal"],
    ):
        _code, out, err = run_cli(args, capsys)
        assert secret not in out + err, args
        assert "reads beyond the workspace" not in out + err, args
    # the graph, which reads the scenario by name, says why the setting was dropped
    _code, out, err = run_cli(["graph", str(root), "--scenario", "evil"], capsys)
    said = out + err
    assert f"{ALLOW} is ignored in a saved scenario" in said
    assert "FLOWCTX_MONGO_URI is ignored in a saved scenario" in said


def test_flowctx_yaml_cannot_point_the_database_or_registries_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _secret("AKIA")
    root, outside = _outside_workspace(tmp_path, secret)
    write_tree(
        root,
        {
            "flowctx.yaml": (
                "env:\n"
                f"  {ALLOW}: 'yes'\n"
                "  FLOWCTX_MONGO_URI: mongodb://collector.invalid:1/\n"
                f"  MOZAIKS_BUILD_CONTEXT_PATH: {outside}\n"
                "  MOZAIKS_APP_WORKSPACE_PATH: ../outside\n"
                "  FLOWCTX_BUILD_CONTEXT: ../../\n"
                f"  MOZAIKS_FACTORY_APP_PATH: {outside}\n"
            )
        },
    )
    session = open_session(root, env={})
    assert session.database is not None and "mongodb" not in session.database.label.lower()
    assert set(session.profile.env) == set(), session.profile.env
    _code, out, _err = run_cli(["check", str(root), "--format", "json"], capsys)
    messages = [p["message"] for p in json.loads(out)["problems"]]
    for name in widening.WIDENING_ENV:
        [said] = [m for m in messages if f"{name} is ignored in flowctx.yaml" in m]
        assert "only your own environment or a typed --env" in said
    _code, out, err = run_cli(["matrix", str(root), "--reveal"], capsys)
    assert secret not in out + err
    # a registry folder inside the workspace is no widening (the demo's flowctx.yaml sets one)
    assert widening.widening_reason("MOZAIKS_BUILD_CONTEXT_PATH", "build_context", root) is None


def test_only_a_typed_flag_widens_access_and_the_output_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _secret("AKIA")
    root, _ = _outside_workspace(tmp_path, secret)
    _code, out, _err = run_cli(["matrix", str(root), "--reveal", "--env", f"{ALLOW}=1"], capsys)
    assert secret in out  # the user asked, on the command line, with --reveal
    assert f"reads beyond the workspace: {ALLOW} (--env) lets file sources read outside" in out


def test_the_apps_env_overrides_cannot_widen_access(tmp_path: Path) -> None:
    secret = _secret("AKIA")
    root, _ = _outside_workspace(tmp_path, secret)
    session = open_session(root, env={})
    result = load(session, "W", {ALLOW: "true"}, {})
    assert result.matrix.row("creds").value == {}  # type: ignore[union-attr]
    [refusal] = [p for p in result.problems if "is ignored" in p.message]
    assert refusal.message.startswith(f"{ALLOW} is ignored in the app's env overrides")


def test_the_build_context_names_are_the_ones_the_setting_reads() -> None:
    assert (widening.PATH_ENV, widening.APP_WORKSPACE_ENV, widening.OPTION_ENV) == (
        setting.PATH_ENV,
        setting.APP_WORKSPACE_ENV,
        setting.OPTION_ENV,
    )


# --- finding 6: a database error quoting a secret from the filter ----------------------------


def test_a_database_error_does_not_quote_the_secret_placeholder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = _secret("tok")
    monkeypatch.setenv("API_TOKEN", secret)
    monkeypatch.delenv("FLOWCTX_MONGO_URI", raising=False)
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  api_token: {type: string, source: {type: config, env_var: API_TOKEN}}\n"
                "  account:\n"
                "    type: object\n"
                "    source:\n"
                "      type: data_reference\n"
                "      database_name: default\n"
                "      collection: accounts\n"
                '      query_template: {kind: {$type: "{{api_token}}"}}\n'
                "agents:\n  A: {variables: [api_token, account]}\n"
            ),
            "seed/default/accounts.json": [{"kind": 1}],
        },
    )
    outputs = []
    for args in (
        ["check", str(root)],
        ["check", str(root), "--format", "json"],
        ["check", str(root), "--format", "github"],
        ["check", str(root), "--format", "sarif"],
        ["matrix", str(root)],
        ["matrix", str(root), "--format", "json"],
        ["prompt", str(root)],
    ):
        _code, out, err = run_cli(args, capsys)
        assert secret not in out + err, args
        outputs.append(out)
    # check leaves out the problems of a lookup whose filter reads a secret (whether it found
    # a record is a bit of the secret); the matrix, the user's own view, says why, masked
    assert "Unknown type name alias" not in outputs[0]
    assert "Unknown type name alias: ***" in outputs[4]


# --- finding 7: the prompt renderer's "no selected record" -----------------------------------


def test_prompt_masks_a_selector_that_reads_a_secret(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = _secret("sk")
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    registry = (
        "context_id: patterns\napplies_to_workflows: [W]\n"
        'pack: {id: patterns, version: "1.0", status: active}\n'
        "assets:\n  - path: book.yaml\n    kind: catalog\n    projections:\n"
        "      - {id: selected, records: patterns, recipients: [BuilderAgent],\n"
        "         render: selected_record, selected_by: openai_api_key, marker: PATTERNS}\n"
        "projections:\n  context_variables:\n    capability_packs: {from: capability_packs}\n"
    )
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  openai_api_key:\n"
                "    {type: string, source: {type: config, env_var: OPENAI_API_KEY}}\n"
                "  capability_packs: {type: array, source: {type: build_context}}\n"
                "agents:\n  BuilderAgent: {variables: [openai_api_key, capability_packs]}\n"
            ),
            "workflows/W/middleware.yaml": (
                "prompt_middleware:\n  - agent: BuilderAgent\n    function: "
                "mozaiksai.core.workflow.context.projection.inject_build_context_projections\n"
            ),
            "build_context/patterns/context.yaml": registry,
            "build_context/patterns/book.yaml": "patterns:\n  - {id: star, name: Star}\n",
        },
    )
    for runtime in ("mozaiks", "spec"):
        for fmt in (["--format", "text"], ["--format", "json"], ["--raw"]):
            args = ["prompt", str(root), "--build-context", "--runtime", runtime, *fmt]
            _code, out, err = run_cli(args, capsys)
            assert secret not in out + err, args
    _code, out, _err = run_cli(["prompt", str(root), "--build-context"], capsys)
    assert "No selected catalog record for id=***." in out
    _code, out, _err = run_cli(["prompt", str(root), "--build-context", "--reveal"], capsys)
    assert f"No selected catalog record for id={secret!r}." in out


# --- finding 9: URI passwords and secret query values ----------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "postgres://app:{s}@db.internal:5432/x",
        "postgres://app:{s}" + "p" * 300 + "@db.internal/x",
        'postgres://app:pa"{s}@db.internal/x',
        "postgres://app:pa'{s}@db.internal/x",
        "https://h.example/cb?state=1&refresh_token={s}",
        "https://h.example/cb?id_token={s}&x=1",
        "https://acct.blob.example/c/b?sv=2024&sig={s}",
        "https://api.example/v1?key={s}",
        "https://b.s3.example/o?X-Amz-Credential={s}&X-Amz-Signature={s}",
        "https://app.example/cb#access_token={s}&token_type=bearer",
    ],
)
def test_uri_and_query_secrets_are_masked(text: str) -> None:
    secret = secrets.token_hex(12)
    assert secret not in mask_text(text.format(s=secret))


def test_a_coercion_warning_does_not_cut_a_uri_before_its_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = secrets.token_hex(12)
    monkeypatch.setenv("RETRIES", f"postgres://admin:{secret}@db.internal.example/app")
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  retries: {type: integer, source: {type: config, env_var: RETRIES}}\n"
                "agents:\n  A: {variables: [retries]}\n"
            )
        },
    )
    for args in (["check", str(root)], ["matrix", str(root), "--format", "json"]):
        _code, out, err = run_cli(args, capsys)
        assert "cannot coerce" in out + err
        assert secret[:10] not in out + err, args


# --- low findings ------------------------------------------------------------------------------


def test_authority_does_not_repeat_a_typed_argument(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = _secret("sk-live")
    root = write_tree(
        tmp_path / "ws",
        {"workflows/W/context_variables.yaml": "definitions: {}\nagents: {}\n"},
    )
    code, out, err = run_cli(["authority", str(root), secret, "{}"], capsys)
    assert code == 2 and secret not in out + err
    [line] = err.strip().splitlines()
    assert "neither a file nor inline JSON" in line


def test_normalize_refuses_a_result_past_the_string_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 120,000 x 18 characters: past the budget's 2,000,000 items (strings are no longer capped
    # at 100,000, which the engine exceeds with real documents)
    expr = "'\\ufdfa'.repeat(120000).normalize('NFKD').length > 0"
    _code, out, _err = run_cli(["eval", expr, "--format", "json"], capsys)
    doc = json.loads(out)
    assert doc["success"] is False and "too long" in doc["error"]
    # the same call within the limit answers as node does (U+FDFA is 18 characters under NFKD)
    _code, out, _err = run_cli(
        ["eval", "'\\ufdfa'.repeat(5000).normalize('NFKD').length == 90000"], capsys
    )
    assert out.startswith("true")


# --- finding 10: structured outputs escaped for their format ----------------------------------

FORGED_HEADING = "## ✅ flowctx: no risky changes"
EVIL_FOLDER = f"Evil\n\n{FORGED_HEADING}\n\n<!--"
FORGED_VARIABLE = "x\n::error file=README.md,line=1::forged"
PERCENT_VARIABLE = "fifty%25\rpct"
FORGED_AGENT = "A|b\n## x"


def _forging_side(root: Path, default: str) -> Path:
    def q(text: str) -> str:
        return json.dumps(text)

    return write_tree(
        root,
        {
            f"workflows/{EVIL_FOLDER}/context_variables.yaml": (
                "definitions:\n"
                f"  {q(FORGED_VARIABLE)}: {{type: string, source: {{type: config, "
                f"default: {default}}}}}\n"
                f"  {q(PERCENT_VARIABLE)}: {{type: string, source: {{type: config, "
                "default: p}}\n"
                f"  region: {{type: string, source: {{type: config, default: {default}}}}}\n"
                f"agents:\n  {q(FORGED_AGENT)}: {{variables: [region]}}\n"
                "  B: {variables: [region]}\n"
            ),
            f"workflows/{EVIL_FOLDER}/transition_graph.yaml": (
                f"transitions:\n  - source: {q(FORGED_AGENT)}\n"
                "    transition_type: condition\n    condition_type: context_expression\n"
                f"    condition: \"${{region}} == '{default}'\"\n    target: B\n"
                f"    description: {q('d]; evil -->|x| B' + chr(10) + 'winner: forged')}\n"
            ),
        },
    )


def _forged_lines(text: str) -> list[str]:
    """Lines a name started: a heading, an HTML comment, a workflow command, a winner."""
    return [
        line
        for line in text.splitlines()
        if line.startswith((FORGED_HEADING, "<!--", "::error file=README.md", "winner: forged"))
        or line.strip() in ("pct", "## x")
    ]


def test_names_with_line_breaks_and_markup_stay_inside_their_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _forging_side(tmp_path / "base", "a")
    head = _forging_side(tmp_path / "head", "b")
    runs = {
        "diff markdown": ["diff", str(head), "--base", str(base), "--format", "markdown"],
        "diff text": ["diff", str(head), "--base", str(base)],
        "check text": ["check", str(head)],
        "check github": ["check", str(head), "--format", "github"],
        "graph text": ["graph", str(head)],
        "graph mermaid": ["graph", str(head), "--format", "mermaid"],
        "graph dot": ["graph", str(head), "--format", "dot"],
        "matrix": ["matrix", str(head)],
        "routes": ["routes", str(head), "--from", FORGED_AGENT],
    }
    outputs = {}
    for what, args in runs.items():
        _code, out, err = run_cli(args, capsys)
        assert _forged_lines(out + err) == [], (what, out + err)
        outputs[what] = out
    # the markdown still shows the change, under a heading of its own
    md = outputs["diff markdown"].splitlines()
    [heading] = [line for line in md if line.startswith("### ")]
    assert heading.startswith("### `Evil") and "<!--" in heading  # inside a code span
    assert any(line.startswith("| ~ |") and "region" in line for line in md)
    # every annotation is one workflow command, whatever the names hold
    github = outputs["check github"].strip().splitlines()
    commands = [line for line in github if line.startswith("::")]
    assert commands and all(line.startswith(("::warning ", "::error ")) for line in commands)
    assert "%0A::error file=README.md" in outputs["check github"]
    assert "fifty%2525%0Dpct" in outputs["check github"]  # % first, then CR
    assert "workflows/Evil%0A%0A## ✅ flowctx%3A no risky changes" in outputs["check github"]
    # the comment headers of mermaid and dot stay comments
    for what, mark in (("graph mermaid", "%%"), ("graph dot", "//")):
        header = [line for line in outputs[what].splitlines() if "flowctx graph:" in line]
        assert header and all(line.strip().startswith(mark) for line in header), header


# --- finding 5: a value chosen by comparing with a secret is a secret -------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyz-0123456789"
#: the attack of the issue: for each position, the letter equal to the key's, kept by reduce
REBUILD = (
    "[0,1,2,3,4,5,6,7,8,9,10,11].map(i => '" + ALPHABET + "'.split('').reduce("
    "(a, c) => c === context.openai_api_key[i] ? c : a, '')).join('') === 'nope'"
)
#: the same through filter, find, indexOf, a boolean chain and a sort by the secret
VARIANTS = (
    "[0,1,2,3,4,5].map(i => '" + ALPHABET + "'.split('').filter(c => c === "
    "context.openai_api_key[i])[0]).join('') === 'nope'",
    "[0,1,2,3,4,5].map(i => '" + ALPHABET + "'.split('').find(c => c === "
    "context.openai_api_key[i])).join('') === 'nope'",
    "[0,1,2,3,4,5].map(i => '" + ALPHABET + "'.indexOf(context.openai_api_key[i])).length === 1",
    "[0,1,2,3,4,5].map(i => '" + ALPHABET + "'.split('').map(c => c === "
    "context.openai_api_key[i] && c).join('')).length === 1",
    "[0,1,2,3,4,5].map(i => '" + ALPHABET + "'.split('').sort((x, y) => (y === "
    "context.openai_api_key[i]) - (x === context.openai_api_key[i]))[0]).length === 1",
)


def _rebuild_workspace(root: Path, conditions: tuple[str, ...]) -> Path:
    paths = "".join(
        f"  - {{from: Start, to: N{n}, condition: {json.dumps(c)}}}\n"
        for n, c in enumerate(conditions)
    )
    steps = "".join(f"  - {{name: N{n}, type: Action}}\n" for n in range(len(conditions)))
    return write_tree(
        root,
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  openai_api_key:\n"
                "    {type: string, source: {type: config, env_var: OPENAI_API_KEY}}\n"
                "agents:\n  A: {variables: [openai_api_key]}\n"
            ),
            "workflows/W/flow.yaml": (
                "steps:\n  - {name: Start, type: Action, starting: true}\n"
                + steps
                + "paths:\n"
                + paths
            ),
        },
    )


def _rebuilt(text: str, secret: str) -> list[str]:
    """Runs of the secret's characters as an explain shows them (a string, a JSON array, the
    positions of an indexOf)."""
    head = secret[:6]
    forms = [
        head,
        '", "'.join(head),
        ", ".join(str(ALPHABET.index(c)) for c in head),
    ]
    return [f for f in forms if f in text]


def test_routes_never_rebuild_a_secret_from_comparisons(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-" + "".join(secrets.choice("0123456789abcdef") for _ in range(12))
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    root = _rebuild_workspace(tmp_path / "ws", (REBUILD, *VARIANTS))
    for fmt in ("text", "json"):
        _code, out, err = run_cli(["routes", str(root), "--from", "Start", "--format", fmt], capsys)
        assert "context.openai_api_key" in out  # the explain is there
        assert _rebuilt(out + err, secret) == [], fmt


async def test_the_routes_view_and_its_screenshot_never_rebuild_a_secret(tmp_path: Path) -> None:
    from textual.widgets import Tree

    from flowctx_tui.app import FlowctxApp
    from tests.conftest import settle
    from tests.reliability.test_hostile_app_escapes import strips_text
    from tests.tui.conftest import FIXED_NOW, reloaded, wait_for

    secret = "sk-" + "".join(secrets.choice("0123456789abcdef") for _ in range(12))
    root = _rebuild_workspace(tmp_path / "ws", (REBUILD,))
    shots = tmp_path / "shots"
    shots.mkdir()
    app = FlowctxApp(
        open_session(root, env={"OPENAI_API_KEY": secret}),
        "W",
        watch=False,
        clock=lambda: FIXED_NOW,
        screenshot_dir=shots,
        cursor_blink=False,
    )
    async with app.run_test(size=(200, 60)) as pilot:
        await reloaded(pilot)
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.query("#routes-view"), "the routes view")
        routes: Any = app.query_one("#routes-view")
        await settle(pilot)
        routes.select_source("Start")
        await settle(pilot)
        for tree in app.query(Tree):
            tree.root.expand_all()
        await settle(pilot)
        lines = "\n".join(routes.lines())
        assert "context.openai_api_key[i]" in lines
        assert _rebuilt(lines, secret) == [] and _rebuilt(strips_text(app), secret) == []
        await pilot.press("f8")
        await wait_for(pilot, lambda: any(shots.iterdir()), "the F8 screenshot")
    [svg] = list(shots.iterdir())
    assert _rebuilt(svg.read_text(encoding="utf-8"), secret) == []
