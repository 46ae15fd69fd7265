"""Texts broken two or three times over, against the real MemberJunction evaluator.

V8 reports one SyntaxError for a text however many faults it holds: the first it reports,
unless a later report lies wholly before it, and the strict-mode octal check comes last with
the last octal its scanner read (one token ahead of the parser). Which one that is depends on
how far the scanner got when each fault was met, so the cases combine the faults that move
it: bad escapes (after an octal one, or stopping where another string starts), numeric
separators, legacy octals and leading zeros, stray characters, unterminated strings and
regular expressions, arrow heads with parameters that are none, and missing parentheses.
"""

from __future__ import annotations

import random
from typing import Any, Final

from tests.differential.draw import Case, judge
from tests.differential.oracle import MjOracle

FAULTS: Final = [
    # escapes: invalid, strict-mode octal, both in one string, one stopping at a quote
    "'\\u12'", "'\\xZ'", "'\\u004'", "'\\01'", "'\\8'", "'\\00'", "'\\08'", "'\\1\\u12'",
    "'\\u12\\1'", "'\\01\\xZ'", "'\\9\\u0'", "'\\00\\u004'", "'\\7\\x4'", '"\\0\\u12"',
    "'\\u00'\\7'", "'\\x4'\\01'", "'\\377\\x'",
    # numbers: separators, legacy octals, leading zeros, exponents and prefixes without digits
    "1_", "1__0", "0_1", "08", "07", "09.5", "1e", "07n", "08n", "0x", "08_1", "5_.5", "08.5",
    # stray characters, escapes in names, unterminated literals
    "@", "#", "#x", "\\", "x\\u0020", "\\u004", "'abc", "/ab", "/a/gg", "/a**/", "new.",
    # arrow heads whose parameters are none
    "(08, ...r) => r", "(a, 1) => a", "(...r, a) => r", "x => ++ @", "(a.b = 1) => a",
    "(a,) => a", "((a)) => 1", "()", "() =>", "(a, a) =>", "([...c, d], [1]) =>",
    "(arguments, 1) =>", "(a.b = 1, [(e)]) =>",
    # parentheses missing or out of place, operands doubled, operators alone
    "(", ")", "f(a b)", "a.", "++1", "a b", "delete", "!", "=>", "?", "= 1",
    # plain operands and separators between the faults
    "data.stat", "x", "1", "(a)", "-(", "us", "x++", "\n", "/* c */",
]  # fmt: skip
GLUES: Final = [" ", " ", " ", "", " === ", " && ", ", ", "(", " + ", "\n", ")", " ? ", " = "]
FORMS: Final = ["{}", "{}", "-({})", "f({})", "({}) => 1", "data.x == {}", "[{}]", "!{}", "++{}"]

#: the texts each fault class above was first found with, kept whatever the draw gives
FOUND: Final = [
    "-(data.stat 1e '\\u12'us === 1)",
    "x => ++ @ 1_ delete",
    "(08, ...r) => r",
    "'\\9\\u00'\\7' a",
    "'\\08' + a b '\\00\\u004'",
    "'\\01', ++1\n'\\1\\u12'",
    "data.x == '\\00', 08_1",
    "f(1, x\\u002008_1)",
    "f(@ /* c */ 1_)",
    "x == (...r, a) => r",
    "((a),\n) => 1",
    "(x = 1, a.b = 2) => 1",
    "(payload.x)-() => 1",
    "f(1, '\\08' && /a/gg '\\00\\u004', **)",
    "f('\\08', 1_ '\\01\\xZ')",
    "'\\00', # '\\1\\u12'++",
    "new x(07, #x)",
    "(new.=> (08, ...r) => r)",
    "f(x\\u00200_1)",
    "(arguments, 08.5) => 1",
    "(1, [1, a.b]) => 1",
    "-(y -- 0b 1_e1)",
    "((/[/]/ 0x '\\u004' .e1))",
    "import() instanceof++",
    "(a = b = 08, ...x 08.5) => 1",
    "a ? '\\01' && delete x '\\00' : 1",
    "[08.5 + /ab\n'\\8']",
    "(08.5 + x =>'\\00') => 1",
    "data.x == y --, v\\u0061r => 1n_",
    "x[.../a/]",
    "(a, a, [1]) => 1",
    "x + ([...c], [...c, d]) => 1",
    "((e), a.b = 1)\n=> 1",
    "(a = 08, eval) => 08",
    "(a = 08, a) => 08",
    "(08, ...r, '\\01')\n=> 1",
    "arguments=> #x '\\8' a 1 ?? %",
    "a?.b('\\8' + /a**/07)",
    "[(a = 08, ...r, '\\01') => 1]",
    "a[new.target 0o .5_ + '\\7\\x4']",
]
SCOPE: Final[dict[str, Any]] = {"data": {"stat": 1}, "x": 1}
COUNT: Final = 240
SEED: Final = 20261207


def broken(r: random.Random) -> str:
    """Two or three faults joined by what may stand between them, in one of the forms."""
    parts = [r.choice(FAULTS) for _ in range(r.choice([2, 2, 3]))]
    body = parts[0]
    for part in parts[1:]:
        body += r.choice(GLUES) + part
    return r.choice(FORMS).replace("{}", body)


def cases() -> list[tuple[str, Case]]:
    r = random.Random(SEED)
    texts = FOUND + [broken(r) for _ in range(COUNT)]
    return [("syntax.faults", (text, dict(SCOPE))) for text in texts]


def test_texts_with_several_faults_fail_as_v8_reports_them(mj_oracle: MjOracle) -> None:
    tally = judge(mj_oracle, cases())
    assert tally.total("disagree") == 0, tally.table(examples=True)
    assert tally.total("agree") == len(FOUND) + COUNT
