"""Writes core/expressions/js/newernorm.py: what node's String.prototype.normalize knows about
the code points Unicode encoded after the version of Python's own ``unicodedata`` tables,
measured with the node whose answers flowctx reproduces:

    python scripts/newer_normalization.py

Every code point's four normal forms are taken from node and compared with Python's; only the
code points where they differ, the new combining marks (each one's combining class found by
which known marks it is reordered around) and the new compositions are kept.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core/expressions/js/newernorm.py"

# Prints, for every code point node has assigned or normalises or reorders, its four forms.
_FORMS_JS = r"""
const cn = /^\p{Cn}$/u;
const rows = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  if (cn.test(c)) continue;
  const forms = ["NFD", "NFKD", "NFC", "NFKC"].map((f) => c.normalize(f));
  const moved = (c + "\u0334").normalize("NFD") !== forms[0] + "\u0334"
    || ("\u0301" + c).normalize("NFD") !== "\u0301" + forms[0];
  rows.push([cp, forms.map((f) => [...f].map((x) => x.codePointAt(0))), moved]);
}
process.stdout.write(JSON.stringify(rows));
"""

# Given [candidates, [[class, mark]...]], prints each candidate's combining class: the class of
# the known mark it is reordered around neither before nor after.
_CLASSES_JS = r"""
const [candidates, marks] = JSON.parse(process.argv[1]);
const out = {};
for (const cp of candidates) {
  const c = String.fromCodePoint(cp);
  for (const [k, m] of marks) {
    const mk = String.fromCodePoint(m);
    if ((c + mk).normalize("NFD") === c + mk && (mk + c).normalize("NFD") === mk + c) {
      out[cp] = k;
      break;
    }
  }
}
process.stdout.write(JSON.stringify(out));
"""


def _node(script: str, *args: str) -> object:
    done = subprocess.run(["node", "-e", script, *args], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    rows = _node(_FORMS_JS)
    assert isinstance(rows, list)
    new = {cp for cp, _, _ in rows if unicodedata.category(chr(cp)) == "Cn"}
    canonical: dict[int, tuple[int, ...]] = {}
    compat: dict[int, tuple[int, ...]] = {}
    composes: set[int] = set()
    candidates = []
    for cp, forms, moved in rows:
        c = chr(cp)
        theirs = ["".join(map(chr, f)) for f in forms]
        ours = [unicodedata.normalize(f, c) for f in ("NFD", "NFKD", "NFC", "NFKC")]  # type: ignore[arg-type]
        if theirs != ours:
            assert cp in new, f"U+{cp:04X} normalises differently though Python knows it"
            if theirs[0] != c:
                canonical[cp] = tuple(forms[0])
                if theirs[2] == c:
                    composes.add(cp)
            if theirs[1] != theirs[0]:
                compat[cp] = tuple(forms[1])
        if moved and cp in new and theirs[0] == c:
            candidates.append(cp)
    marks: dict[int, int] = {}
    for cp in range(0x300, 0x20000):
        k = unicodedata.combining(chr(cp))
        if k and unicodedata.decomposition(chr(cp)) == "":
            marks.setdefault(k, cp)
    classes = _node(_CLASSES_JS, json.dumps([candidates, sorted(marks.items())]))
    assert isinstance(classes, dict) and len(classes) == len(candidates), "a class not known"
    # a composite's pair: its decomposition less the last character, recomposed, and that one
    pairs: dict[tuple[int, int], int] = {}
    for cp in sorted(composes):
        *head, last = canonical[cp]
        first = unicodedata.normalize("NFC", "".join(map(chr, head)))
        if len(first) != 1:
            first = next(chr(x) for x, d in canonical.items() if list(d) == head)
        pairs[(ord(first), last)] = cp
    lines = [
        '"""What node\'s ``String.prototype.normalize`` (Unicode 17.0) knows about code points',
        "encoded after the version of Python's ``unicodedata`` tables, which has none of them.",
        "",
        "Data, written by scripts/newer_normalization.py from node: full decompositions where",
        "they differ from Python's (canonical; compatibility where that is longer), the combining",
        "classes of the new marks, and the new primary composites by the pair they compose from.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"CANONICAL: Final[dict[int, tuple[int, ...]]] = {_fmt(canonical)}",
        "",
        f"COMPATIBILITY: Final[dict[int, tuple[int, ...]]] = {_fmt(compat)}",
        "",
        f"CLASSES: Final[dict[int, int]] = {_fmt({int(k): v for k, v in classes.items()})}",
        "",
        f"PAIRS: Final[dict[tuple[int, int], int]] = {_fmt(pairs)}",
        "",
    ]
    OUT.write_text("\n".join(lines))
    print(
        f"{len(canonical)} canonical, {len(compat)} compatibility, {len(classes)} classes, "
        f"{len(pairs)} pairs",
        file=sys.stderr,
    )


def _hex(v: object) -> str:
    if isinstance(v, tuple):
        return "(" + ", ".join(_hex(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    assert isinstance(v, int)
    return f"0x{v:X}" if v > 255 else str(v)


def _fmt(d: dict) -> str:  # type: ignore[type-arg]
    items = [f"{_hex(k)}: {_hex(v)}" for k, v in sorted(d.items())]
    body, line = [], "   "
    for item in items:
        if len(line) + len(item) + 2 > 96:
            body.append(line)
            line = "   "
        line += " " + item + ","
    body.append(line)
    return "{\n" + "\n".join(body) + "\n}  # fmt: skip"


if __name__ == "__main__":
    main()
