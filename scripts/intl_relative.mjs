// Writes core/expressions/js/intl/tables/relative.json.gz: Intl.RelativeTimeFormat as node
// answers it, for every locale it resolves to among NumberFormat's (tables/locales.json.gz):
// for each style and unit, the text around the number in the future and in the past for each
// plural category the number can take ([before, after], or the whole text where it shows no
// number), and the phrases numeric "auto" says
// instead of a number (yesterday, now). A style the same as the wider one is left out (narrow
// then reads short, short reads long), a locale the same as its parent too.
//   node scripts/intl_relative.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const number = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
const locales = number.filter((t) => new Intl.RelativeTimeFormat(t).resolvedOptions().locale === t);
const UNITS = ["second", "minute", "hour", "day", "week", "month", "quarter", "year"];
const SAMPLES = [0, 1, 2, 3, 4, 5, 6, 7, 11, 21, 22, 100, 101, 1000000, 0.5, 1.5, 2.5, 0.1, 1.1];
const NUMBER = ["integer", "group", "decimal", "fraction", "minusSign", "plusSign"];

function around(parts) {
  const first = parts.findIndex((p) => NUMBER.includes(p.type));
  if (first < 0) return null;
  let last = first;
  while (last + 1 < parts.length && NUMBER.includes(parts[last + 1].type)) last++;
  const text = (ps) => ps.map((p) => p.value).join("");
  return [text(parts.slice(0, first)), text(parts.slice(last + 1))];
}
const rows = {};
for (const tag of locales) {
  const pr = new Intl.PluralRules(tag);
  const row = {};
  for (const style of ["long", "short", "narrow"]) {
    const always = new Intl.RelativeTimeFormat(tag, { style });
    const auto = new Intl.RelativeTimeFormat(tag, { style, numeric: "auto" });
    const units = {};
    for (const unit of UNITS) {
      const future = {}, past = {};
      for (const x of SAMPLES) {
        const cat = pr.select(x);
        // a category's text may hold no number at all (ar's two: خلال ثانيتين): kept whole
        const text = (parts) => around(parts) ?? parts.map((p) => p.value).join("");
        future[cat] ??= text(always.formatToParts(x, unit));
        past[cat] ??= text(always.formatToParts(-x, unit));
      }
      // ICU says its phrase for an offset within 1% of -2 to 2 (1.004 days is tomorrow); a text
      // without a number at the whole offset alone may be a plural category's (ar's one second,
      // خلال ثانية واحدة), which 1.004 seconds is not: measured off the whole
      const phrases = {};
      for (let v = -3; v <= 3; v++) {
        const parts = auto.formatToParts(v + 0.004, unit);
        if (around(parts) === null) phrases[v] = parts.map((p) => p.value).join("");
      }
      units[unit] = { f: future, p: past, a: phrases };
    }
    row[style] = units;
  }
  if (JSON.stringify(row.narrow) === JSON.stringify(row.short)) delete row.narrow;
  if (JSON.stringify(row.short) === JSON.stringify(row.long)) delete row.short;
  rows[tag] = row;
}
const pruned = prunedRows(rows, locales);
const bytes = gzipSync(JSON.stringify({ relativeLocales: locales, relative: pruned }), { level: 9 });
writeFileSync(new URL("relative.json.gz", tables), bytes);
console.log(`${locales.length} locales, ${Object.keys(pruned).length} rows, ${bytes.length} bytes`);
