// Writes core/expressions/js/collation.py: where node's root collation (ICU, the order
// String.prototype.localeCompare uses with no locale) puts the characters flowctx cannot order
// from Unicode's categories alone: punctuation, symbols, spaces and controls (each one's
// place before the digits, or none: ignorable), and what sorts after every letter (unassigned
// code points, lone surrogates, U+FFFD, U+FFFF). Run with the node whose answers flowctx
// reproduces, then format the file:
//   node scripts/root_collation.mjs && ruff format core/expressions/js/collation.py
import { writeFileSync } from "node:fs";

const base = new Intl.Collator("en-US", { sensitivity: "base" });
const full = new Intl.Collator("en-US");
const other = /^[\p{P}\p{S}\p{Z}\p{Cc}\p{Cf}\p{Co}\p{Cn}]$/u;

const cps = [];
for (let c = 0; c < 0x10000; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const s = String.fromCodePoint(c);
  if (s.normalize("NFKD") === s && other.test(s)) cps.push(c);
}
for (let c = 0x1f000; c < 0x1fc00; c++) {
  const s = String.fromCodePoint(c);
  if (s.normalize("NFKD") === s && /^[\p{S}\p{P}]$/u.test(s)) cps.push(c);
}
// a lone surrogate (a string of UTF-16 units may hold one) sorts by its code point, after Han
for (let c = 0xd800; c <= 0xdfff; c++) cps.push(c);

const items = cps.map((c) => [c, c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c)]);
items.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);

const ignorable = [];
const before = []; // [code point, same primary as the previous]
const after = [];
let prev = null;
for (const [c, s] of items) {
  if (full.compare(s, "") === 0) { ignorable.push(c); continue; }
  const zone = base.compare(s, "0") < 0 ? before
    : base.compare(s, "\u9fa5") > 0 && base.compare(s, "\u4dbf") > 0 ? after : null;
  if (zone !== null) {
    const last = zone.length ? zone[zone.length - 1][0] : null;
    const tie = last !== null && prev !== null && prev[0] === last && base.compare(prev[1], s) === 0;
    zone.push([c, tie]);
  }
  prev = [c, s];
}

// Latin letters with no decomposition that are letters of their own (ł after l, ð after d, þ
// after z, ı after i), with a-z among them: the ones equal to one or two ASCII letters at the
// first level (ß as ss, ø as o) are left to the expansions flowctx spells out
const ascii = [];
for (const x of "abcdefghijklmnopqrstuvwxyz") { ascii.push(x); for (const y of "abcdefghijklmnopqrstuvwxyz") ascii.push(x + y); }
const latinRanges = [[0x41, 0x24f], [0x250, 0x2af], [0x1d00, 0x1dbf], [0x1e00, 0x1eff],
  [0x2c60, 0x2c7f], [0xa720, 0xa7ff], [0xab30, 0xab6f]];
const latinItems = [];
for (const [lo, hi] of latinRanges) {
  for (let c = lo; c <= hi; c++) {
    const s = String.fromCodePoint(c);
    if (!/^\p{L}$/u.test(s) || s.normalize("NFKD") !== s) continue;
    if (c > 0x7f && ascii.some((a) => base.compare(s, a) === 0)) continue;
    latinItems.push([c, s]);
  }
}
latinItems.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);
// the ones equal to one ASCII letter at the first level (ð and đ as d, ł as l): that letter,
// then their place among the letters of that primary, at the second level
const variants = [];
for (const [lo, hi] of latinRanges) {
  for (let c = lo; c <= hi; c++) {
    const s = String.fromCodePoint(c);
    if (c <= 0x7f || !/^\p{L}$/u.test(s) || s.normalize("NFKD") !== s) continue;
    const letter = ascii.find((a) => a.length === 1 && base.compare(s, a) === 0);
    if (letter !== undefined) variants.push([c, s, letter]);
  }
}
variants.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);
// the ones equal to two ASCII letters at the first level (ß as ss, ꝏ as oo): spelled out
const expansions = [];
for (const [lo, hi] of latinRanges) {
  for (let c = lo; c <= hi; c++) {
    const s = String.fromCodePoint(c);
    if (c <= 0x7f || !/^\p{L}$/u.test(s) || s.normalize("NFKD") !== s) continue;
    const pair = ascii.find((a) => a.length === 2 && base.compare(s, a) === 0);
    if (pair !== undefined) expansions.push([c, pair.charCodeAt(0), pair.charCodeAt(1)]);
  }
}
const latin = [];
for (let i = 0; i < latinItems.length; i++) {
  const tie = i > 0 && base.compare(latinItems[i - 1][1], latinItems[i][1]) === 0;
  latin.push([latinItems[i][0], tie]);
}

// Han of the BMP in node's order (radical and strokes, the blocks interleaved)
const hanItems = [];
for (const [lo, hi] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xf900, 0xfaff]]) {
  for (let c = lo; c <= hi; c++) {
    const s = String.fromCodePoint(c);
    if (/^\p{Unified_Ideograph}$/u.test(s)) hanItems.push([c, s]);
  }
}
hanItems.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);
const han = hanItems.map(([c], i) => [c, i > 0 && base.compare(hanItems[i - 1][1], hanItems[i][1]) === 0]);

// runs of consecutive code points, each a new primary unless a tie is listed
function runs(zone) {
  const out = [];
  for (const [c] of zone) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === c) last[1]++;
    else out.push([c, 1]);
  }
  return out.flat();
}
const ties = (zone) => zone.map(([, t], i) => (t ? i : -1)).filter((i) => i >= 0);
const sorted = (xs) => [...xs].sort((a, b) => a - b);
function ranges(xs) {
  const out = [];
  for (const c of sorted(xs)) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === c) last[1]++;
    else out.push([c, 1]);
  }
  return out.flat();
}
// a tuple of ints wrapped at 100 columns (the data sits between fmt: off and on)
function tuple(xs) {
  const lines = [];
  let line = "   ";
  for (const x of xs) {
    const item = ` ${x},`;
    if (line.length + item.length > 100) { lines.push(line); line = "   "; }
    line += item;
  }
  if (!xs.length) return "()";
  lines.push(line);
  return `(\n${lines.join("\n")}\n)`;
}

const text = `"""Where node ${process.version}'s root collation (ICU ${process.versions.icu}, what
localeCompare uses with no locale) puts the characters Unicode's categories do not order:
punctuation, symbols, spaces and controls before the digits (\`\`BEFORE_DIGITS\`\`), the Latin
letters that are letters of their own (\`\`LATIN\`\`: a-z, þ, ı...) and the ones that are an ASCII
letter at the first level (\`\`LATIN_VARIANTS\`\`, pairs: ð and đ as d, ł as l, in their order at
the second level) or two (\`\`LATIN_EXPANSIONS\`\`, triples: ß as ss, ꝏ as oo), the Han of the
BMP in node's order (\`\`HAN\`\`: by radical and strokes, the blocks interleaved), what sorts
after every letter (\`\`AFTER_LETTERS\`\`: lone surrogates, unassigned code points, U+FFFD,
U+FFFF), and the ones that weigh nothing (\`\`IGNORABLE\`\`). The two orders are runs of
code points, flattened (first, count, first, count...): each is a primary weight of its own
unless its index in the order is in the zone's \`\`..._TIES\`\` (the same primary as the one
before it, after it at a lower level). Generated by scripts/root_collation.mjs.
"""

from typing import Final

# fmt: off
BEFORE_DIGITS: Final = ${tuple(runs(before))}
BEFORE_DIGITS_TIES: Final = ${tuple(ties(before))}
LATIN: Final = ${tuple(runs(latin))}
LATIN_TIES: Final = ${tuple(ties(latin))}
LATIN_VARIANTS: Final = ${tuple(variants.flatMap(([c, , l]) => [c, l.charCodeAt(0)]))}
LATIN_EXPANSIONS: Final = ${tuple(expansions.flat())}
HAN: Final = ${tuple(runs(han))}
HAN_TIES: Final = ${tuple(ties(han))}
AFTER_LETTERS: Final = ${tuple(runs(after))}
AFTER_LETTERS_TIES: Final = ${tuple(ties(after))}
IGNORABLE: Final = ${tuple(ranges(ignorable))}
# fmt: on
`;
writeFileSync(new URL("../core/expressions/js/collation.py", import.meta.url), text);
console.log(`before ${before.length}, latin ${latin.length}, han ${han.length}, after ${after.length}, ignorable ${ignorable.length}`);
