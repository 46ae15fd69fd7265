"""Every regular expression is bounded by construction (security round four, findings 5, 9, 12).

A pattern whose backtracking is not provably small runs only in the killable worker, whatever
its shape and however it was built (a literal or ``new RegExp`` of a computed string); the
worker dies with flowctx however flowctx ends; a global ``replace`` is charged per match and
per character it builds. Each case goes through ``flowctx eval`` as a user runs it, in a child
process whose CPU and memory are measured (``harness.cost``): on the previous release these
patterns ran in flowctx's own process for minutes to hours.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.regexcost import CAP, min_width, worst_steps
from flowctx_tui.cli import main
from tests.reliability.harness import CPU_SECONDS, cost, no_hang

#: refused by flowctx's own bound: the message names it and says node would go on
REGEX_BOUND = "flowctx's bound on regular expressions"
WORK = "flowctx's evaluation budget"
#: or the engine's own answer is an error before any matching (its denylist)
DENIED = "Expression contains forbidden construct"


def js_text(text: str) -> str:
    """A JavaScript expression whose value is ``text``, written without '{' or '}' (which
    MemberJunction's denylist refuses anywhere, string literals included)."""
    parts = []
    for piece in re.split(r"([{}])", text):
        if piece in ("{", "}"):
            parts.append(f"String.fromCharCode({ord(piece)})")
        elif piece:
            parts.append(json.dumps(piece).replace("$", "\\u0024"))
    return " + ".join(parts) or "''"


ATTACKS = [
    # the two: a chain of ambiguous groups (234 characters) and the same built at run
    # time with a counted repeat (109 characters), neither with a * or + the old screen read
    "/" + "(?:a|a)" * 30 + "b/.test('a'.repeat(40))",
    "new RegExp('(?:a|a)'+'{30}'+'b').test('a'.repeat(40))",
    # the same counted repeat without a '{' in the text (MemberJunction's denylist reads it)
    "new RegExp('(?:a|a)' + String.fromCharCode(123) + '30' + String.fromCharCode(125) + 'b')"
    ".test('a'.repeat(40))",
    # variants of the same idea
    "new RegExp('(?:a|a)'.repeat(40)+'b').test('a'.repeat(60))",
    f"new RegExp({js_text('(?:a|a){40}b')}).test('a'.repeat(60))",
    f"new RegExp({js_text('(?:a?){30}a{30}')}).test('a'.repeat(30))",
    "/(a|aa)+b/.test('a'.repeat(60))",
    f"new RegExp({js_text('(?:(?:a|a)|(?:a|a)){25}$')}).test('a'.repeat(50) + '!')",
    "new RegExp('(x+x+)+y').test('x'.repeat(50))",
    "'a'.repeat(40).search(new RegExp('(?:a|a)'.repeat(35) + 'b'))",
    "'a'.repeat(40).replace(new RegExp('(?:a|a)'.repeat(35) + 'b', 'g'), '') === ''",
    "'a'.repeat(40).split(new RegExp('(?:a|a)'.repeat(35) + 'b')).length",
    "[...'a'.repeat(40).matchAll(new RegExp('(?:a|a)'.repeat(35) + 'b', 'g'))].length",
    # a global replace whose matches and built text outgrow the budget
    "'x'.repeat(1000000).replace(/x/g, 'yy').length",
    "'x'.repeat(1000000).replaceAll('x', 'yy').length",
    "'x'.repeat(200000).replace(/x/g, '" + "ab" * 150 + "').length > 0",
    "'x'.repeat(300000).replace(/x/g, '$&$&$&$&').length > 0",
]


def _eval_json(expr: str) -> tuple[int, dict[str, Any], str]:
    """``flowctx eval --dialect mj --format json EXPR`` in this (forked) process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["eval", "--dialect", "mj", "--format", "json", "--", expr])
    return code, json.loads(out.getvalue()), err.getvalue()


@pytest.mark.parametrize("expr", ATTACKS, ids=[a[:50] for a in ATTACKS])
def test_each_attack_ends_within_the_bound_with_a_named_refusal(expr: str) -> None:
    with no_hang(60):
        measured = cost(lambda: _eval_json(expr))
    code, doc, err = measured.result
    assert "Traceback" not in err
    assert measured.within_bounds(), f"{expr[:60]}: {measured}"
    # no answer was given, and the message says the bound is flowctx's
    assert code == 3 and not doc["success"], doc
    assert any(m in doc["error"] for m in (REGEX_BOUND, WORK, DENIED)), doc["error"]


ANSWERED = [
    # the same shapes on texts where the whole search is small give node's answer exactly
    (f"new RegExp({js_text('(?:a|a){30}b')}).test('ab')", False),
    ("/(?:a|a)(?:a|a)(?:a|a)b/.test('aaab')", True),
    (f"new RegExp({js_text('(?:a|a){2}b')}).test('xaab')", True),
    ("'x'.repeat(50000).replace(/x/g, 'y') === 'y'.repeat(50000)", True),
    ("'xy'.repeat(3).replace(/(x)(y)/g, '$2$1') === 'yxyxyx'", True),
    ("'abc'.replace(/b/g, \"[$'|$&|$$|$]\") === 'a[c|b|$|$]c'", True),
    ("'aaa'.replaceAll('a', '$&$&') === 'aaaaaa'", True),
    # a risky pattern on a long text still answers, in the worker, within the budget
    ("/\\d+x/.test('1'.repeat(20000) + 'x')", True),
]


@pytest.mark.parametrize(("expr", "value"), ANSWERED, ids=[a[:50] for a, _ in ANSWERED])
def test_a_bounded_search_gives_the_engines_answer(expr: str, value: bool) -> None:
    result = evaluate(expr, {}, "mj")
    assert result.success, result.error
    assert result.value is value


_ATOMS = st.sampled_from(
    # empty-able pieces too: a counted repeat's mandatory iterations may be empty, which once
    # let a 'small' bound through for a pattern that ran away on five characters
    ["a", "a|a", "a?", "a*", "a+", "(?:a|aa)", "\\w", "[ab]", "a{2,}", "", "\\b", "(?=a)", "(a)\\1"]
)


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 3) -> str:
    if depth == 0:
        return draw(_ATOMS)
    parts = draw(st.lists(_patterns(depth - 1), min_size=1, max_size=3))  # type: ignore[call-arg]
    body = "".join(f"(?:{p})" for p in parts)
    quantifier = draw(st.sampled_from(["", "*", "+", "?", "{5}", "{2,8}", "{0,}", "{3,}"]))
    return f"(?:{body}){quantifier}"


#: found by a fuzz run: counted repeats of empty-able pieces, on five characters (it ran for
#: minutes and took gigabytes in flowctx's process before the bound counted failing attempts)
FOUND = (
    "(?:(?:(?:(?:(?:(?:\\w)){5}))*)(?:(?:(?:(?:(?:a*)(?:a?)){2,8})(?:(?:(?:a)(?:a?)){0,})"
    "(?:(?:(?:a)(?:(?:a|aa))){2,8})){5})){2,8}"
)


def _in_process(expr: str) -> tuple[float, bool, str]:
    """CPU seconds flowctx's own process spends on ``expr`` (the worker's are its own)."""
    with no_hang(60):
        started = time.process_time()
        result = evaluate(expr, {}, "mj")
        spent = time.process_time() - started
    return spent, result.success, result.error.message if result.error else ""


def test_the_fuzz_finding_is_bounded() -> None:
    spent, success, error = _in_process(f"new RegExp({js_text(FOUND + '!')}).test('a'.repeat(5))")
    assert spent < CPU_SECONDS, spent
    assert success or REGEX_BOUND in error or WORK in error, error


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(pattern=_patterns(), n=st.integers(min_value=0, max_value=60))
def test_generated_patterns_never_run_unbounded_in_process(pattern: str, n: int) -> None:
    """Random nestings of ambiguous and empty-able repeats, matched against a text built to
    fail late: every one comes back within the bound (an answer or a named refusal), never a
    long match in flowctx's own process."""
    spent, success, error = _in_process(
        f"new RegExp({js_text(pattern + '!')}).test('a'.repeat({n}))"
    )
    assert spent < CPU_SECONDS, f"{pattern} on {n}: {spent:.2f} s in process"
    assert success or REGEX_BOUND in error or WORK in error, error


def test_the_bound_grows_with_ambiguity_and_text() -> None:
    """What decides where a match runs: more text or more ambiguity never lowers the bound,
    and an unmodelled construct counts as unbounded."""
    for source in ["a", "(?:a|a)b", "\\d+x", "(a+)+$", "(?:a|a){30}b", "^\\w+$"]:
        steps = [worst_steps(source, "", n) for n in (0, 10, 100, 1000)]
        assert steps == sorted(steps), source
    assert worst_steps("(?:a|a)" * 30 + "b", "", 40) > worst_steps("(?:a|a)" * 3 + "b", "", 40)
    assert worst_steps("[\\q{abc|d}]", "v", 10) == CAP


@pytest.mark.parametrize(
    ("source", "flags", "width"),
    [
        ("\\w+", "u", 1),
        ("user(\\d+)", "gu", 5),
        ("\\r?\\n", "u", 1),
        ("a|bc", "", 1),
        ("😀", "u", 1),
        # what may match empty, or what this bound does not read, spans none
        ("a?", "u", 0),
        ("\\B", "u", 0),
        ("(?=a)", "u", 0),
        ("(a)\\1", "", 1),
        ("\\1", "", 0),
        ("a|", "", 0),
        ("[\\q{abc|d}]", "v", 0),
        ("a)", "", 0),
    ],
)
def test_the_fewest_characters_a_match_spans(source: str, flags: str, width: int) -> None:
    """A global search under u/v of a text with pairs is one search where no match is empty
    (find_all): what decides it is this width."""
    assert min_width(source, flags) == width


# --- the worker dies with flowctx ----------------------------------------------------------

_DRIVER = textwrap.dedent(
    """
    import sys
    from flowctx_core.expressions.js.regexworker import WORKER
    proc = WORKER._start()
    print(proc.pid, flush=True)
    # a match that would run for hours: flowctx is killed while the worker is inside it
    WORKER.search("(?:a|a)" * 40 + "b", "", "a" * 60, False, 0, 3600.0, 1)
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_the_worker_never_outlives_flowctx(how: signal.Signals, tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", _DRIVER], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        time.sleep(0.3)  # the child is now inside the match
        assert _alive(child)
        parent.send_signal(how)
        parent.wait(timeout=30)
        for _ in range(100):
            if not _alive(child):
                break
            time.sleep(0.05)
        assert not _alive(child), f"the regex worker {child} outlived flowctx ({how.name})"
    finally:
        parent.kill()
        parent.wait()
