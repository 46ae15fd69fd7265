// Writes core/expressions/js/intl/tables/currencyformats.json.gz: the currencies a locale formats
// with a pattern or symbols of their own (CLDR gives some currencies their own: en-CH's €1,234.50
// against its US$ 1'234.50), as node shows them: for each locale NumberFormat resolves to and
// each currency ICU knows whose pattern (0 the number, 1 the sign, 2 the currency), group or
// decimal separator is not the locale's most common one, [positive, negative, group, decimal].
// A locale keeps only what differs from its parent's.
//   node scripts/intl_currency_formats.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
const codes = Intl.supportedValuesOf("currency");

function template(parts) {
  const out = [];
  for (const p of parts) {
    if (["integer", "group", "decimal", "fraction"].includes(p.type)) {
      if (out[out.length - 1] !== 0) out.push(0);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(1);
    else if (p.type === "currency") out.push(2);
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}
const shape = (tag, code) => {
  const nf = new Intl.NumberFormat(tag, { style: "currency", currency: code, minimumFractionDigits: 2 });
  const neg = nf.formatToParts(-1234567.5);
  const sym = (t) => (neg.find((p) => p.type === t) || {}).value || "";
  // the currency's text is left out: only where it stands counts; a space between a letter
  // of the symbol and the number may be ICU's currency spacing, not the pattern's: left out
  const plain = (parts) => {
    const out = template(parts);
    const cur = sym("currency");
    return out.filter((piece, i) => {
      if (typeof piece !== "string" || !/^[\u00a0 ]$/.test(piece)) return true;
      if (out[i - 1] === 2 && out[i + 1] === 0) return /^\p{S}$/u.test([...cur].at(-1));
      if (out[i + 1] === 2 && out[i - 1] === 0) return /^\p{S}$/u.test([...cur][0]);
      return true;
    });
  };
  return JSON.stringify([plain(nf.formatToParts(1234567.5)), plain(neg), sym("group"), sym("decimal")]);
};
// a currency's own where its separators are not the locale's (the most common among all
// currencies) or, for a symbol with symbols at both ends (no currency spacing to tell from the
// pattern's space), its pattern is not the one most such symbols have
const symbolic = (tag, code) => {
  const cur = new Intl.NumberFormat(tag, { style: "currency", currency: code }).formatToParts(1)
    .find((p) => p.type === "currency").value;
  return /^\p{S}$/u.test([...cur][0]) && /^\p{S}$/u.test([...cur].at(-1));
};
const mode = (values) => {
  const counts = new Map();
  for (const v of values) counts.set(v, (counts.get(v) || 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
};
// the locale's own currency pattern where the number table's was measured with a currency that
// has one of its own (en-CH's from its euro): under "", the one most symbols have
const numbers = JSON.parse(gunzipSync(readFileSync(new URL("numbers.json.gz", tables)))).numbers;
const numberRow = (tag) => {
  for (let t = tag; t; t = t.includes("-") ? t.slice(0, t.lastIndexOf("-")) : null) {
    if (numbers[t] && numbers[t].cur) return numbers[t].cur;
  }
  return numbers.en.cur;
};
const rows = {};
for (const tag of locales) {
  const each = {};
  for (const code of codes) each[code] = JSON.parse(shape(tag, code));
  const seps = mode(codes.map((c) => JSON.stringify(each[c].slice(2))));
  const withSymbols = codes.filter((c) => symbolic(tag, c));
  const pattern = mode(withSymbols.map((c) => JSON.stringify(each[c].slice(0, 2))));
  const own = {};
  for (const code of codes) {
    const sepsDiffer = JSON.stringify(each[code].slice(2)) !== seps;
    const patternDiffers = withSymbols.includes(code) && JSON.stringify(each[code].slice(0, 2)) !== pattern;
    if (sepsDiffer || patternDiffers) own[code] = each[code];
  }
  if (pattern && pattern !== JSON.stringify(numberRow(tag))) own[""] = JSON.parse(pattern);
  rows[tag] = own;
}
const pruned = prunedRows(rows, locales);
writeFileSync(new URL("currencyformats.json.gz", tables), gzipSync(JSON.stringify({ currencyFormats: pruned }), { level: 9 }));
console.log(`${Object.keys(pruned).length} locales of their own`, JSON.stringify(pruned).length);
