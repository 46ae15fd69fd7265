// Writes core/expressions/js/intl/tables/compactcurrency.json.gz: compact notation with style
// currency as node answers it, for every locale NumberFormat resolves to (tables/locales.json.gz):
// for each magnitude (10^0 to 10^20) the power of ten the number is divided by and, for each
// plural category the scaled number can take, the pattern around it (0 the number, 1 the sign,
// 2 the currency, [text] the compact part), the short and long displays being one (ICU has no
// long currency patterns). Measured with a currency whose symbol is a symbol at both ends, so
// ICU's currency spacing stays out of the pattern, as scripts/intl_data.mjs measures the plain
// currency pattern (flowctx adds the spacing as it does there).
//   node scripts/intl_compact_currency.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "INR", "BRL", "MXN",
  "KRW", "RUB", "SEK", "NOK", "DKK", "PLN", "TRY", "ZAR", "HKD", "SGD", "NZD"];
function plainCurrency(tag) {
  for (const display of ["symbol", "narrowSymbol"]) {
    for (const c of CURRENCIES) {
      const o = { style: "currency", currency: c, currencyDisplay: display };
      const sym = new Intl.NumberFormat(tag, o).formatToParts(1).find((p) => p.type === "currency").value;
      if (/^\p{Sc}$/u.test([...sym][0]) && /^\p{Sc}$/u.test([...sym].at(-1))) return o;
    }
  }
  throw new Error(`no currency of ${tag} has a plain symbol`);
}
function template(parts) {
  const out = [];
  for (const p of parts) {
    if (["integer", "group", "decimal", "fraction"].includes(p.type)) {
      if (out[out.length - 1] !== 0) out.push(0);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(1);
    else if (p.type === "currency") out.push(2);
    else if (p.type === "compact") out.push([p.value]);
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}

const compactCurrency = {};
for (const tag of locales) {
  const plain = plainCurrency(tag);
  const nf = new Intl.NumberFormat(tag, { ...plain, notation: "compact" });
  const nf2 = new Intl.NumberFormat(tag, { ...plain, notation: "compact", maximumFractionDigits: 2 });
  const pr2 = new Intl.PluralRules(tag, { maximumFractionDigits: 2 });
  const magnitudes = [];
  for (let k = 0; k < 21; k++) {
    const parts = nf.formatToParts(2 * 10 ** k);
    const shown = parts.filter((p) => p.type === "integer").map((p) => p.value).join("");
    const exp = parts.some((p) => p.type === "compact") ? k - ([...shown].length - 1) : 0;
    const byCategory = {};
    const digits = k - exp;
    const low = 10 ** digits;
    const candidates = [];
    for (let i = 1; i < 10; i++) candidates.push(i * low);
    if (low < 1e9) {
      for (let i = 0; i < Math.min(9 * low, 400); i++) candidates.push(low + i);
      for (let i = 0; i < Math.min(9 * low, 30); i++) candidates.push(low + i + 0.5, low + i + 0.25);
    }
    const both = (f, sc) => [template(f.formatToParts(sc * 10 ** exp)), template(f.formatToParts(-(sc * 10 ** exp)))];
    if (digits === 0) byCategory["=1"] = both(nf, 1);
    for (const sc of candidates) {
      if (sc === 1) continue;
      const cat = pr2.select(sc);
      if (!(cat in byCategory)) byCategory[cat] = both(nf2, sc);
    }
    magnitudes.push([exp, byCategory]);
  }
  compactCurrency[tag] = magnitudes;
}
// a row is kept only where it differs from its parent's
const pruned = prunedRows(compactCurrency, locales);
writeFileSync(new URL("compactcurrency.json.gz", tables), gzipSync(JSON.stringify({ compactCurrency: pruned }), { level: 9 }));
console.log(`${Object.keys(pruned).length} locales of their own`);
