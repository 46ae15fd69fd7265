"""V8's syntax errors in regular expressions (node 20): the first error V8 meets, in V8's
words, in each mode (legacy, the u flag's, the v flag's classes), and what it accepts; each
checked through ``flowctx eval`` as a pattern built at run time (``new RegExp``)."""

from __future__ import annotations

import json

import pytest

from flowctx_tui.cli import main

# (pattern, flags, node 20's reason after "Invalid regular expression: /pattern/flags: ", or
# "ok" where it accepts the pattern)
MEASURED = [
    ("[", "", "Unterminated character class"),
    ("a]", "v", "Lone quantifier brackets"),
    ("]", "u", "Lone quantifier brackets"),
    ("{1}", "", "Nothing to repeat"),
    ("a{2,1}", "", "numbers out of order in {} quantifier"),
    ("a{1", "", "ok"),
    ("a{1", "u", "Incomplete quantifier"),
    ("(?i:a)", "", "Invalid group"),
    ("(?<a>x)(?<a>y)", "", "Duplicate capture group name"),
    ("(?<a>x)(?<a>", "", "Unterminated group"),
    ("\\k<b>(?<a>x)", "", "Invalid named capture referenced"),
    ("(?<a>x)\\k", "", "Invalid named reference"),
    ("\\k<a", "", "ok"),
    ("\\k<a", "u", "Invalid capture group name"),
    ("\\1", "u", "Invalid escape"),
    ("\\00", "u", "Invalid decimal escape"),
    ("[\\1]", "u", "Invalid class escape"),
    ("\\c", "u", "Invalid Unicode escape"),
    ("\\x4", "u", "Invalid escape"),
    ("\\u{110000}", "u", "Invalid Unicode escape"),
    ("\\p{Lu=}", "u", "Invalid property name"),
    ("\\p{RGI_Emoji}", "u", "Invalid property name"),
    ("[^\\q{ab}]", "v", "Negated character class may contain strings"),
    ("[a&&&b]", "v", "Invalid character in character class"),
    ("[a--b&&c]", "v", "Invalid set operation in character class"),
    ("[a-\\d]", "u", "Invalid character class"),
    ("[z-a]", "", "Range out of order in character class"),
    ("[😀-a]", "", "Range out of order in character class"),
    ("(?<=a)*", "", "Invalid quantifier"),
    ("(?=a)*", "u", "Invalid quantifier"),
    ("a**", "", "Nothing to repeat"),
    ("\\", "", "\\ at end of pattern"),
    ("(?<1a>x)", "", "Invalid capture group name"),
    ("[\\q]", "v", "Invalid escape"),
    ("[(]", "v", "Invalid character in character class"),
    ("[a-]", "v", "Invalid character in character class"),
    ("(?<a>x)[\\k]", "", "Invalid escape"),
    ("\\p{L", "u", "Invalid property name"),
    ("[\\p{Lx}]", "u", "Invalid property name in character class"),
    ("(", "", "Unterminated group"),
    (")", "", "Unmatched ')'"),
    ("x{99999999999}", "", "ok"),
    ("[\\c]", "", "ok"),
    ("\\-", "u", "Invalid escape"),
    ("[\\-]", "u", "ok"),
    ("[\\!]", "v", "ok"),
    ("\\!", "v", "Invalid escape"),
]  # fmt: skip


@pytest.mark.parametrize(("source", "flags", "message"), MEASURED)
def test_v8_says_the_first_syntax_error_in_its_words(
    source: str, flags: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = json.dumps({"p": source, "f": flags})
    code = main(["eval", "typeof new RegExp(payload.p, payload.f) === 'object'",
                 "--payload", payload])  # fmt: skip
    captured = capsys.readouterr()
    if message == "ok":
        assert (code, captured.out) == (0, "true\n"), captured.err
    else:
        assert code != 0
        full = f"Invalid regular expression: /{source}/{flags}: {message}"
        assert full in captured.err, captured.err


# RegExp.prototype.compile, measured likewise: the same object remade, lastIndex 0 after
COMPILED = [
    ("(r => (r.lastIndex = 3, [r.compile('b', 'i') === r, String(r), r.lastIndex].join()))(/a/g)",
     "true,/b/i,0"),
    ("String(/a/g.compile(/x/y))", "/x/y"),
    ("String(/a/g.compile(undefined, 'g'))", "/(?:)/g"),
    ("'xbx'.replace(/a/g.compile('b', 'g'), 'c')", "xcx"),
]  # fmt: skip
COMPILE_ERRORS = [
    ("String(/a/g.compile(/x/y, 'g'))",
     "Cannot supply flags when constructing one RegExp from another"),
    ("String(/a/g.compile(payload.open, 'g'))",
     "Invalid regular expression: /(/g: Unterminated group"),
    ("/a/.compile.call(1)",
     "Method RegExp.prototype.compile called on incompatible receiver 1"),
    ("(r => (r.compile('b'), 1))(Object.freeze(/a/g))",
     "Cannot assign to read only property 'lastIndex' of object '[object RegExp]'"),
]  # fmt: skip


@pytest.mark.parametrize(("condition", "answer"), COMPILED)
def test_compile_remakes_the_regexp(
    condition: str, answer: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", f"{condition} === {json.dumps(answer)}"])
    assert (code, capsys.readouterr().out.splitlines()[0]) == (0, "true")


@pytest.mark.parametrize(("condition", "message"), COMPILE_ERRORS)
def test_compile_fails_as_v8_does(
    condition: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", condition, "--payload", '{"open": "("}']) != 0
    assert message in capsys.readouterr().err
