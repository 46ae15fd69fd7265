"""``secret_read``: whether a condition's verdict reads a secret, for the verdicts a test file,
a coverage mark or a witness would otherwise tell. Each oracle shape a hostile test file can
write is named, with the shapes that read no secret beside them."""

from __future__ import annotations

import pytest

from flowctx_core.expressions.taint import secret_read

SCOPE = {
    "context": {
        "region": "eu",
        "openai_api_key": "sk-live-0123456789",
        "db": "postgres://app:hunter2@db.internal/app",
        "settings": {"api_key": "inner-key-1234", "limit": 3},
    },
    "payload": {"amount": 12},
    "data": {},
}
ROOTS = {"context.openai_api_key": "env OPENAI_API_KEY looks secret"}


@pytest.mark.parametrize(
    ("condition", "secret"),
    [
        # one bit of one character, however it is computed
        ("(context.openai_api_key.charCodeAt(0) & 2) !== 0", "context.openai_api_key"),
        ("context['openai' + '_api_key'].length > 10", "context.openai_api_key"),
        ("context.openai_api_key.startsWith('sk-l')", "context.openai_api_key"),
        ("/^sk-l/.test(context.openai_api_key)", "context.openai_api_key"),
        ("context.openai_api_key.length === 18", "context.openai_api_key"),
        # the branch taken, a callback, a fold over the alphabet
        ("context.openai_api_key.charCodeAt(1) & 1 ? true : false", "context.openai_api_key"),
        ("[1, 2].some(i => context.openai_api_key.length === i)", "context.openai_api_key"),
        (
            "[...'abcdefghijklmnopqrstuvwxyz'].reduce("
            "(a, c) => c === context.openai_api_key[0] ? c : a, '') === 's'",
            "context.openai_api_key",
        ),
        # an error only one value of the bit raises
        ("(context.openai_api_key.charCodeAt(2) & 1) ? null.x : true", "context.openai_api_key"),
        # the whole context, its keys, a URI password, a secret-looking key inside a value
        ("JSON.stringify(context).length > 10", "context.openai_api_key"),
        ("Object.keys(context).length > 1", "context.openai_api_key"),
        ("context.db.includes('hunter')", "context.db"),
        ("context.settings.api_key === 'x'", "context.settings.api_key"),
    ],
)
def test_a_verdict_computed_from_a_secret_reads_it(condition: str, secret: str) -> None:
    assert secret_read(condition, SCOPE, "mj", ROOTS) == secret


@pytest.mark.parametrize(
    "condition",
    [
        "context.region === 'eu'",
        "context.settings.limit > 2",
        # short-circuits before the secret: never read
        "context.region === 'eu' || context.openai_api_key.length > 3",
        "context.region === 'us' && context.openai_api_key.length > 3",
        "payload.amount > 10",
        "context.nothing.here",  # fails on a missing member, before any secret
    ],
)
def test_a_verdict_that_reads_no_secret_is_told(condition: str) -> None:
    assert secret_read(condition, SCOPE, "mj", ROOTS) is None


@pytest.mark.parametrize("dialect", ["mozaiks", "ag2"])
def test_the_dollar_dialects_read_variables_by_name(dialect: str) -> None:
    context = SCOPE["context"]
    roots = {"openai_api_key": "env OPENAI_API_KEY looks secret"}
    assert secret_read("${openai_api_key} == 'x'", context, dialect, roots) == "openai_api_key"
    assert secret_read("${region} == 'eu'", context, dialect, roots) is None


def test_python_reads_the_path_context() -> None:
    assert (
        secret_read("context.openai_api_key[0] == 's'", SCOPE, "python", ROOTS)
        == "context.openai_api_key"
    )
    assert secret_read("context.region == 'eu'", SCOPE, "python", ROOTS) is None
