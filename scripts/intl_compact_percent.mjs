// Writes core/expressions/js/intl/tables/compactpercent.json.gz: compact notation with style
// percent as node answers it, for every locale NumberFormat resolves to (tables/locales.json.gz):
// ICU formats it as the unit percent, so the pattern around the compact number is the unit's
// (de's 50 % with a plain space, where its percent pattern has a no-break one, tr's %-12 B) around
// the signed compact number, and the sign is a part of type unit. Each locale's parts before and
// after that number; kept only where they differ from its parent's.
//   node scripts/intl_compact_percent.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;

const NUMBER = ["integer", "group", "decimal", "fraction", "compact", "minusSign", "plusSign"];
const all = {};
for (const tag of locales) {
  const parts = new Intl.NumberFormat(tag, { style: "percent", notation: "compact" }).formatToParts(0.5);
  const first = parts.findIndex((p) => NUMBER.includes(p.type));
  const last = parts.length - 1 - [...parts].reverse().findIndex((p) => NUMBER.includes(p.type));
  // the parts around the signed compact number (the literals between its own parts are its
  // compact pattern's): [type, text] pairs before it and after it
  const pairs = (ps) => ps.map((p) => [p.type, p.value]);
  all[tag] = [pairs(parts.slice(0, first)), pairs(parts.slice(last + 1))];
}
const out = prunedRows(all, locales);
const bytes = gzipSync(JSON.stringify({ compactPercent: out }), { level: 9 });
writeFileSync(new URL("compactpercent.json.gz", tables), bytes);
console.log(`compactpercent: ${Object.keys(out).length} locales, ${bytes.length} bytes`);
