"""V8's error messages that quote a value (issue 36): shown as node prints them, except that a
condition whose failure read a secret gets the same message without the value, from the CLI
as from the explain tree."""

from __future__ import annotations

import json

import pytest

from flowctx_core.expressions import evaluate
from flowctx_tui.cli import main
from tests.differential.draw import NOW, draw

SECRET = "sk-live-0123456789"
READ_UNDEFINED = "Cannot read properties of undefined"


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
        ("context.x[context.openai_api_key]", f"{READ_UNDEFINED} (reading a computed key)"),
        ("context.x[context.openai_api_key] = 1",
         "Cannot set properties of undefined (setting a computed key)"),
        ("context.x[context.openai_api_key]++", f"{READ_UNDEFINED} (reading a computed key)"),
        ("new Promise(context.openai_api_key)", "Promise resolver (string) is not a function"),
        ("context.openai_api_key(...[1], 2)",
         "Function.prototype.apply was called on a value which is a string and not a function"),
        ("new context.openai_api_key(...[1], 2)", "value is not a constructor"),
    ],
)  # fmt: skip
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


def test_no_family_of_the_differential_quotes_a_secret_in_its_errors() -> None:
    """Every generator family's conditions, with their payload moved into ``context`` and a
    secret beside it: whatever fails says no string of the secret scope that the condition's
    text does not itself hold."""
    cases = draw(6000, 36)
    checked = 0
    for family, (expr, scope) in cases:
        payload = scope.get("payload")
        if "payload" not in expr or not isinstance(payload, dict):
            continue
        secret = {**payload, "api_key": SECRET}
        text = expr.replace("payload", "context")
        result = evaluate(text, {**scope, "payload": {}, "context": secret}, "mj", now=NOW)
        if result.success or result.error is None:
            continue
        checked += 1
        quoted = [v for v in _strings(secret) if v in result.error.message and v not in text]
        assert not quoted, (family, text, result.error.message)
    assert checked > 500


#: words V8's messages hold whatever the scope holds ("Cannot read properties of null")
_ENGINE_WORDS = frozenset({"null", "undefined", "true", "false", "object", "function", "string"})


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        keep = len(value) >= 4 and value.strip() and value not in _ENGINE_WORDS
        return {value} if keep else set()
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value))
    return set()


@pytest.mark.parametrize(
    ("expr", "masked"),
    [
        ("new Intl.NumberFormat('en', context.o).format(1)",
         "Value *** out of range for Intl.NumberFormat options property style"),
        ("new Intl.Collator('en', context.c).compare('a', 'b')", "Invalid collation : ***"),
    ],
)  # fmt: skip
def test_a_message_without_an_anonymous_form_has_the_secret_masked(
    capsys: pytest.CaptureFixture[str], expr: str, masked: str
) -> None:
    """The last guard: a failure whose words still hold a string of the secret scope (an option
    read from context and quoted by V8) shows it as ***, in JSON and in the explain tree."""
    context = json.dumps({"o": {"style": SECRET}, "c": {"collation": SECRET}})
    out = _eval(capsys, expr, "--context", context)
    assert out["error"] == masked
    main(["eval", expr, "--dialect", "mj", "--context", context, "--explain"])
    text = capsys.readouterr().out
    assert masked in text and "sk-live" not in text
