"""``reparse_yaml_text``: an edit inside one definition parsed alone gives exactly what
parsing the whole new text gives (data in order, every key and value mark, problems, the node
count), and any edit it cannot place is left to the whole parse (None)."""

from __future__ import annotations

import random

import pytest

from flowctx_core.base.yamledit import reparse_yaml_text
from flowctx_core.base.yamlmarks import YamlDoc, parse_yaml_text

CONTRACT = """# header
definitions:
  a:
    type: string
    description: |
      line one
      line two

    source: {type: state, default: x}
  b:
    type: integer   # comment
    source:
      type: env
      env_var: B
# a comment at the margin
  c: {type: boolean, source: {type: state, default: true}}
  d:
    type: list
    default:
      - 1
      - "two
        lines"
  e: |+
    kept

agents:
  A:
    variables: [a, b]
"""


def _same(got: tuple[YamlDoc, list] | None, text: str) -> None:
    assert got is not None
    doc, problems = got
    whole, whole_problems = parse_yaml_text(text, "f.yaml")
    assert whole is not None and problems == whole_problems
    assert doc.data == whole.data
    assert list(doc.data) == list(whole.data)
    assert list(doc.data["definitions"]) == list(whole.data["definitions"])
    assert doc.key_marks == whole.key_marks and doc.value_marks == whole.value_marks
    assert doc.nodes == whole.nodes and doc.from_part


def _reparse(old: str, new: str) -> tuple[YamlDoc, list] | None:
    doc, problems = parse_yaml_text(old, "f.yaml")
    return reparse_yaml_text(old, doc, problems, new, "f.yaml")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("type: integer", "typ: integer"),  # a key inside one definition
        ("env_var: B", "env_var: B\n      extra: 1"),  # a line added: later marks shift
        ("    type: list\n", ""),  # a line removed
        ("  b:\n", "  b_renamed:\n"),  # the definition's own key
        ("      line two\n", "      line two\n      line three\n"),  # inside a block scalar
        ("    kept\n", "    kept\n    more\n"),  # the last definition's kept block scalar
        ("      env_var: B\n", "      env_var:\n"),  # an empty value: marked at the next key
        ("  e: |+\n    kept\n", "  e:\n"),  # ... at the next top-level key
    ],
)
def test_an_edit_inside_one_definition_is_parsed_alone_and_equal(old: str, new: str) -> None:
    assert old in CONTRACT
    _same(_reparse(CONTRACT, CONTRACT.replace(old, new, 1)), CONTRACT.replace(old, new, 1))


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("  c:", "  a:", "a duplicate key"),
        ("  e: |+", "  f: 1\n  e: |+", "a definition added"),
        ("definitions:\n", "definitions:\n  z: 1\n", "before the first definition"),
        ("variables: [a, b]", "variables: [a]", "outside the definitions"),
        ("type: integer", "type: &n integer", "an anchor"),
        ("type: integer", "type: [integer", "a line that does not parse"),
        ("    type: integer", "  type: integer", "the next definition's column"),
    ],
)
def test_an_edit_it_cannot_place_is_left_to_the_whole_parse(old: str, new: str, why: str) -> None:
    assert _reparse(CONTRACT, CONTRACT.replace(old, new, 1)) is None, why


def test_random_edits_are_either_equal_or_left_to_the_whole_parse() -> None:
    pieces = ["x", "\n", "    ", "  f:\n", ":", " ", "'", '"', "[", "]", "{", "}", "#", "-", "|"]
    pieces += ["\n    k: v\n", "\n  a:\n", ">", "\t", "!!int ", "1", "\n\n", "? ", "*a", "---"]
    rng = random.Random(34)
    placed = 0
    for _ in range(1500):
        new = CONTRACT
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(new))
            cut = rng.random() < 0.3
            new = new[:i] + ("" if cut else rng.choice(pieces)) + new[i + cut :]
        got = _reparse(CONTRACT, new)
        if got is not None:
            placed += 1
            _same(got, new)
    assert placed > 100  # most edits that still parse are placed
