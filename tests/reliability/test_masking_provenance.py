"""Masking by provenance (issue 13): a secret stays masked through every transformation.

Each leak the issue found is reproduced through the user's own entry points: ``flowctx eval``
(text and JSON), ``flowctx routes`` (text and JSON) on a ``flow.yaml`` whose condition reads an
env-sourced secret, and the app's explain labels (scratchpad and routes view) through Pilot.
The secrets are generated at test time; each test checks that the secret, its slices, its
upper- and lower-case forms and its characters one by one (what ``split('')`` shows) appear
nowhere in what the user sees, and that revealing shows them (so the scan can see a leak).
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from tests.conftest import settle
from tests.reliability.harness import run_cli
from tests.tui.conftest import FIXED_NOW, reloaded, wait_for


def new_secret() -> str:
    # mixed case, so that upper- and lower-casing each make a form of their own
    return "Sk" + secrets.token_hex(10) + "Qz"


def forms(secret: str) -> list[str]:
    """What a leak of ``secret`` may look like: 8-character windows of it, of its slices
    and of its case changes, and its first characters as a list in JSON and Python."""
    out: set[str] = set()
    for text in (secret, secret.upper(), secret.lower()):
        out |= {text[i : i + 8] for i in range(len(text) - 7)}
    chars = list(secret[2:8])
    out.add(json.dumps(chars)[1:-1])
    out.add(repr(chars)[1:-1])
    out.add(", ".join(json.dumps(c) for c in secret[3:9]))
    return sorted(out)


def leaked(secret: str, text: str) -> list[str]:
    return [f for f in forms(secret) if f in text]


def eval_outputs(capsys: pytest.CaptureFixture[str], expr: str, *args: str) -> list[str]:
    """``flowctx eval --explain`` in text and in JSON; both must say the verdict."""
    outs = []
    for fmt in ("text", "json"):
        code, out, err = run_cli(["eval", expr, *args, "--explain", "--format", fmt], capsys)
        assert code in (0, 1), (code, out, err)
        outs.append(out + err)
    return outs


def test_eval_arrow_function_over_context(capsys: pytest.CaptureFixture[str]) -> None:
    secret = new_secret()
    context = json.dumps({"note": secret, "region": "eu"})
    for out in eval_outputs(capsys, "[context.note].map(x => x).length > 0", "--context", context):
        assert out.startswith("true") or '"value": true' in out
        assert leaked(secret, out) == [], out
        assert "derived from context.note" in out


@pytest.mark.parametrize(
    "expr",
    [
        "data['api' + '_key'].slice(1) === 'x'",
        "data['api' + '_key'].split('').length > 0 && data['api' + '_key'].split('') != 'x'",
        "data['api' + '_key'].toLowerCase() === 'x'",
        "data['api' + '_key'].toUpperCase().slice(2, 12) === 'x'",
        "[data['api' + '_key']].map(k => k.split('').reverse().join('')).join('') === 'x'",
        "(data['api' + '_key'] + '!').length > 0 && data['api' + '_key'] + '!' !== 'x'",
        "JSON.stringify(data).length > 0 && JSON.stringify(data).toLowerCase() !== 'x'",
    ],
)
def test_eval_mj_computed_secret_key_transformed(
    capsys: pytest.CaptureFixture[str], expr: str
) -> None:
    secret = new_secret()
    data = json.dumps({"api_key": secret, "status": "open"})
    for out in eval_outputs(capsys, expr, "--data", data):
        assert leaked(secret, out) == [], out
        assert "***" in out


def test_eval_mj_keeps_values_beside_the_secret_visible(capsys: pytest.CaptureFixture[str]) -> None:
    secret = new_secret()
    data = json.dumps({"api_key": secret, "status": "open"})
    text, _ = eval_outputs(
        capsys, "data.status === 'open' && data['api' + '_key'].slice(1) !== 'x'", "--data", data
    )
    assert "+ data.status === 'open' -> true (got \"open\")" in text
    assert "(secret: derived from data.api_key)" in text
    assert "+ data['api' + '_key'] -> *** (secret: key looks secret)" in text
    assert leaked(secret, text) == []


@pytest.mark.parametrize(
    "expr",
    [
        "cfg['pass'+'word'][1:] == 'x'",
        "cfg['pass'+'word'].upper() == 'x'",
        "cfg['pass'+'word'].lower()[2:] == 'x'",
        "list(cfg['pass'+'word']) == ['x']",
        "sorted(cfg['pass'+'word']) == ['x']",
        "cfg.get('pass' + 'word').split('k') == ['x']",
        "str([cfg['pass'+'word']]) == 'x'",
    ],
)
def test_eval_python_computed_secret_key_transformed(
    capsys: pytest.CaptureFixture[str], expr: str
) -> None:
    secret = new_secret()
    scope = json.dumps({"cfg": {"password": secret, "host": "db"}})
    for out in eval_outputs(capsys, expr, "--dialect", "python", "--scope", scope):
        assert leaked(secret, out) == [], out
        assert "***" in out


# --- routes over a flow.yaml with an env-sourced secret ----------------------------------------

CONTRACT = """
definitions:
  region:
    type: string
    source: {type: config, env_var: REGION_TOKEN}
  tier:
    type: string
    source: {type: config, env_var: TIER}
agents:
  Planner: {variables: [region, tier]}
"""
CONDITION = "[context.region].map(x => x.split('')).length > 5"
FLOW = f"""
agent: Planner
steps:
  - {{name: Start, type: Action, starting: true}}
  - {{name: Split, type: Action}}
  - {{name: Tiered, type: Action}}
  - {{name: Done, type: Action}}
paths:
  - {{from: Start, to: Split, priority: 30, condition: "{CONDITION}"}}
  - {{from: Start, to: Tiered, priority: 20,
     condition: "context.tier === 'gold' && context.region.toLowerCase().slice(3) !== 'x'"}}
  - {{from: Start, to: Done, priority: 10}}
"""


@pytest.fixture
def flow_ws(workspace: Any) -> Path:
    root: Path = workspace(
        {"workflows/W/context_variables.yaml": CONTRACT, "workflows/W/flow.yaml": FLOW}
    )
    return root


def test_routes_text_and_json_mask_an_env_secret_through_an_arrow_function(
    flow_ws: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = new_secret()
    monkeypatch.setenv("REGION_TOKEN", secret)
    monkeypatch.setenv("TIER", "gold")
    base = ["routes", str(flow_ws), "-w", "W", "--from", "Start"]
    code, text, err = run_cli(base, capsys)
    assert code == 0, err
    assert CONDITION in text  # the condition is shown, as the author wrote it
    assert "(secret: derived from context.region)" in text
    assert "+ context.tier === 'gold' -> true (got \"gold\")" in text  # beside it: shown
    assert leaked(secret, text + err) == [], text
    code, out, err = run_cli([*base, "--format", "json"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["decisions"][0]["winner"] == "Tiered"
    assert leaked(secret, out + err) == [], out
    # revealing shows the value, so the scans above could have seen it
    code, out, _ = run_cli([*base, "--reveal"], capsys)
    assert code == 0 and leaked(secret, out)


# --- the app's explain labels ------------------------------------------------------------------


async def test_app_explain_labels_mask_derived_values_until_revealed(flow_ws: Path) -> None:
    secret = new_secret()
    app = FlowctxApp(
        open_session(flow_ws, env={"REGION_TOKEN": secret, "TIER": "gold"}),
        "W",
        watch=False,
        clock=lambda: FIXED_NOW,
        cursor_blink=False,
    )
    async with app.run_test(size=(160, 50)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#scratchpad-view"), "the scratchpad")
        pad: Any = app.query_one("#scratchpad-view")
        await settle(pilot, lambda: pad.pending)
        field = pad.expression_input
        field.focus()
        field.insert_text_at_cursor(
            "[context.region].map(x => x.split('')).length > 0 && context.tier === 'gold' && "
            "context.region.toUpperCase().slice(1) !== 'x'"
        )
        await settle(pilot, lambda: pad.pending)
        labels = "\n".join(pad.query_one("#sp-explain").labels())
        assert "derived from context.region" in labels, labels
        # a plain variable beside the secret stays visible
        assert "true (got \"gold\")  context.tier === 'gold'" in labels, labels
        assert leaked(secret, labels) == [], labels

        # the reveal toggle shows it, for this screen only
        pad.query_one("#sp-explain").focus()
        await pilot.press("r")
        await settle(pilot, lambda: pad.pending)
        assert app.reveal
        revealed = "\n".join(pad.query_one("#sp-explain").labels())
        assert leaked(secret, revealed), revealed
        await pilot.press("r")
        await settle(pilot, lambda: pad.pending)
        assert leaked(secret, "\n".join(pad.query_one("#sp-explain").labels())) == []

        # the routes view: the flow's candidates, expanded
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.query("#routes-view"), "the routes view")
        routes: Any = app.query_one("#routes-view")
        await settle(pilot, lambda: routes.pending)
        routes.select_source("Start")
        await settle(pilot, lambda: routes.pending)
        lines = "\n".join(routes.lines())
        assert "derived from context.region" in lines, lines
        assert leaked(secret, lines) == [], lines
