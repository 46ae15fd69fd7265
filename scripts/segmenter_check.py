"""Checks tables/segmenter.json.gz and flowctx's Intl.Segmenter against node, code point by
code point, and over strings drawn from the property classes:

    python scripts/segmenter_check.py [--all] [--draw N]

Each code point is segmented by node in every granularity beside a set of neighbours (a
letter, a mark, a ZWJ, an emoji, a flag, a Hangul jamo, a virama, a digit, a full stop, a
space...), and node's answer must be the same for every code point the table puts in one class
and the same as flowctx's for that class (compared by digest): the table then holds what node's
ICU reads, as far as those neighbours tell. Without ``--all`` only the BMP, plane 1, plane 14
and a sample of every run elsewhere are segmented (135,000 code points, about 4 minutes); with
it, every code point.
``--draw N`` segments N strings drawn over the classes in each granularity and compares each.
"""

from __future__ import annotations

import argparse
import base64
import bisect
import collections
import hashlib
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flowctx_core.expressions.js.common import Unsupported  # noqa: E402
from flowctx_core.expressions.js.intl import segmenter  # noqa: E402
from flowctx_core.expressions.js.intl.data import table  # noqa: E402

GRANULARITIES = ["grapheme", "word", "sentence"]
NEIGHBOURS = [
    ("a", ""), ("", "a"), ("\u0301", ""), ("", "\u0301"), ("\u200d", ""), ("", "\u200d"),
    ("\U0001f1e6", ""), ("", "\U0001f1e6"), ("\u0600", ""), ("", "\u0600"), ("\u0903", ""),
    ("", "\u0903"), ("\u1100", ""), ("", "\u1100"), ("\u1161", ""), ("", "\u1161"),
    ("\u11a8", ""), ("", "\u11a8"), ("\uac00", ""), ("", "\uac00"), ("\uac01", ""),
    ("\U0001f600", ""), ("", "\U0001f600"), ("\U0001f600\u200d", ""), ("\u0915\u094d", ""),
    ("", "\u094d\u0915"), ("\u0915", ""), ("\r", ""), ("", "\n"), ("1", ""), ("", "1"),
    ("a", "a"), ("1", "1"), ("\u05d0", "\u05d0"), ("\u05d0", '"\u05d0'), ("\u05d0", ""),
    ("a.", ""), ("1.", ""), ("", ".a"), ("", ".1"), ("_", ""), ("", "_"), ("", ":"),
    ("", "'a"), (" ", ""), ("", " "), ("\u00ad", ""), ("", "\u00ad"), ("a. ", ""),
    ("A. ", ""), ("A.", ""), ("", "A"), ("a!", ""), ("a! ", ""), ("", "! "), ("", '" A'),
    ("a.", ")"), ("a.\u0301", ""), ("x", ". a"), ("x", ". A"), ("X. ", "a"), ("a ", "\u2029x"),
]  # fmt: skip

NODE = r"""
import fs from "node:fs";
import crypto from "node:crypto";
const [ctxFile, cpsFile, outFile] = process.argv.slice(1);
const ctx = JSON.parse(fs.readFileSync(ctxFile));
const cps = JSON.parse(fs.readFileSync(cpsFile));
const seg = ["grapheme", "word", "sentence"].map((g) => new Intl.Segmenter("en", {granularity: g}));
const out = [];
for (const cp of cps) {
  const c = String.fromCodePoint(cp);
  const text = ctx.map(([p, q]) => p + c + c + q + "\n" + p + c + q).join("\n") + "\n" + c + c + c;
  const sig = seg.map((s, k) => [...s.segment(text)]
    .map((x) => [...x.segment].length + (k === 1 && x.isWordLike ? "w" : "")).join(","));
  out.push([cp, sig.map((x) => crypto.createHash("md5").update(x).digest("base64").slice(0, 12))]);
}
fs.writeFileSync(outFile, JSON.stringify(out));
"""

DRAW = r"""
import fs from "node:fs";
const [inFile, outFile] = process.argv.slice(1);
const seg = {};
const out = JSON.parse(fs.readFileSync(inFile)).map(([g, s]) => {
  seg[g] ??= new Intl.Segmenter("en", {granularity: g});
  return [...seg[g].segment(s)].map((x) => [x.segment, x.index, x.isWordLike ?? null]);
});
fs.writeFileSync(outFile, JSON.stringify(out));
"""


def _node(script: str, *args: str) -> None:
    subprocess.run(["node", "--input-type=module", "-e", script, *args], check=True)


def _ours(granularity: str, text: str) -> list[list[object]] | None:
    try:
        found = segmenter.segment(granularity, text)
    except Unsupported:
        return None
    return [[x["segment"], x["index"], x.get("isWordLike")] for x in found]


def _digest(signature: str) -> str:
    return base64.b64encode(hashlib.md5(signature.encode()).digest()).decode()[:12]


def _signature(c: str) -> list[str | None]:
    text = "\n".join(p + c + c + q + "\n" + p + c + q for p, q in NEIGHBOURS) + "\n" + c * 3
    out: list[str | None] = []
    for k, g in enumerate(GRANULARITIES):
        found = _ours(g, text)
        if found is None:
            out.append(None)
            continue
        cps = [str(len(str(x[0]))) + ("w" if k == 1 and x[2] else "") for x in found]
        out.append(_digest(",".join(cps)))
    return out


def check_code_points(every: bool, tmp: Path) -> None:
    flat = table("segmenterRuns")
    starts, classes = flat[0::2], flat[1::2]
    ends = [*starts[1:], 0x110000]
    rng = random.Random(7)
    if every:
        cps: set[int] = set(range(0x110000))
    else:
        cps = set(range(0x20000)) | set(range(0xE0000, 0xE1000))
        for s, e in zip(starts, ends, strict=True):
            cps.update([s, e - 1, *(rng.randrange(s, e) for _ in range(10))])
    ordered = sorted(cps)
    (tmp / "ctx.json").write_text(json.dumps(NEIGHBOURS))
    (tmp / "cps.json").write_text(json.dumps(ordered))
    _node(NODE, str(tmp / "ctx.json"), str(tmp / "cps.json"), str(tmp / "out.json"))
    rows = json.loads((tmp / "out.json").read_text())
    by_class: dict[int, list[list[object]]] = collections.defaultdict(list)
    for row in rows:
        cp = row[0]
        by_class[classes[bisect.bisect_right(starts, cp) - 1]].append(row)
    tally: collections.Counter[tuple[str, str]] = collections.Counter()
    for klass, members in sorted(by_class.items()):
        rep = members[0]
        ours = _signature(chr(rep[0]))  # type: ignore[arg-type]
        for k, g in enumerate(GRANULARITIES):
            if ours[k] is None:
                tally[g, "refused"] += len(members)
                continue
            if ours[k] != rep[1][k]:  # type: ignore[index]
                print(f"{g}: class {klass} (U+{rep[0]:04X}) segmented otherwise than node")
                tally[g, "disagree"] += len(members)
                continue
            odd = [m for m in members if m[1][k] != rep[1][k]]  # type: ignore[index]
            tally[g, "agree"] += len(members) - len(odd)
            tally[g, "disagree"] += len(odd)
            if odd:
                shown = ", ".join(f"U+{m[0]:04X}" for m in odd[:8])
                print(f"{g}: class {klass} holds code points node reads otherwise: {shown}")
    print(f"{len(ordered)} code points:", dict(sorted(tally.items())))


def check_drawn(count: int, tmp: Path) -> None:
    flat = table("segmenterRuns")
    starts = flat[0::2]
    ends = [*starts[1:], 0x110000]
    runs: dict[int, list[tuple[int, int]]] = collections.defaultdict(list)
    for s, k, e in zip(starts, flat[1::2], ends, strict=True):
        runs[k].append((s, e))
    rng = random.Random(11)
    common = [*"aZ1.,:;'\"_ !?)(-\t\r\n", "\u0301", "\u200d", "\u00ad", "\U0001f1e6", "\u0600",
              "\u0903", "\u1100", "\u1161", "\u11a8", "\uac00", "\U0001f600", "\u0915",
              "\u094d", "\u05d0", "\u2019", "\u202f", "\u2029", "\u3000"]  # fmt: skip

    def char() -> str:
        if rng.random() < 0.6:
            return rng.choice(common)
        s, e = rng.choice(runs[rng.choice(list(runs))])
        return chr(rng.randrange(s, e))

    items = [
        [GRANULARITIES[i % 3], "".join(char() for _ in range(rng.randint(1, 20)))]
        for i in range(count * 3)
    ]
    (tmp / "draw.json").write_text(json.dumps(items))
    _node(DRAW, str(tmp / "draw.json"), str(tmp / "drawn.json"))
    theirs = json.loads((tmp / "drawn.json").read_text())
    tally: collections.Counter[tuple[str, str]] = collections.Counter()
    for (g, text), answer in zip(items, theirs, strict=True):
        ours = _ours(g, text)
        kind = "refused" if ours is None else "agree" if ours == answer else "disagree"
        tally[g, kind] += 1
        if kind == "disagree" and tally[g, kind] <= 5:
            print(g, ascii(text), [x[0] for x in answer], [x[0] for x in ours or []])
    print(f"{len(items)} drawn strings:", dict(sorted(tally.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every code point")
    parser.add_argument("--draw", type=int, default=0, help="strings drawn per granularity")
    parser.add_argument("--no-code-points", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_code_points:
            check_code_points(args.all, Path(tmp))
        if args.draw:
            check_drawn(args.draw, Path(tmp))


if __name__ == "__main__":
    main()
