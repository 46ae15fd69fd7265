"""Explain trees: values of every part, on success and on failure, with secrets masked."""

from __future__ import annotations

from flowctx_core.expressions import ExplainNode, evaluate
from flowctx_core.expressions.pathcontext import build_path_context


def tree(expr: str, scope: dict, dialect: str = "mj") -> ExplainNode:
    result = evaluate(expr, scope, dialect, explain=True)
    assert result.explain is not None
    return result.explain


def test_success_tree_shows_each_part_and_operands() -> None:
    scope = build_path_context(data={"retryCount": 2}, payload={"status": "pending"})
    node = tree("data.retryCount < 3 && payload.status === 'pending'", scope)
    assert node.lines() == [
        "+ data.retryCount < 3 && payload.status === 'pending' -> true",
        "  + data.retryCount < 3 -> true (got 2)",
        "  + payload.status === 'pending' -> true (got \"pending\")",
    ]
    assert node.value is True
    first = node.children[0]
    assert (first.text, first.value, first.start, first.end) == ("data.retryCount < 3", True, 0, 19)


def test_false_part_is_visible_and_short_circuit_is_marked_skipped() -> None:
    scope = build_path_context(data={"retryCount": 5}, payload={"status": "pending"})
    node = tree("data.retryCount < 3 && payload.status === 'pending'", scope)
    assert node.value is False
    lines = node.lines()
    assert lines[1] == "  + data.retryCount < 3 -> false (got 5)"
    assert lines[2] == "  + payload.status === 'pending' -> skipped (not evaluated)"
    assert node.children[1].skipped and node.children[1].value == "skipped"


def test_failure_keeps_a_partial_tree_with_the_failing_node() -> None:
    result = evaluate(
        "a === 1 && payload.customer.tier === 'x'", {"a": 1, "payload": {}}, explain=True
    )
    assert not result.success
    node = result.explain
    assert node is not None and node.error is not None
    assert node.children[0].value is True
    failing = node.children[1]
    assert failing.error == "Cannot read properties of undefined (reading 'tier')"
    text = "\n".join(node.lines())
    assert "-> error: Cannot read properties of undefined (reading 'tier')" in text
    assert "+ a === 1 -> true (got 1)" in text


def test_parse_failure_gives_a_single_error_node() -> None:
    result = evaluate("a ===", {"a": 1}, explain=True)
    assert result.explain is not None
    assert result.explain.error == "Unexpected token ')'"
    assert result.explain.lines() == ["+ a === -> error: Unexpected token ')'"]


def test_missing_name_marks_root_and_name() -> None:
    result = evaluate("missingVar > 1", {}, explain=True)
    assert result.error.message == "missingVar is not defined"
    assert result.explain.error == "missingVar is not defined"


def test_undefined_nan_and_functions_render_readably() -> None:
    node = tree("o.missing === undefined && isNaN(o.x / 0)", {"o": {"x": 0}})
    text = "\n".join(node.lines())
    assert "(got undefined)" in text
    arrow = tree("xs.some(x => x > 1)", {"xs": [1, 2]})
    assert "x => x > 1 -> (function)" in "\n".join(arrow.lines())
    assert arrow.children[0].value == [1, 2]


def test_to_json_is_nested_dicts() -> None:
    result = evaluate("a > 1 || b", {"a": 0, "b": True}, explain=True)
    data = result.to_json(explain=True)
    assert set(data) == {
        "success", "value", "error", "error_span", "elapsed_ms", "explain", "engine", "warnings",
        "clock",
    }  # fmt: skip
    assert data["explain"]["children"][0]["text"] == "a > 1"
    assert data["explain"]["children"][1]["value"] is True


def test_secret_context_values_are_masked_with_why_but_outcomes_shown() -> None:
    scope = build_path_context(context={"environment": "production", "region": "eu", "n": 7})
    secret = {"context.environment": "secret-sourced (env DEPLOY_TOKEN)"}
    text = "context.environment === 'production' && context.n > 3 && context.region"
    result = evaluate(text, scope, "mj", explain=True, secret_roots=secret)
    assert result.explain is not None
    lines = result.explain.lines()
    assert "production'" in lines[0]  # the literal the author wrote is fine
    assert (
        "  + context.environment === 'production' -> true "
        "(got *** (secret: secret-sourced (env DEPLOY_TOKEN)))"
    ) in lines
    # its neighbours are not secret: shown
    assert "  + context.n > 3 -> true (got 7)" in lines
    assert '  + context.region -> "eu"' in lines
    assert result.explain.children[0].value is True


def test_reading_all_of_a_context_that_holds_a_secret_is_masked() -> None:
    scope = build_path_context(context={"db": "hunter22", "n": 7})
    secret = {"context.db": "secret-sourced (env DB_PASSWORD)"}
    result = evaluate("JSON.stringify(context)", scope, "mj", explain=True, secret_roots=secret)
    assert result.explain is not None
    text = "\n".join(result.explain.lines())
    assert "hunter22" not in text
    assert "*** (secret: holds context.db, secret-sourced (env DB_PASSWORD))" in text


def test_a_whole_root_may_still_be_secret() -> None:
    scope = build_path_context(context={"n": 7})
    node = evaluate("context.n > 3", scope, "mj", explain=True, secret_roots=("context",))
    assert node.explain is not None
    assert node.explain.lines() == ["+ context.n > 3 -> true (got *** (secret: marked secret))"]


def test_secret_keys_are_masked_anywhere() -> None:
    scope = {"payload": {"apiKey": "sk-123", "user": {"password": "hunter2", "name": "ann"}}}
    node = tree("payload.apiKey.length > 3 && payload.user.name === 'ann' && payload.user", scope)
    text = "\n".join(node.lines())
    assert "sk-123" not in text and "hunter2" not in text
    assert '"ann"' in text  # not secret


def test_reveal_secrets_shows_values() -> None:
    scope = {"context": {"token": "abc"}}
    result = evaluate("context.token === 'abc'", scope, explain=True, reveal_secrets=True)
    assert '(got "abc")' in "\n".join(result.explain.lines())


def test_ag2_and_python_trees() -> None:
    ag2 = tree("${a} and len(${b}) > 1", {"a": True, "b": [1]}, "ag2")
    assert ag2.lines() == [
        "+ ${a} and len(${b}) > 1 -> False",
        "  + ${a} -> True",
        "  + len(${b}) > 1 -> False (got 1)",  # AG2 pastes the length itself
    ]
    py = tree(
        "payload.status == 'x' or payload.n > 1", {"payload": {"status": "y", "n": 2}}, "python"
    )
    assert py.lines()[1] == "  + payload.status == 'x' -> False (got 'y')"


def test_secrets_inside_derived_strings_are_scrubbed() -> None:
    scope = {
        "payload": {"apiKey": "sk-verysecret", "dsn": "postgres://u:pw1234@db/x"},
        "region": "eu-west-1",
        "api_token": "tok-abcdef",
    }
    text = "JSON.stringify(payload) + region + api_token + ''"
    lines = "\n".join(tree(text, scope).lines())
    for secret in ("sk-verysecret", "pw1234", "tok-abcdef"):
        assert secret not in lines
    assert "eu-west-1" in lines  # not a secret
