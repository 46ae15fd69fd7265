// Writes core/expressions/js/collation.py: the order node's root collation (ICU, what
// String.prototype.localeCompare uses with no locale) gives the characters flowctx cannot order
// from Unicode's data alone: punctuation, symbols, spaces and controls before the digits, the
// letters of every script of the BMP (and the marks and symbols that sort among them), Han by
// radical and strokes, and what sorts after every letter (lone surrogates, unassigned code
// points, U+FFFD, U+FFFF). Run with the node whose answers flowctx reproduces, then format:
//   node scripts/root_collation.mjs && ruff format core/expressions/js/collation.py
import { writeFileSync } from "node:fs";

const base = new Intl.Collator("en-US", { sensitivity: "base" });
const accent = new Intl.Collator("en-US", { sensitivity: "accent" });
const full = new Intl.Collator("en-US");
const text = (c) => (c >= 0xd800 && c <= 0xdfff ? String.fromCharCode(c) : String.fromCodePoint(c));
const isHan = (s) => /^\p{Unified_Ideograph}$/u.test(s);

// the characters of their own: no decomposition (the others are ordered by their parts), no
// decimal digit (ordered by value), no Hangul syllable (its jamo); and the few decompositions
// node does not order by their parts (the spacing accents ´ ˘ are symbols, not a space and an
// accent; the Arabic isolated forms ﹰ weigh as their marks alone)
const byParts = (s, d) => base.compare(s, d) === 0 && accent.compare(s, d) === 0;
const cps = [];
for (let c = 0; c < 0x10000; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  if (c >= 0xac00 && c <= 0xd7a3) continue;
  const s = String.fromCodePoint(c);
  const d = s.normalize("NFKD");
  if ((d !== s && byParts(s, d)) || /^\p{Nd}$/u.test(s) || isHan(s)) continue;
  cps.push(c);
}
for (let c = 0x1f000; c < 0x1fc00; c++) {
  const s = String.fromCodePoint(c);
  if (s.normalize("NFKD") === s && /^[\p{S}\p{P}]$/u.test(s)) cps.push(c);
}
// a lone surrogate (a string of UTF-16 units may hold one) sorts by its code point, after Han
for (let c = 0xd800; c <= 0xdfff; c++) cps.push(c);

// the letters equal to two ASCII letters at the first level (ß as ss, ꝏ as oo): spelled out
const pairs = [];
for (const x of "abcdefghijklmnopqrstuvwxyz") for (const y of "abcdefghijklmnopqrstuvwxyz") pairs.push(x + y);
const expansions = [];
const items = [];
for (const c of cps) {
  const s = text(c);
  if (c > 0x7f && c < 0x2c80 && /^\p{L}$/u.test(s)) {
    const pair = pairs.find((p) => base.compare(s, p) === 0);
    if (pair !== undefined) { expansions.push([c, pair.charCodeAt(0), pair.charCodeAt(1)]); continue; }
  }
  items.push([c, s]);
}
items.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);

const ignorable = [];
const accents = [];
const before = [];
const letters = [];
const after = [];
for (const [c, s] of items) {
  if (full.compare(s, "") === 0) { ignorable.push([c, s]); continue; }
  if (base.compare(s, "") === 0) { accents.push([c, s]); continue; } // the second level only
  if (base.compare(s, "0") < 0) before.push([c, s]);
  else if (base.compare(s, "9") > 0 && base.compare(s, "\u4e00") < 0) letters.push([c, s]);
  else if (base.compare(s, "\u9fa5") > 0 && base.compare(s, "\u4dbf") > 0) after.push([c, s]);
}

const han = [];
for (const [lo, hi] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xf900, 0xfaff]]) {
  for (let c = lo; c <= hi; c++) if (isHan(String.fromCodePoint(c))) han.push([c, String.fromCodePoint(c)]);
}
han.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);
// and what node puts among them (the CJK radicals, by the radical they are)
const [firstHan, lastHan] = [han[0][1], han[han.length - 1][1]];
for (const [c, s] of items) {
  if (base.compare(s, firstHan) >= 0 && base.compare(s, lastHan) <= 0) han.push([c, s]);
}
han.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);

// how each item differs from the one before it: 1 a new primary, 2 the same primary and a
// new second level (an accent, ł after l), 3 a new third level (case, width), 0 no difference
function levels(zone) {
  return zone.map(([, s], i) => {
    if (i === 0) return 1;
    const p = zone[i - 1][1];
    if (base.compare(p, s) !== 0) return 1;
    if (accent.compare(p, s) !== 0) return 2;
    return full.compare(p, s) !== 0 ? 3 : 0;
  });
}
// runs of consecutive code points, flattened (first, count...)
function runs(zone) {
  const out = [];
  for (const [c] of zone) {
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === c) last[1]++;
    else out.push([c, 1]);
  }
  return out.flat();
}
const at = (zone, level) => levels(zone).map((l, i) => (l === level ? i : -1)).filter((i) => i >= 0);
const byCodePoint = (zone) => [...zone].sort((a, b) => a[0] - b[0]);
// a tuple of ints wrapped at 100 columns (the data sits between fmt: off and on)
function tuple(xs) {
  if (!xs.length) return "()";
  const lines = [];
  let line = "   ";
  for (const x of xs) {
    const item = ` ${x},`;
    if (line.length + item.length > 100) { lines.push(line); line = "   "; }
    line += item;
  }
  lines.push(line);
  return `(\n${lines.join("\n")}\n)`;
}
function zone(name, z) {
  return [
    `${name}: Final = ${tuple(runs(z))}`,
    `${name}_SECOND: Final = ${tuple(at(z, 2))}`,
    `${name}_THIRD: Final = ${tuple(at(z, 3))}`,
    `${name}_SAME: Final = ${tuple(at(z, 0))}`,
  ].join("\n");
}

const out = `"""The order node ${process.version}'s root collation (ICU ${process.versions.icu}, what
localeCompare uses with no locale) gives the characters that have one of their own.

Each zone is its characters in node's order, as runs of code points flattened (first, count,
first, count...); an index in the zone's \`\`_SECOND\`\` differs from the character before it at
the second level only (an accent, ł after l), in \`\`_THIRD\`\` at the third only (case), in
\`\`_SAME\`\` not at all; every other starts a primary weight of its own. \`\`BEFORE_DIGITS\`\`:
punctuation, symbols, spaces and controls; \`\`LETTERS\`\`: the letters of every script of the
BMP, and the marks and symbols node puts among them; \`\`HAN\`\`: the BMP's Han, by radical and
strokes; \`\`AFTER_LETTERS\`\`: lone surrogates, unassigned code points, U+FFFD, U+FFFF.
\`\`LATIN_EXPANSIONS\`\` (triples): the letters that are two ASCII letters at the first level (ß
as ss); \`\`IGNORABLE\`\` (runs): the characters that weigh nothing; \`\`ACCENTS\`\` (runs): the
ones that weigh at the second level only (combining accents, some vowel signs). Generated by
scripts/root_collation.mjs.
"""

from typing import Final

# fmt: off
${zone("BEFORE_DIGITS", before)}
${zone("LETTERS", letters)}
${zone("HAN", han)}
${zone("AFTER_LETTERS", after)}
LATIN_EXPANSIONS: Final = ${tuple(expansions.flat())}
IGNORABLE: Final = ${tuple(runs(byCodePoint(ignorable)))}
ACCENTS: Final = ${tuple(runs(byCodePoint(accents)))}
# fmt: on
`;
writeFileSync(new URL("../core/expressions/js/collation.py", import.meta.url), out);
console.log(`before ${before.length}, letters ${letters.length}, han ${han.length}, ` +
  `after ${after.length}, expansions ${expansions.length}, ignorable ${ignorable.length}`);
