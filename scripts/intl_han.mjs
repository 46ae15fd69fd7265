// Writes core/expressions/js/intl/tables/han.json.gz: every Han character node's root collation
// orders by radical and strokes, the BMP's (the HAN zone scripts/root_collation.mjs wrote into
// core/expressions/js/collation.py, with the radicals among them) and the supplementary planes'
// unified ideographs (Extensions B and on, which node interleaves with the BMP's), in node's
// order, as runs of code points flattened (first, count, first, count...); and the supplementary
// code points node's Unicode leaves unassigned.
//   node scripts/intl_han.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const source = readFileSync(new URL("../core/expressions/js/collation.py", import.meta.url), "utf8");
const body = source.match(/\nHAN: Final = \(([^)]*)\)/)[1];
const flat = body.split(",").map((x) => x.trim()).filter((x) => x).map(Number);
const chars = [];
for (let i = 0; i < flat.length; i += 2) for (let c = flat[i]; c < flat[i] + flat[i + 1]; c++) chars.push(c);
const bmp = chars.length;
for (let c = 0x20000; c <= 0x3ffff; c++) if (/^\p{Unified_Ideograph}$/u.test(String.fromCodePoint(c))) chars.push(c);
const full = new Intl.Collator("en-US");
const zone = chars.map((c) => [c, String.fromCodePoint(c)]);
zone.sort((a, b) => full.compare(a[1], b[1]) || a[0] - b[0]);
// every pair of neighbours differs at the first level: one rank each
const base = new Intl.Collator("en-US", { sensitivity: "base" });
let tied = 0;
for (let i = 1; i < zone.length; i++) if (base.compare(zone[i - 1][1], zone[i][1]) === 0) tied++;
const out = [];
for (const [c] of zone) {
  const last = out[out.length - 1];
  if (last && last[0] + last[1] === c) last[1]++;
  else out.push([c, 1]);
}
// the supplementary code points node's Unicode has not assigned (ICU weighs them by code point,
// after the BMP's unassigned ones and before U+FFFD), as runs
const unassigned = [];
for (let c = 0x10000; c <= 0x10ffff; c++) {
  if (!/^\p{Cn}$/u.test(String.fromCodePoint(c))) continue;
  const last = unassigned[unassigned.length - 1];
  if (last && last[0] + last[1] === c) last[1]++;
  else unassigned.push([c, 1]);
}
writeFileSync(new URL("../core/expressions/js/intl/tables/han.json.gz", import.meta.url),
  gzipSync(JSON.stringify({ hanOrder: out.flat(), unassigned: unassigned.flat() }), { level: 9 }));
console.log(`${bmp} BMP and ${chars.length - bmp} supplementary characters in ${out.length} runs; ${tied} neighbours equal at the first level`);
