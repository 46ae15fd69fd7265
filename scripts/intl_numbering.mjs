// Writes core/expressions/js/intl/tables/numbering.json.gz: the numbering systems node's ICU has
// and how each changes a locale's numbers. For every numbering system Intl.supportedValuesOf
// lists, its ten digits where it is a decimal system (the others, algorithmic like roman, V8
// does not take: a locale asking for one gets its default); for every locale NumberFormat
// resolves to (tables/locales.json.gz) and every decimal system, the symbols and patterns that
// differ from the locale's own (its default system's) once the digits are set aside: ICU reads
// symbols and patterns per numbering system, with the root's for arab and arabext. Compact and
// scientific forms whose patterns differ too are listed, for flowctx to refuse.
//   node scripts/intl_numbering.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;

// --- the decimal numbering systems and their digits ---------------------------------------------
const digits = {};
for (const nu of Intl.supportedValuesOf("numberingSystem")) {
  const f = new Intl.NumberFormat("en", { numberingSystem: nu, useGrouping: false });
  if (f.resolvedOptions().numberingSystem !== nu) continue; // algorithmic: V8 refuses it
  const ds = [...f.format(1234567890)];
  if (ds.length !== 10) throw new Error(`${nu}: ${ds.join("")}`);
  digits[nu] = [ds[9], ...ds.slice(0, 9)].join("");
}

// --- what a numbering system changes in a locale ------------------------------------------------
function template(parts) {
  const out = [];
  for (const p of parts) {
    if (["integer", "group", "decimal", "fraction", "nan", "infinity"].includes(p.type)) {
      if (out[out.length - 1] !== 0) out.push(0);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(1);
    else if (p.type === "currency") out.push(2);
    else if (p.type === "compact") out.push([p.value]);
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}
function measure(tag, nu) {
  const f = (o, x) => new Intl.NumberFormat(tag, { numberingSystem: nu, ...o }).formatToParts(x);
  const value = (parts, type) => (parts.find((p) => p.type === type) || { value: "" }).value;
  const between = (parts, a, b) => {
    const i = parts.findIndex((p) => p.type === a);
    const j = parts.findIndex((p) => p.type === b);
    return parts.slice(i + 1, j).map((p) => p.value).join("");
  };
  const cur = { style: "currency", currency: "EUR", currencyDisplay: "code" };
  const sizes = (o) => {
    const ints = f(o, 123456789012).filter((p) => p.type === "integer").map((p) => [...p.value].length);
    if (ints.length === 1) return [0, 0]; // a pattern without grouping (en-US-u-va-posix)
    return [ints[ints.length - 1], ints.length > 2 ? ints[ints.length - 2] : ints[ints.length - 1]];
  };
  const row = {
    dec: [template(f({}, 1)), template(f({}, -1))],
    pct: [template(f({ style: "percent" }, 1)), template(f({ style: "percent" }, -1))],
    cur: [template(f({ style: "currency", currency: "EUR" }, 1)),
      template(f({ style: "currency", currency: "EUR" }, -1))],
    // the accounting patterns (with a plus, with a minus, without a sign), as
    // scripts/intl_currencies.mjs measures a locale's own
    acc: [template(f({ style: "currency", currency: "EUR", currencySign: "accounting", signDisplay: "always" }, 1)),
      template(f({ style: "currency", currency: "EUR", currencySign: "accounting", signDisplay: "always" }, -1)),
      template(f({ style: "currency", currency: "EUR", currencySign: "accounting" }, 1))],
    curCode: [template(f(cur, 1)), template(f(cur, -1))],
    minus: value(f({}, -1), "minusSign"),
    plus: value(f({ signDisplay: "always" }, 1), "plusSign"),
    exp: value(f({ notation: "scientific" }, -12345), "exponentSeparator"),
    expMinus: between(f({ notation: "scientific" }, 0.001), "exponentSeparator", "exponentInteger"),
    sizes: [sizes({}), sizes({ style: "percent" }), sizes({ style: "currency", currency: "USD" })],
    accSizes: sizes({ style: "currency", currency: "USD", currencySign: "accounting" }),
    accGroup: value(f({ style: "currency", currency: "USD", currencySign: "accounting" }, 1234567.5), "group"),
    accMin2: !f({ style: "currency", currency: "USD", currencySign: "accounting" }, 1234).some((p) => p.type === "group"),
    pctSign: value(f({ style: "percent" }, 1), "percentSign"),
    curGroup: value(f({ style: "currency", currency: "USD" }, 1234567.5), "group"),
    curDecimal: value(f({ style: "currency", currency: "USD" }, 1234567.5), "decimal"),
    // the group symbol, shown where the pattern groups nothing too (useGrouping always groups
    // en-US-u-va-posix by three)
    group: value(f({ useGrouping: "always" }, 1234567.5), "group"),
    point: value(f({}, 1234567.5), "decimal"),
    min2: f({}, 1234567).some((p) => p.type === "group") || !f({ style: "percent" }, 12345.67).some((p) => p.type === "group")
      ? !f({}, 1234).some((p) => p.type === "group") : !f({ style: "percent" }, 12.34).some((p) => p.type === "group"),
    nan: value(f({}, NaN), "nan"),
    infinity: value(f({}, Infinity), "infinity"),
    plusAt: template(f({ signDisplay: "always" }, 1)),
    // the approximately sign of a range whose ends format alike (arab's and arabext's are the
    // root's ~, yo's own dáàṣì in the others)
    approx: new Intl.NumberFormat(tag, { numberingSystem: nu }).formatRangeToParts(5, 5)
      .filter((p) => p.type === "approximatelySign").map((p) => p.value).join(""),
    compact: ["short", "long"].map((d) => [1234, 1234567, 5e9].map((x) =>
      JSON.stringify(template(f({ notation: "compact", compactDisplay: d }, x))))).join(),
  };
  return row;
}

const numbering = {};
let differing = 0;
for (const tag of locales) {
  const own = new Intl.NumberFormat(tag).resolvedOptions().numberingSystem;
  const base = measure(tag, own);
  const rows = {};
  for (const nu of Object.keys(digits)) {
    if (nu === own) continue;
    const row = measure(tag, nu);
    const diff = {};
    for (const k of Object.keys(row)) {
      if (JSON.stringify(row[k]) !== JSON.stringify(base[k])) diff[k] = row[k];
    }
    if ("compact" in diff) diff.compact = true;
    // the accounting pattern's group sizes, wherever the system changes the others
    if ("sizes" in diff) Object.assign(diff, { accSizes: row.accSizes, accGroup: row.accGroup, accMin2: row.accMin2 });
    else { delete diff.accSizes; delete diff.accGroup; delete diff.accMin2; }
    if (Object.keys(diff).length) rows[nu] = diff;
  }
  if (Object.keys(rows).length) { numbering[tag] = rows; differing++; }
}
// a locale's rows are kept only where they differ from its parent's (de-CH reads de's)
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
const pruned = {};
for (const tag of locales) {
  let p = parentOf(tag);
  while (p && !locales.includes(p)) p = parentOf(p);
  const mine = JSON.stringify(numbering[tag] ?? {});
  if (p && JSON.stringify(numbering[p] ?? {}) === mine) continue;
  pruned[tag] = numbering[tag] ?? {};
}
// en-US-u-va-posix, ICU's en_US_POSIX: what it changes in en-US (no grouping, INF, ¤ apart)
const posix = {};
const us = measure("en-US", "latn");
const px = measure("en-US-u-va-posix", "latn");
for (const k of Object.keys(px)) if (JSON.stringify(px[k]) !== JSON.stringify(us[k])) posix[k] = px[k];
// grouped, unlike its other money
if ("sizes" in posix) Object.assign(posix, { accSizes: px.accSizes, accGroup: px.accGroup, accMin2: px.accMin2 });
// and in each other numbering system: what it changes in en-US (ICU reads the posix symbols and
// patterns of that system, with the root's for arab and arabext)
const posixRows = {};
for (const nu of Object.keys(digits)) {
  if (nu === "latn") continue;
  const row = measure("en-US-u-va-posix", nu);
  const diff = {};
  for (const k of Object.keys(row)) if (JSON.stringify(row[k]) !== JSON.stringify(us[k])) diff[k] = row[k];
  if ("compact" in diff) diff.compact = true;
  if ("sizes" in diff) Object.assign(diff, { accSizes: row.accSizes, accGroup: row.accGroup, accMin2: row.accMin2 });
  else { delete diff.accSizes; delete diff.accGroup; delete diff.accMin2; }
  posixRows[nu] = diff;
}
const out = { numberingDigits: digits, numberingRows: pruned, numberingPosix: posix, numberingPosixRows: posixRows };
writeFileSync(new URL("numbering.json.gz", tables), gzipSync(JSON.stringify(out), { level: 9 }));
console.log(`${Object.keys(digits).length} decimal systems; ${differing} locales with rows of their own`);
