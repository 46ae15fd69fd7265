// Writes core/expressions/js/intl/tables/*.json.gz and rootorder.json: what node's Intl answers for each locale it has
// (number affixes and symbols, list separators, date patterns, which collations are the
// root's), as data flowctx formats with. Run with the node whose answers flowctx reproduces:
//   node scripts/intl_data.mjs
// Every table is measured through Intl's own formatToParts/select/compare, never written by hand;
// the script checks each inference it makes (a list's separators) against node over further
// samples, and leaves out what does not hold. Plural rules: scripts/intl_plural_rules.mjs.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SKELETONS } from "./intl_skeleton_sets.mjs";
import { rebuild, skeletonRow } from "./intl_date_rows.mjs";


// a seeded generator: the same node writes the same tables
let seed = 7;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

// --- dates with options: a fixed set of option sets (skeletons), each a pattern per locale -------
// Each skeleton's pattern is measured from formatToParts (numbers by their width, month and weekday
// names and day periods as lists), rebuilt here from the data and kept only where the rebuilt text
// equals node's on a few hundred dates (Catalan's d'abril is a pattern per month).
function skeletonsOf(tag, skip) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)].join("");
  const row = {};
  for (const [key, opts] of Object.entries(SKELETONS)) {
    if (skip.includes(key)) continue;
    process.stderr.write(`skeleton ${key}\n`);
    const r = skeletonRow(tag, opts, digits);
    const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...opts });
    let ok = true;
    for (let i = 0; i < 150 && ok; i++) {
      const t = Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60));
      if (rebuild(r, t, digits) !== f.formatToParts(t).map((p) => p.value).join("")) ok = false;
    }
    if (ok) row[key] = r;
  }
  return row;
}
// node 20 aborts the whole process in formatToParts for a few patterns (gd's year and short
// month): each locale is measured in a child process, and a skeleton that kills it is left out
if (process.argv[2] === "--skeletons") {
  // exit once the pipe has taken it all (a pipe takes 64 KiB at a time)
  process.stdout.write(JSON.stringify(skeletonsOf(process.argv[3], process.argv.slice(4))), () => process.exit(0));
  await new Promise(() => {});
}
// --- the locales node has -----------------------------------------------------------------
const letters = "abcdefghijklmnopqrstuvwxyz";
const languages = [];
for (const a of letters) for (const b of letters) languages.push(a + b);
languages.push("ast", "ckb", "fil", "haw", "yue", "kok", "chr", "ceb", "mai", "sat", "mni",
  "brx", "doi", "kea", "gsw", "dsb", "hsb", "nds", "smn", "sah", "vai", "yrl", "jgo", "kgp",
  "jbo", "hak", "hsn", "nan", "xtg",
  "und");
const scripts = ["Latn", "Cyrl", "Arab", "Hans", "Hant", "Deva", "Beng", "Guru", "Adlm",
  "Olck", "Mtei", "Vaii", "Tfng", "Dsrt", "Shaw", "Rohg", "Mong", "Orya", "Telu", "Knda"];
const regions = [];
for (const a of letters.toUpperCase()) for (const b of letters.toUpperCase()) regions.push(a + b);
regions.push("419", "001", "150");

function available(Service) {
  // the locales a service resolves to: a tag is available where it resolves to itself
  const found = new Set();
  const langs = languages.filter((l) => new Service(l).resolvedOptions().locale === l);
  for (const l of langs) found.add(l);
  for (const l of langs) {
    for (const s of scripts) {
      const t = `${l}-${s}`;
      if (new Service(t).resolvedOptions().locale === t) found.add(t);
      for (const r of regions) {
        const u = `${t}-${r}`;
        if (found.has(t) && new Service(u).resolvedOptions().locale === u) found.add(u);
      }
    }
    for (const r of regions) {
      const t = `${l}-${r}`;
      if (new Service(t).resolvedOptions().locale === t) found.add(t);
    }
  }
  return [...found].sort();
}

const NF = available(Intl.NumberFormat);
const languageOf = (tag) => tag.split("-")[0];
const parentOf = (tag) => {
  const parts = tag.split("-");
  return parts.length > 1 ? parts.slice(0, -1).join("-") : null;
};
// a row is kept only where it differs from its parent's (de-CH from de, de from nothing)
function pruned(table) {
  const out = {};
  const key = (v) => JSON.stringify(v);
  for (const tag of Object.keys(table).sort((a, b) => a.length - b.length || (a < b ? -1 : 1))) {
    let p = parentOf(tag);
    while (p && !(p in table)) p = parentOf(p);
    if (p && key(table[p]) === key(table[tag])) continue;
    out[tag] = table[tag];
  }
  return out;
}

// --- numbers --------------------------------------------------------------------------------
// A template: a list of pieces, 0 for the number, 1 for the sign, 2 for the currency, else text.
function template(parts) {
  const out = [];
  for (const p of parts) {
    if (["integer", "group", "decimal", "fraction", "nan", "infinity"].includes(p.type)) {
      if (out[out.length - 1] !== 0) out.push(0);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(1);
    else if (p.type === "currency") out.push(2);
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}
const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CNY", "CHF", "CAD", "AUD", "INR", "BRL", "MXN",
  "KRW", "RUB", "SEK", "NOK", "DKK", "PLN", "TRY", "ZAR", "HKD", "SGD", "NZD"];
const numbers = {};
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
for (const tag of NF) {
  const f = (o, x) => new Intl.NumberFormat(tag, o).formatToParts(x);
  const value = (parts, type) => (parts.find((p) => p.type === type) || { value: "" }).value;
  const between = (parts, a, b) => {
    const i = parts.findIndex((p) => p.type === a);
    const j = parts.findIndex((p) => p.type === b);
    return parts.slice(i + 1, j).map((p) => p.value).join("");
  };
  const sci = f({ notation: "scientific" }, -12345);
  const row = {
    dec: [template(f({}, 1)), template(f({}, -1))],
    pct: [template(f({ style: "percent" }, 1)), template(f({ style: "percent" }, -1))],
    // the currency pattern, measured with a symbol that is a symbol at both ends, so ICU's
    // currency spacing (a no-break space beside a letter) stays out of it
    cur: [template(f(plainCurrency(tag), 1)), template(f(plainCurrency(tag), -1))],
    minus: value(f({}, -1), "minusSign"),
    plus: value(f({ signDisplay: "always" }, 1), "plusSign"),
    exp: value(sci, "exponentSeparator"),
    expMinus: between(f({ notation: "scientific" }, 0.001), "exponentSeparator", "exponentInteger"),
    // each pattern's own group sizes (bn groups plain numbers by 3 then 2, percents by 3)
    sizes: ["dec", "pct", "cur"].map((k) => {
      const o = { dec: {}, pct: { style: "percent" }, cur: { style: "currency", currency: "USD" } }[k];
      const ints = f(o, 123456789012).filter((p) => p.type === "integer").map((p) => [...p.value].length);
      return [ints[ints.length - 1], ints.length > 2 ? ints[ints.length - 2] : ints[ints.length - 1]];
    }),
    pctSign: value(f({ style: "percent" }, 1), "percentSign"),
    // some locales group and point money apart from plain numbers (de-AT)
    curGroup: value(f({ style: "currency", currency: "USD" }, 1234567.5), "group"),
    curDecimal: value(f({ style: "currency", currency: "USD" }, 1234567.5), "decimal"),
    sym: {}, narrow: {},
  };
  // signDisplay 'always' must put its plus where the minus goes
  const plus = template(f({ signDisplay: "always" }, 1));
  if (JSON.stringify(plus) !== JSON.stringify(row.dec[1])) row.plusAt = plus;
  for (const c of CURRENCIES) {
    row.sym[c] = value(f({ style: "currency", currency: c }, 1), "currency");
    row.narrow[c] = value(f({ style: "currency", currency: c, currencyDisplay: "narrowSymbol" }, 1), "currency");
  }
  numbers[tag] = row;
}
// compact notation: for each magnitude (10^0 to 10^14) and display (short, long), the power
// of ten the number is divided by and, for each plural category the scaled number can take, the
// pattern around it (0 the number, 1 the sign; [text] the compact part)
function compactTemplate(parts) {
  const out = [];
  for (const p of parts) {
    if (["integer", "group", "decimal", "fraction"].includes(p.type)) {
      if (out[out.length - 1] !== 0) out.push(0);
    } else if (p.type === "minusSign" || p.type === "plusSign") out.push(1);
    else if (p.type === "compact") out.push([p.value]);
    else if (typeof out[out.length - 1] === "string") out[out.length - 1] += p.value;
    else out.push(p.value);
  }
  return out;
}
const compacts = {};
for (const tag of NF) {
  const pr = new Intl.PluralRules(tag);
  const row = {};
  for (const display of ["short", "long"]) {
    const nf = new Intl.NumberFormat(tag, { notation: "compact", compactDisplay: display });
    const magnitudes = [];
    for (let k = 0; k < 21; k++) {
      const parts = nf.formatToParts(2 * 10 ** k); // 10^k itself may be a word (fr: mille)
      const shown = parts.filter((p) => p.type === "integer").map((p) => p.value).join("");
      const exp = parts.some((p) => p.type === "compact") ? k - ([...shown].length - 1) : 0;
      const byCategory = {};
      const digits = k - exp;
      const candidates = [];
      const low = 10 ** digits;
      for (let i = 1; i < 10; i++) candidates.push(i * low);
      if (low < 1e9) {
        for (let i = 0; i < Math.min(9 * low, 400); i++) candidates.push(low + i);
        for (let i = 0; i < Math.min(9 * low, 30); i++) candidates.push(low + i + 0.5, low + i + 0.25);
      }
      // sampled with two fraction digits shown, so the categories of decimals are met too
      const nf2 = new Intl.NumberFormat(tag, { notation: "compact", compactDisplay: display, maximumFractionDigits: 2 });
      const pr2 = new Intl.PluralRules(tag, { maximumFractionDigits: 2 });
      const both = (f, sc) => [compactTemplate(f.formatToParts(sc * 10 ** exp)),
        compactTemplate(f.formatToParts(-(sc * 10 ** exp)))];
      // exactly 1 may have a pattern of its own (fr: mille, not 1 millier)
      if (digits === 0) byCategory["=1"] = both(nf, 1);
      for (const sc of candidates) {
        if (sc === 1) continue;
        const cat = pr2.select(sc);
        if (cat in byCategory) continue;
        byCategory[cat] = both(nf2, sc);
      }
      magnitudes.push([exp, byCategory]);
    }
    row[display] = magnitudes;
  }
  compacts[tag] = row;
}
const currencyDigits = {};
const currencies = Intl.supportedValuesOf("currency");
for (const c of currencies) {
  const d = new Intl.NumberFormat("en", { style: "currency", currency: c }).resolvedOptions().maximumFractionDigits;
  if (d !== 2) currencyDigits[c] = d;
}

// --- plural categories ----------------------------------------------------------------------
const PR = available(Intl.PluralRules);
// the rules themselves: scripts/intl_plural_rules.mjs (tables/pluralrules.json.gz)

// --- lists ----------------------------------------------------------------------------------
const LF = available(Intl.ListFormat);
const lists = {};
for (const tag of LF) {
  const row = {};
  for (const type of ["conjunction", "disjunction", "unit"]) {
    for (const style of ["long", "short", "narrow"]) {
      const lf = new Intl.ListFormat(tag, { type, style });
      const items = ["\u0001", "\u0002", "\u0003", "\u0004", "\u0005"];
      const two = lf.format(items.slice(0, 2));
      const three = lf.format(items.slice(0, 3));
      const four = lf.format(items.slice(0, 4));
      const between = (s, a, b) => s.slice(s.indexOf(a) + 1, s.indexOf(b));
      const seps = [two.slice(0, two.indexOf("\u0001")), between(two, "\u0001", "\u0002"),
        between(four, "\u0001", "\u0002"), between(four, "\u0002", "\u0003"),
        between(three, "\u0002", "\u0003"), two.slice(two.indexOf("\u0002") + 1)];
      const [pre, pair, start, middle, end, post] = seps;
      const five = pre + "\u0001" + start + "\u0002" + middle + "\u0003" + middle + "\u0004" + end + "\u0005" + post;
      // Spanish and Hebrew change a separator by the word after it (y/e, o/u, a hyphen):
      // ctx marks a style where some word changes it
      const words = ["a", "i", "hi", "o", "ho", "8", "11", "x", "\u05d0", "I", "Hie"];
      let ctx = false;
      for (const a of words) for (const b of words) {
        if (lf.format([a, b]) !== pre + a + pair + b + post) ctx = true;
      }
      if (five !== lf.format(items)) seps.length = 0;
      else if (ctx) seps.push("ctx");
      row[`${type}-${style}`] = seps.length ? seps : null;
    }
  }
  lists[tag] = row;
}

// --- dates ----------------------------------------------------------------------------------
const DF = available(Intl.DateTimeFormat);
const REF = Date.UTC(2006, 0, 5, 3, 4, 5);
const PM = Date.UTC(2006, 0, 5, 15, 4, 5);
function datePattern(dtf, digits) {
  const undigit = (s) => [...s].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  return dtf.formatToParts(REF).map((p) => {
    if (p.type === "literal") return p.value;
    if (p.type === "dayPeriod") return ["a"];
    const v = undigit(p.value);
    const width = p.type === "year" ? (v === "06" ? 2 : 0) : (v.length === 2 ? 2 : 0);
    return [p.type, width];
  });
}
const dates = {};
for (const tag of DF) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const digits = [...nf.format(1234567890)];
  const dg = [digits[9], ...digits.slice(0, 9)].join("");
  const hc = new Intl.DateTimeFormat(tag, { hour: "numeric" }).resolvedOptions().hourCycle;
  const opts = (o) => new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...o });
  const am = opts({ hour: "numeric", hour12: true }).formatToParts(REF).find((p) => p.type === "dayPeriod");
  const pm = opts({ hour: "numeric", hour12: true }).formatToParts(PM).find((p) => p.type === "dayPeriod");
  dates[tag] = {
    cal: base.calendar, digits: dg, hc,
    am: am ? am.value : "", pm: pm ? pm.value : "",
    date: datePattern(opts({}), dg),
    time: datePattern(opts({ hour: "numeric", minute: "numeric", second: "numeric" }), dg),
    both: datePattern(opts({ year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }), dg),
  };
}

const skeletonRows = {};
for (const tag of DF) {
  if (new Intl.DateTimeFormat(tag).resolvedOptions().calendar !== "gregory") continue;
  const skip = [];
  for (;;) {
    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--skeletons", tag, ...skip],
      { encoding: "utf8", maxBuffer: 1 << 28 });
    if (child.status === 0) { skeletonRows[tag] = JSON.parse(child.stdout); break; }
    const last = child.stderr.split("\n").filter((l) => l.startsWith("skeleton ")).at(-1);
    skip.push(last.slice("skeleton ".length));
  }
}

// --- collation: which locales sort as the root does -------------------------------------------
const COL = available(Intl.Collator);
// the locales whose collator's defaults are not false/false (da sorts upper case first, th
// ignores punctuation)
const collatorDefaults = {};
for (const tag of COL) {
  const r = new Intl.Collator(tag).resolvedOptions();
  if (r.caseFirst !== "false" || r.ignorePunctuation) collatorDefaults[tag] = [r.caseFirst, r.ignorePunctuation];
}
const pool = [];
for (let c = 0x20; c < 0x250; c++) pool.push(String.fromCodePoint(c));
for (let c = 0x370; c < 0x530; c++) pool.push(String.fromCodePoint(c));
for (const c of ["\u0627", "\u0628", "\u05d0", "\u0915", "\u0e01", "\u3042", "\u4e00", "\u4e8c", "\uac00"]) pool.push(c);
for (const d of ["ch", "Ch", "ll", "aa", "Aa", "dz", "dž", "ny", "cs", "gy", "lj", "nj", "rr", "zs", "sz", "th", "ij", "ae", "oe", "ue"]) pool.push(d);
const rootSorted = [...pool].sort(new Intl.Collator("und").compare);
const rootKey = (cmp) => rootSorted.slice(1).map((c, i) => cmp(rootSorted[i], c)).join("");
const rootOrder = rootKey(new Intl.Collator("und").compare);
const rootCollations = COL.filter((tag) => {
  for (const sensitivity of ["variant", "base"]) {
    const cmp = new Intl.Collator(tag, { sensitivity }).compare;
    const ref = new Intl.Collator("und", { sensitivity }).compare;
    if (rootKey(cmp) !== rootKey(ref)) return false;
  }
  return rootKey(new Intl.Collator(tag).compare) === rootOrder;
});

// root collation: the precomposed letters node weighs as letters of their own (й, أ, ো...),
// not as their base letter and a mark; each is placed right after the letter of its block
// that precedes it (ties in node's order kept), and its decomposed spelling is the same letter
const baseCollator = new Intl.Collator("und", { sensitivity: "base" });
const contractions = [];
for (let cp = 0xa0; cp < 0xf900; cp++) {
  if ((cp >= 0xd800 && cp < 0xe000) || (cp >= 0xac00 && cp <= 0xd7a3)) continue;
  const c = String.fromCharCode(cp);
  const d = c.normalize("NFD");
  if (d === c || d.length < 2 || baseCollator.compare(c, d[0]) === 0) continue;
  const block = cp & ~0xff;
  let pred = null;
  for (let q = block; q < block + 0x100; q++) {
    const p = String.fromCharCode(q);
    if (p.normalize("NFKD") !== p || !/[\p{L}\p{M}]/u.test(p)) continue;
    if (baseCollator.compare(p, c) < 0 && (pred === null || baseCollator.compare(pred, p) < 0)) pred = p;
  }
  contractions.push([cp, pred.charCodeAt(0)]);
}
// ties after one letter, in node's order; a third number says whether it weighs the same as
// the one before it
contractions.sort((a, b) => a[1] - b[1] || baseCollator.compare(String.fromCharCode(a[0]), String.fromCharCode(b[0])));
contractions.forEach((row, i) => {
  const prev = contractions[i - 1];
  row.push(prev && prev[1] === row[1] &&
    baseCollator.compare(String.fromCharCode(prev[0]), String.fromCharCode(row[0])) === 0 ? 1 : 0);
});
// the accents' order at the second level (acute before grave, ring before diaeresis...):
// groups of combining marks, each group weighing the same
const accentCollator = new Intl.Collator("und", { sensitivity: "accent" });
const marks = [];
for (let cp = 0x300; cp < 0x10000; cp++) {
  if (cp >= 0xd800 && cp < 0xe000) continue;
  const m = String.fromCharCode(cp);
  if (!/\p{M}/u.test(m)) continue;
  if (baseCollator.compare("a" + m, "a") !== 0 || accentCollator.compare("a" + m, "a") === 0) continue;
  marks.push(m);
}
marks.sort((x, y) => accentCollator.compare("a" + x, "a" + y));
const markGroups = [];
marks.forEach((m, i) => {
  if (i && accentCollator.compare("a" + marks[i - 1], "a" + m) === 0) markGroups.at(-1).push(m.charCodeAt(0));
  else markGroups.push([m.charCodeAt(0)]);
});
// read by every localeCompare, so kept apart from the larger tables
writeFileSync(new URL("../core/expressions/js/intl/rootorder.json", import.meta.url),
  JSON.stringify({ contractions, marks: markGroups }) + "\n");

// the tailored collations: scripts/intl_collations.mjs

// the skeletons' rows shared: templates, name lists and resolved options pooled, each row seven
// pool indices (-1: none), each locale a list over the sorted skeleton keys of row indices (null:
// its parent's)
function pooled(table) {
  const pool = [], index = new Map();
  const ref = (v) => {
    if (v === null) return -1;
    const k = JSON.stringify(v);
    if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
    return index.get(k);
  };
  const rows = [], rowIndex = new Map();
  const byTag = {};
  for (const [tag, row] of Object.entries(table)) {
    byTag[tag] = {};
    for (const [key, e] of Object.entries(row)) {
      const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e)]);
      if (!rowIndex.has(r)) { rowIndex.set(r, rows.length); rows.push(JSON.parse(r)); }
      byTag[tag][key] = rowIndex.get(r);
    }
  }
  const keys = [...new Set(Object.values(byTag).flatMap((o) => Object.keys(o)))].sort();
  const get = (tag, key) => {
    for (let t = tag; t; t = parentOf(t)) if (t in byTag) return byTag[t][key] ?? -1;
    return -1;
  };
  const tags = {};
  for (const tag of Object.keys(byTag)) {
    const p = parentOf(tag);
    const list = keys.map((k) => { const v = byTag[tag][k] ?? -1; return p && get(p, k) === v ? null : v; });
    if (list.some((v) => v !== null)) tags[tag] = list;
  }
  return { pool, rows, keys, tags };
}

const data = {
  node: process.version, icu: process.versions.icu,
  locales: { number: NF, plural: PR, list: LF, date: DF, collator: COL },
  rootCollations, collatorDefaults,
  numbers: pruned(numbers), compacts: pruned(compacts), currencyDigits, currencies, currencyCommon: CURRENCIES,
  lists: pruned(lists), dates: pruned(dates), skeletons: pooled(pruned(skeletonRows)),
};
// one file per service, each read on that service's first use; gzip without a name or time in
// its header, so the same node writes the same bytes
const FILES = {
  locales: ["node", "icu", "locales", "rootCollations", "currencies", "currencyDigits", "currencyCommon",
    "collatorDefaults"],
  numbers: ["numbers"], compacts: ["compacts"], lists: ["lists"], dates: ["dates"],
  skeletons: ["skeletons"],
};
let total = 0;
for (const [file, keys] of Object.entries(FILES)) {
  const part = Object.fromEntries(keys.map((k) => [k, data[k]]));
  const bytes = gzipSync(JSON.stringify(part), { level: 9 });
  writeFileSync(new URL(`../core/expressions/js/intl/tables/${file}.json.gz`, import.meta.url), bytes);
  total += bytes.length;
}
console.log(`wrote core/expressions/js/intl/tables/: ${total} bytes`);
