"""Provenance rules of the explain's masking (core/expressions/provenance.py), per dialect:
what is masked, what stays visible, and the reason each masked value gives."""

from __future__ import annotations

import secrets

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.pathcontext import build_path_context


def explain(expr: str, scope: dict, dialect: str = "mj", **kw: object) -> str:
    result = evaluate(expr, scope, dialect, explain=True, **kw)  # type: ignore[arg-type]
    assert result.explain is not None
    return "\n".join(result.explain.lines())


def token() -> str:
    return "Tk" + secrets.token_hex(8)


def test_a_plain_variable_beside_a_secret_path_stays_visible() -> None:
    s = token()
    scope = build_path_context(context={"region": s, "tier": "gold"})
    roots = {"context.region": "env REGION_TOKEN looks secret"}
    text = explain(
        "context.tier === 'gold' && context.region.slice(2) !== 'x'",
        scope,
        **{"secret_roots": roots},
    )
    assert "+ context.tier === 'gold' -> true (got \"gold\")" in text
    assert "context.region.slice(2) -> *** (secret: derived from context.region)" in text
    assert s[2:] not in text
    # the whole context holds the secret: shown whole it is masked, and says what it holds
    text = explain("Object.keys(context).length > 0 && context", scope, secret_roots=roots)
    assert s not in text
    assert "holds context.region" in text or "derived from context" in text


def test_the_operand_returned_by_or_and_coalesce_derives_from_the_choice() -> None:
    scope = build_path_context(context={"flag": ""}, payload={"fallback": "plain"})
    # "plain" came back because the secret is falsy: the choice tells what the secret is
    text = explain("context.flag || payload.fallback", scope)
    assert "-> *** (secret: derived from context.flag)" in text.splitlines()[0]
    assert '+ payload.fallback -> "plain"' in text  # the operand itself is still shown
    text = explain("payload.fallback || context.flag", scope)
    assert '-> "plain"' in text.splitlines()[0]  # chosen before the secret was read
    text = explain("context.flag ?? payload.fallback", scope)
    assert "*** (secret:" in text.splitlines()[0]  # '' is not nullish: the secret is returned


def test_typeof_and_verdicts_stay_visible_but_lengths_do_not() -> None:
    s = token()
    scope = build_path_context(context={"note": s})
    text = explain("typeof context.note === 'string' && context.note.length > 3", scope)
    assert "+ typeof context.note === 'string' -> true (got \"string\")" in text
    assert "+ context.note.length > 3 -> true (got *** (secret: derived from context.note))" in text


def test_a_secret_written_into_the_scope_stays_secret_where_it_is_read_again() -> None:
    s = token()
    scope = build_path_context(data={"api_key": s, "items": [], "label": "x"})
    text = explain("(data.label = data.api_key, data.label.toUpperCase()) !== 'x'", scope)
    assert s.upper() not in text and s not in text
    text = explain("data.items.push(data.api_key) > 0 && JSON.stringify(data.items) != 'x'", scope)
    assert s not in text


def test_callback_parameters_and_results_derive_from_the_receiver() -> None:
    s = token()
    scope = build_path_context(data={"users": [{"name": "ann", "token": s}]})
    text = explain("data.users.map(u => u.name).join() === 'ann'", scope)
    assert '+ u.name -> "ann"' in text  # a name beside the token is not secret
    assert '+ data.users -> [{"name": "ann", "token": "***"}]' in text
    assert s not in text
    text = explain("data.users.map(u => u.token.slice(1)).join() !== 'x'", scope)
    assert s[1:] not in text
    assert "derived from" in text


def test_reveal_shows_everything() -> None:
    s = token()
    scope = build_path_context(context={"note": s})
    text = explain(
        "[context.note].map(x => x.toLowerCase())[0] !== 'x'", scope, reveal_secrets=True
    )
    assert s.lower() in text


def test_python_and_mozaiks_dialects() -> None:
    s = token()
    text = explain("cfg['pass' + 'word'].lower()[3:] != 'x'", {"cfg": {"password": s}}, "python")
    assert s.lower()[3:] not in text and "derived from cfg.password" in text
    text = explain(
        "len(${db_password}) > 3 and ${region} == 'eu'",
        {"db_password": s, "region": "eu"},
        "mozaiks",
    )
    assert s not in text
    assert "(got 'eu')" in text or "'eu'" in text
