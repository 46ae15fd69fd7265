// Writes core/expressions/js/intl/tables/currencies.json.gz and currencynames.json.gz (apart: the
// names are most of the bytes, read only for currencyDisplay "name"): every currency ICU knows
// (Intl.supportedValuesOf("currency") and the codes it does not list that ICU names, with their
// digits) as node shows it in every locale NumberFormat resolves to
// (tables/locales.json.gz): its symbol and narrow symbol where they are not its code, and its
// name for each plural category the locale has (currencyDisplay "name"), with the pattern that
// puts the number and the name together. Each locale keeps only what differs from its parent's
// (de-CH from de); a language keeps only the symbols that differ from the most common ones.
// And each locale's accounting patterns (a minus in parentheses: en's ($1.00)). A
// symbol's row is [symbol or 0 (its code), narrow symbol or 0 (the symbol)] and, for a
// right-to-left symbol that ICU closes with a mark outside its part, the marks of each (and
// after them, for a symbol that opens with one, he's CN¥, its opening marks).
//   node scripts/intl_currencies.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { nearestParent, prunedRows } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
// and XXX, the code of no currency, which ICU writes as ¤ though node does not list it
// and the codes node does not list that ICU still knows (a former currency's, DEM, BYR; a
// fund's or a metal's, CLF, XAU): named, or with digits of their own, in some of a few locales
const listed = new Set([...Intl.supportedValuesOf("currency"), "XXX"]);
const PROBES = ["en", "de", "fr", "es", "ru", "ja", "zh", "ar", "pt", "hi"];
const knownToIcu = (code) => PROBES.some((tag) => {
  const f = (o) => new Intl.NumberFormat(tag, { style: "currency", currency: code, ...o });
  return !f({ currencyDisplay: "name" }).format(2).includes(code) || !f({}).format(2).includes(code)
    || f({}).resolvedOptions().maximumFractionDigits !== 2;
});
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const others = [...LETTERS].flatMap((a) => [...LETTERS].flatMap((b) => [...LETTERS].map((c) => a + b + c)))
  .filter((code) => !listed.has(code) && knownToIcu(code));
const codes = [...listed, ...others];
// their digits where not 2 (tables/locales has the listed ones')
const otherDigits = Object.fromEntries(others.map((c) => [c,
  new Intl.NumberFormat("en", { style: "currency", currency: c }).resolvedOptions().maximumFractionDigits])
  .filter(([, d]) => d !== 2));
// a number of each plural category (the categories' own samples, as CLDR lists them)
const SAMPLES = [1, 2, 3, 5, 11, 21, 0, 1.5, 100, 1000000, 0.5, 22, 6, 7, 0.1];

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
// a locale's accounting patterns (currencySign "accounting"): [with a plus, with a minus,
// without a sign] (nb puts the symbol first in all three), measured with a currency whose symbol is a symbol at both ends (scripts/intl_data.mjs)
const PLAIN = ["USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "INR", "BRL", "MXN",
  "KRW", "RUB", "SEK", "NOK", "DKK", "PLN", "TRY", "ZAR", "HKD", "SGD", "NZD"];
function plainCurrency(tag) {
  for (const currencyDisplay of ["symbol", "narrowSymbol"]) {
    for (const currency of PLAIN) {
      const o = { style: "currency", currency, currencyDisplay };
      const sym = new Intl.NumberFormat(tag, o).formatToParts(1).find((p) => p.type === "currency").value;
      if (/^\p{Sc}$/u.test([...sym][0]) && /^\p{Sc}$/u.test([...sym].at(-1))) return o;
    }
  }
  throw new Error(`no currency of ${tag} has a plain symbol`);
}
const accounting = {};
for (const tag of locales) {
  const o = { ...plainCurrency(tag), currencySign: "accounting" };
  const f = new Intl.NumberFormat(tag, { ...o, signDisplay: "always" });
  accounting[tag] = [template(f.formatToParts(1)), template(f.formatToParts(-1)),
    template(new Intl.NumberFormat(tag, o).formatToParts(1))];
  // and its group sizes where they are not the currency's (en-IN's accounting groups by three)
  const sizes = (g) => {
    const ints = g.formatToParts(-1234567890.5).filter((p) => p.type === "integer").map((p) => p.value.length);
    return ints.length > 2 ? [ints.at(-1), ints.at(-2)] : ints.length === 2 ? [ints[1], ints[1]] : [0, 0];
  };
  const own = sizes(new Intl.NumberFormat(tag, { ...o, useGrouping: "always" }));
  const plain = sizes(new Intl.NumberFormat(tag, { ...o, currencySign: "standard", useGrouping: "always" }));
  if (JSON.stringify(own) !== JSON.stringify(plain)) accounting[tag].push(own);
}
const symbols = {};
const names = {};
const around = {};
const patterns = {};
for (const tag of locales) {
  const pr = new Intl.PluralRules(tag);
  const cats = {};
  for (const x of SAMPLES) cats[pr.select(x)] ??= x;
  for (const [cat, x] of Object.entries(cats)) {
    if (new Intl.NumberFormat(tag, { maximumFractionDigits: 3 }).format(x) !== new Intl.NumberFormat(tag).format(x)) throw new Error(`${tag}: ${x} is not shown as it is`);
    if (new Intl.PluralRules(tag, { maximumFractionDigits: 3 }).select(x) !== cat) throw new Error(`${tag}: ${x} is not ${cat}`);
  }
  const sym = {};
  const nm = {};
  const plainParts = new Intl.NumberFormat(tag, { style: "currency", currency: "XXX" }).formatToParts(1);
  let plainMarks = "";
  for (const p of plainParts.slice(plainParts.findIndex((p) => p.type === "currency") + 1)) {
    if (p.type !== "literal" || !/^[\u200e\u200f\u061c]+$/.test(p.value)) break;
    plainMarks += p.value;
  }
  // the marks right before a currency's part (a plain symbol's: he's U+200F)
  const openingOf = (currency, o) => {
    const parts = new Intl.NumberFormat(tag, { style: "currency", currency, ...o }).formatToParts(1);
    const at = parts.findIndex((p) => p.type === "currency");
    const before = at > 0 && parts[at - 1].type === "literal" ? parts[at - 1].value : "";
    return (before.match(/[\u200e\u200f\u061c]+$/) || [""])[0];
  };
  const [plainOpening, plainOpeningNarrow] = [openingOf("XXX", {}), openingOf("XXX", { currencyDisplay: "narrowSymbol" })];
  for (const c of codes) {
    const part = (o, x) => new Intl.NumberFormat(tag, { style: "currency", currency: c, ...o }).formatToParts(x)
      .filter((p) => p.type === "currency").map((p) => p.value).join("");
    const s = part({}, 1);
    const n = part({ currencyDisplay: "narrowSymbol" }, 1);
    // a right-to-left symbol's own closing mark (ar's د.ك. and U+200F), which ICU leaves out
    // of the currency part: the marks right after it that a plain symbol has not
    const marks = (o) => {
      const parts = new Intl.NumberFormat(tag, { style: "currency", currency: c, ...o }).formatToParts(1);
      const at = parts.findIndex((p) => p.type === "currency");
      let out = "";
      for (const p of parts.slice(at + 1)) {
        if (p.type !== "literal" || !/^[\u200e\u200f\u061c]+$/.test(p.value)) break;
        out += p.value;
      }
      return out;
    };
    const row = [s === c ? 0 : s, n === s ? 0 : n];
    const [ms, mn] = [marks({}), marks({ currencyDisplay: "narrowSymbol" })];
    // and its own opening mark (he's U+200E before CN¥), left out of the part alike: the marks
    // right before it that a plain symbol has not
    const [os, on] = [openingOf(c, {}), openingOf(c, { currencyDisplay: "narrowSymbol" })];
    const own = (m, plain) => (m.length > plain.length && m.startsWith(plain) ? m.slice(plain.length) : "");
    const [osOwn, onOwn] = [own(os, plainOpening), own(on, plainOpeningNarrow)];
    if (ms || mn || osOwn || onOwn) row.push(ms.slice(plainMarks.length), mn.slice(plainMarks.length));
    if (osOwn || onOwn) row.push(osOwn, onOwn);
    sym[c] = row;
    // each category's name with its sample shown as it is (1.5 rounded to a yen's 2 would
    // be ru's "few", not its "other")
    nm[c] = Object.fromEntries(Object.entries(cats).map(([cat, x]) => [cat,
      part({ currencyDisplay: "name", minimumFractionDigits: 0, maximumFractionDigits: 3 }, x)]));
  }
  symbols[tag] = sym;
  names[tag] = nm;
  // the currencies whose name ICU writes with the symbol before the number and the name after
  // it where the locale's other names have no symbol (tr's ₺1,00 Türk lirası, en-150's € 1,00
  // euros): two currency parts
  const parted = (c) => new Intl.NumberFormat(tag, { style: "currency", currency: c, currencyDisplay: "name" })
    .formatToParts(2).filter((p) => p.type === "currency").length > 1;
  if (!parted("USD")) {
    const own = codes.filter(parted);
    if (own.length) around[tag] = own;
  }
  const pat = {};
  for (const [cat, x] of Object.entries(cats)) {
    const f = new Intl.NumberFormat(tag, { style: "currency", currency: "USD", currencyDisplay: "name", minimumFractionDigits: 0 });
    pat[cat] = [template(f.formatToParts(x)), template(f.formatToParts(-x))];
  }
  patterns[tag] = pat;
}
// the most common symbols over the languages: the base a language's own are kept against
const languages = locales.filter((t) => !t.includes("-"));
const common = {};
for (const c of codes) {
  const seen = {};
  for (const l of languages) { const k = JSON.stringify(symbols[l][c]); seen[k] = (seen[k] ?? 0) + 1; }
  common[c] = JSON.parse(Object.entries(seen).sort((a, b) => b[1] - a[1])[0][0]);
}
function pruned(all, base) {
  const out = {};
  for (const tag of locales) {
    const p = nearestParent(tag, all);
    const against = p ? all[p] : base;
    const row = {};
    for (const [k, v] of Object.entries(all[tag])) {
      if (!against || JSON.stringify(against[k]) !== JSON.stringify(v)) row[k] = v;
    }
    if (Object.keys(row).length || !p) out[tag] = row;
  }
  return out;
}
const files = {
  currencies: { currencyBase: common, currencySymbols: pruned(symbols, common), currencyOtherDigits: otherDigits,
    currencyAccounting: prunedRows(accounting, locales) },
  currencynames: { currencyNames: pruned(names, null), currencyNamePatterns: pruned(patterns, null),
    currencyNamesAround: around },
};
for (const [file, data] of Object.entries(files)) {
  const bytes = gzipSync(JSON.stringify(data), { level: 9 });
  writeFileSync(new URL(`${file}.json.gz`, tables), bytes);
  console.log(`${file}: ${codes.length} currencies, ${bytes.length} bytes`);
}
