"""V8's error messages that quote a value (issue 36): shown as node prints them, except that a
condition whose failure read a secret gets the same message without the value, from the CLI
as from the explain tree."""

from __future__ import annotations

import json

import pytest

from flowctx_tui.cli import main

SECRET = "sk-live-0123456789"


def _eval(capsys: pytest.CaptureFixture[str], expr: str, *extra: str) -> dict[str, object]:
    code = main(["eval", expr, "--dialect", "mj", "--format", "json", *extra])
    out = json.loads(capsys.readouterr().out)
    assert code == 3 and out["success"] is False  # 3: the condition failed
    return out


@pytest.mark.parametrize(
    ("expr", "shown"),
    [
        ("JSON.parse(payload.t)", "Unexpected token 'o', \"not json\" is not valid JSON"),
        ("[1].map(payload.t)", "not json is not a function"),
        ("(payload.t.q = 1)", "Cannot create property 'q' on string 'not json'"),
        (
            "[payload.t.length].map(([a]) => a)",
            "number 8 is not iterable (cannot read property Symbol(Symbol.iterator))",
        ),
    ],
)
def test_a_plain_value_is_quoted_as_node_quotes_it(
    capsys: pytest.CaptureFixture[str], expr: str, shown: str
) -> None:
    out = _eval(capsys, expr, "--payload", json.dumps({"t": "not json"}))
    assert out["error"] == shown


@pytest.mark.parametrize(
    ("expr", "anonymous"),
    [
        ("JSON.parse(context.openai_api_key)", "Unexpected token in JSON at position 0"),
        ("[1].map(context.openai_api_key)", "string is not a function"),
        ("(context.openai_api_key.q = 1)", "Cannot create property 'q' on a string"),
    ],
)
def test_a_secret_is_never_quoted(
    capsys: pytest.CaptureFixture[str], expr: str, anonymous: str
) -> None:
    context = json.dumps({"openai_api_key": SECRET})
    out = _eval(capsys, expr, "--context", context)
    assert out["error"] == anonymous
    assert "sk-live" not in json.dumps(out)
    main(["eval", expr, "--dialect", "mj", "--context", context, "--explain"])
    text = capsys.readouterr().out
    assert anonymous in text and "sk-live" not in text
