// Writes core/expressions/js/intl/tables/ranges.json.gz: what NumberFormat's formatRange and
// PluralRules' selectRange read beside the locale's number patterns, as node answers them, for
// every locale NumberFormat resolves to (tables/locales.json.gz): the range pattern ("{0}–{1}",
// ja's "{0}～{1}") in each decimal numbering system, the approximately sign, and the plural
// category of a range for each pair of categories (CLDR's plural ranges). A locale keeps only
// what differs from its parent's.
//   node scripts/intl_ranges.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
const systems = Object.keys(JSON.parse(gunzipSync(readFileSync(new URL("numbering.json.gz", tables)))).numberingDigits);
const SAMPLES = [1, 2, 3, 5, 11, 21, 0, 1.5, 100, 1000000, 0.5, 22, 6, 7, 0.1, 1.2, 101, 102, 0.2, 1e6 + 1];

// the range pattern: the shared text around and between the two numbers of 3–5
function rangePattern(tag, nu) {
  const parts = new Intl.NumberFormat(tag, { numberingSystem: nu }).formatRangeToParts(3, 5);
  let out = "";
  for (const p of parts) {
    if (p.source === "shared") out += p.value;
    else if (!out.endsWith("{0}") && !out.includes("{0}")) out += "{0}";
    else if (p.source === "endRange" && !out.includes("{1}")) out += "{1}";
  }
  return out;
}
const rows = {};
for (const tag of locales) {
  const nf = new Intl.NumberFormat(tag);
  const own = nf.resolvedOptions().numberingSystem;
  const row = { range: rangePattern(tag, own) };
  const others = {};
  for (const nu of systems) {
    if (nu === own) continue;
    const p = rangePattern(tag, nu);
    if (p !== row.range) others[nu] = p;
  }
  if (Object.keys(others).length) row.systems = others;
  row.approx = nf.formatRangeToParts(5, 5).filter((p) => p.type === "approximatelySign").map((p) => p.value).join("");
  // the category of a range from the categories of its ends, cardinal and ordinal
  for (const type of ["cardinal", "ordinal"]) {
    const pr = new Intl.PluralRules(tag, { type });
    const samples = {};
    for (const x of SAMPLES) { const c = pr.select(x); if (!(c in samples)) samples[c] = x; }
    const pairs = {};
    for (const [a, x] of Object.entries(samples)) {
      for (const [b, y] of Object.entries(samples)) pairs[`${a} ${b}`] = pr.selectRange(x, y);
    }
    row[type] = pairs;
  }
  rows[tag] = row;
}
const pruned = prunedRows(rows, locales);
writeFileSync(new URL("ranges.json.gz", tables), gzipSync(JSON.stringify({ ranges: pruned }), { level: 9 }));
console.log(`${Object.keys(pruned).length} locales of their own`);
