// Writes core/expressions/js/intl/tables/collations.json.gz: for each collator node makes
// that does not sort as flowctx's root collation does (a locale's own tailoring, another
// collation such as de's phonebk, es's trad, zh's zhuyin or eor, the search collations,
// en-US-u-va-posix), each character of a pool (Basic Latin to IPA Extensions) and each of the
// collator's contractions (Czech ch, Spanish trad's ll) gets its rank among the pool sorted at
// each sensitivity and case order: base, accent, case (caseFirst false, upper, lower) and
// variant (the same three). A string of pool characters is then keyed by its characters' ranks,
// level by level, a contraction as one letter, spaces and punctuation dropped where
// ignorePunctuation asks. Each combination of sensitivity, caseFirst and ignorePunctuation is
// kept for a collator only where the model gives node's answer on every digraph against its
// neighbours and on thousands of random strings; the others are refused (expansions such as
// phonebk's ä as ae fail it). The ranks are pooled: a column shared by many collators (eor's in
// most locales) is written once.
//   node scripts/intl_collations.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (f) => JSON.parse(gunzipSync(readFileSync(new URL(`${f}.json.gz`, tables))));
const { locales, rootCollations } = read("locales");
const { collations } = read("extensions");

let seed = 20261207;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

const pool = [];
for (let c = 0x20; c < 0x250; c++) if (c < 0x7f || c > 0x9f) pool.push(String.fromCharCode(c));
// digraphs and trigraphs a collation may weigh as one letter, in each case form: a collator's are
// those that sort after their first letters and a z, or before their own first letters
const DIGRAPHS = ["ch", "aa", "ll", "dz", "dž", "dzs", "cs", "gy", "ly", "ny", "sz", "ty", "zs", "lj",
  "nj", "rr", "ng", "th", "ij", "ddh", "dd", "ff", "ph", "rh", "dh", "gj", "sh", "xh", "zh"].flatMap((d) =>
    [...new Set([d, d[0].toUpperCase() + d.slice(1), d.toUpperCase(), d.slice(0, -1) + d.at(-1).toUpperCase()])]);
const LETTERS = [..."abcdefghijklmnopqrstuvwxyz"];
// every pair of letters and those trigraphs, in each case form: the contractions looked for
const caseForms = (d) =>
  [...new Set([d, d[0].toUpperCase() + d.slice(1), d.toUpperCase(), d.slice(0, -1) + d.at(-1).toUpperCase()])];
const CANDIDATES = [...new Set([...LETTERS.flatMap((x) => LETTERS.map((y) => x + y)),
  "dž", "dzs", "ddh"].flatMap(caseForms))];
// the columns: [sensitivity, caseFirst]
const COLUMNS = [["base", "false"], ["accent", "false"], ["case", "false"], ["case", "upper"],
  ["case", "lower"], ["variant", "false"], ["variant", "upper"], ["variant", "lower"]];
// the combinations checked: [sensitivity, caseFirst, ignorePunctuation] -> the columns keyed
const COMBOS = [];
for (const ip of [false, true]) {
  for (const s of ["base", "accent"]) COMBOS.push([s, "false", ip]);
  for (const s of ["case", "variant"]) for (const cf of ["false", "upper", "lower"]) COMBOS.push([s, cf, ip]);
}
function columnsOf(sensitivity, caseFirst) {
  if (sensitivity === "base") return [0];
  if (sensitivity === "accent") return [0, 1];
  const at = ["false", "upper", "lower"].indexOf(caseFirst);
  return sensitivity === "case" ? [0, 2 + at] : [0, 1, 5 + at];
}

function make(v, extra) {
  return new Intl.Collator(v.locale, { ...v.options, ...extra });
}
function unitsOf(v) {
  const cmp = make(v, { sensitivity: "base" }).compare;
  // after its first letters and any letter (ezh: after z, and no contraction begins with it), or
  // before its own first letters
  const prefix = (d) => d.slice(0, -1);
  return CANDIDATES.filter((d) => cmp(d + "0", prefix(d) + "\u0292\u0292") > 0 || cmp(d + "0", prefix(d)) < 0);
}
function ranks(v, units) {
  const items = [...pool, ...units];
  const out = Object.fromEntries(items.map((c) => [c, []]));
  COLUMNS.forEach(([sensitivity, caseFirst], col) => {
    const cmp = make(v, { sensitivity, caseFirst }).compare;
    const sorted = [...items].sort(cmp);
    let rank = 0;
    sorted.forEach((c, i) => {
      if (i && cmp(sorted[i - 1], c) !== 0) rank++;
      // a character that weighs nothing at this level (th's punctuation): -1
      out[c][col] = cmp(c, "") === 0 ? -1 : rank;
    });
  });
  return out;
}
// the pool's characters the collator weighs as two letters at the first level (ß as ss, phonebk's
// ä as ae, ǆ as dž), each with the spelling its weights follow at each column: at a column where
// it differs from its spelling, an extra weight after its first letter (at either end of the
// column's ranks), or its last letter's weight moved half a rank, whichever gives node's answers
// on the character against its spelling and its neighbours
const SPELLINGS = LETTERS.flatMap((x) => LETTERS.map((y) => x + y)).concat(["dž"]);
function expansionsOf(v, r) {
  const cmp = make(v, { sensitivity: "base" }).compare;
  const items = [...pool.filter((c) => /\p{L}/u.test(c) && !/[a-zA-Z]/.test(c)), ...SPELLINGS];
  const sorted = items.sort(cmp);
  const out = {};
  sorted.forEach((c, i) => {
    if (c.length !== 1) return;
    for (let j = i - 1; j >= 0 && cmp(sorted[j], c) === 0; j--) if (sorted[j].length > 1) out[c] ??= sorted[j];
    for (let j = i + 1; j < sorted.length && cmp(sorted[j], c) === 0; j++) if (sorted[j].length > 1) out[c] ??= sorted[j];
  });
  const found = {};
  for (const [c, tied] of Object.entries(out)) {
    // its compatibility spelling where it has one of two pool letters (ǆ: dž, not dz)
    const compat = c.normalize("NFKD").normalize("NFC");
    const spelled = compat.length === 2 && [...compat].every((x) => x in r) && cmp(c, compat) === 0 ? compat : tied;
    // a letter its spelling's contraction is (Danish å is aa): a letter of its own
    if (tokens(r, spelled, false).length === 1) { delete out[c]; continue; }
    // its case's spelling first (Æ: AE, ǅ: Dž)
    const title = spelled[0].toUpperCase() + spelled.slice(1).toLowerCase();
    const order = c === c.toLowerCase() ? [spelled.toLowerCase(), title, spelled.toUpperCase()]
      : c === c.toUpperCase() ? [spelled.toUpperCase(), title, spelled.toLowerCase()]
        : [title, spelled.toUpperCase(), spelled.toLowerCase()];
    const forms = [...new Set(order)];
    const row = [];
    const family = Object.keys(out).filter((c2) => out[c2].toLowerCase() === tied.toLowerCase());
    // its rank among the letters of its spelling at a column (those it equals there share it)
    const siblingRank = (col) => {
      const colCmp = make(v, { sensitivity: COLUMNS[col][0], caseFirst: COLUMNS[col][1] }).compare;
      return new Set(family.filter((c2) => colCmp(c2, c) < 0).map((c2) => family.find((c3) => colCmp(c3, c2) === 0))).size;
    };
    for (const [col, [sensitivity, caseFirst]] of COLUMNS.entries()) {
      const colCmp = make(v, { sensitivity, caseFirst }).compare;
      const tries = [], bumped = [];
      for (const f of forms) {
        // the spelling's weights, a contraction as one (Danish å is aa)
        const w = tokens(r, f, false).flatMap((x) => weightsOf(r[x] ?? [], col)).map((x) => x ?? -1);
        const d = colCmp(c, f);
        if (d === 0) tries.push(w); // a spelling it weighs as at this column first (Æ as AE)
        // the mark between: after every accent, in the order of the letters of that spelling
        // (phonebk's ä before æ)
        else bumped.push([w[0], d > 0 ? 1e6 + siblingRank(col) : -0.5, ...w.slice(1)],
          [...w.slice(0, -1), w.at(-1) + d / 2]);
      }
      tries.push(...bumped);
      const probes = [];
      for (const x of ["a", "z", "A", ...forms, c, "", "\u00e1", " "]) {
        for (const f of forms) probes.push([c + x, f + x], [c, f + x], [c + x, f], [c + "a", f + x], [c + x, f + "a"], [x + c, x + f]);
      }
      const good = tries.find((w) => {
        const rr = { ...r, [c]: Object.assign([...row, ...r[c].slice(row.length)], { [col]: w }) };
        return probes.every(([a, b]) => modelCompareCol(rr, a, b, col) === colCmp(a, b));
      });
      row.push(good ?? null);
    }
    if (row.every((w) => w !== null)) found[c] = row;
  }
  // each against the others of its spelling (ǽ is æ and an acute: not modelled)
  const model = { ...r, ...found };
  // a letter with an accent of its own (ǽ, ǟ) is left out
  const nfd = (c) => c.normalize("NFD");
  const unmodelled = Object.keys(out).filter((c) => !(c in found) || nfd(c).length > 2 ||
    (nfd(c).length > 1 && nfd(c)[0] in out));
  for (const c of unmodelled) delete found[c];
  for (const c of Object.keys(found)) {
    const others = Object.keys(found).filter((c2) => out[c2].toLowerCase() === out[c].toLowerCase() || c2 === c);
    const probes = others.flatMap((c2) => [[c, c2], [c + "a", c2], [c, c2 + "a"], [c + "b", c2 + "a"]]);
    const ok = COLUMNS.every(([sensitivity, caseFirst], col) => {
      const colCmp = make(v, { sensitivity, caseFirst }).compare;
      return probes.every(([a, b]) => modelCompareCol(model, a, b, col) === colCmp(a, b));
    });
    if (!ok) unmodelled.push(c);
  }
  for (const c of unmodelled) delete found[c];
  return [found, unmodelled.sort()];
}
function weightsOf(t, col) {
  const w = t[col];
  return Array.isArray(w) ? w : [w];
}
function modelCompareCol(r, a, b, col) {
  // one column alone, against a comparator at that column's sensitivity (which compares the
  // levels before it first)
  const ordered = col === 0 ? [0] : col === 1 ? [0, 1] : col <= 4 ? [0, col] : [0, 1, col];
  return modelCompare(r, a, b, ordered, false);
}
let backwards = false;
let blocked = new Set();
// the characters ignorePunctuation drops (spaces and punctuation; measured per collator)
let variable = new Set();
function tokens(r, s, ip, numeric = false) {
  // the longest unit first, as ICU matches contractions
  const out = [];
  for (let i = 0; i < s.length;) {
    if (ip && variable.has(s[i])) { i++; continue; }
    if (numeric && s[i] >= "0" && s[i] <= "9") {
      // a run of digits by its value (leading zeros ignored), where the collator puts numbers
      let end = i;
      while (end < s.length && s[end] >= "0" && s[end] <= "9") end++;
      out.push({ digits: s.slice(i, end).replace(/^0+/, "") || "0" });
      i = end;
      continue;
    }
    const three = s.slice(i, i + 3), two = s.slice(i, i + 2);
    // a letter and the next that the collator keeps apart (Danish aA: aAa is no a and Aa)
    const kept = out.length && out.at(-1).length === 1 && blocked.has(out.at(-1) + s[i]);
    const unit = kept ? s[i] : three.length === 3 && r[three] ? three : two.length === 2 && r[two] ? two : s[i];
    out.push(unit);
    i += unit.length;
  }
  return out;
}
const BAND = 110000;
let numericAt = 0;
function tokenWeights(r, t, col) {
  if (typeof t === "string") return weightsOf(r[t], col);
  const zero = r["0"][col];
  const bands = [t.digits.length, ...[...t.digits].map((d) => 100000 + Number(d))];
  return col === 0 ? [numericAt, ...bands.map((b) => BAND + b)] : [zero, ...bands.map(() => zero)];
}
function modelCompare(r, a, b, cols, ip, numeric = false) {
  const ta = tokens(r, a, ip, numeric), tb = tokens(r, b, ip, numeric);
  for (const col of cols) {
    const x = ta.flatMap((c) => tokenWeights(r, c, col)).filter((w) => w !== -1);
    const y = tb.flatMap((c) => tokenWeights(r, c, col)).filter((w) => w !== -1);
    if (backwards && col === 1) { x.reverse(); y.reverse(); } // fr-CA's accents from the end
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  }
  return 0;
}
const atoms = [...LETTERS, ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ", ...pool, ...pool, ...DIGRAPHS, "ae", "oe", "ue",
  "ss", "ß", "æ", "ø", "å", "ä", "ö", "ü", "ñ", "ç", "ş", "ğ", "ı", "İ", "ǆ", "-", " ", ".", "_", "$", "1", "2"];
const word = () => { let w = ""; for (let k = 1 + rnd(4); k > 0; k--) w += atoms[rnd(atoms.length)]; return w; };
const prefix = (d) => d.slice(0, -1);
const pairs = [];
for (const d of DIGRAPHS) for (const x of ["a", "e", "h", "s", "z", "A", "Z"]) {
  pairs.push([d, d.slice(0, -1) + x], [d + "a", d.slice(0, -1) + x + "a"], [d + "e", d.slice(0, -1) + x]);
}
for (let i = 0; i < 4000; i++) {
  const a = word();
  pairs.push([a, rnd(3) ? word() : a.slice(0, -1) + atoms[rnd(atoms.length)]]);
}
// words whose letters differ by their accents in opposite directions (fr-CA weighs accents from
// the end: cote, côte, coté, côté)
const rootBase = new Intl.Collator("und", { sensitivity: "base" }).compare;
const groups = [];
for (const c of [...pool].sort(rootBase)) {
  if (groups.length && rootBase(groups.at(-1)[0], c) === 0) groups.at(-1).push(c);
  else groups.push([c]);
}
groups.splice(0, groups.length, ...groups.filter((g) => g.length > 1));
for (let i = 0; i < 800; i++) {
  const g = groups[rnd(groups.length)], h = groups[rnd(groups.length)];
  const [x1, x2] = [g[rnd(g.length)], g[rnd(g.length)]], [y1, y2] = [h[rnd(h.length)], h[rnd(h.length)]];
  pairs.push([x1 + y2, x2 + y1], ["c" + x1 + "t" + y2, "c" + x2 + "t" + y1]);
}
// words with runs of digits, for numeric
const NUMBERS = ["0", "1", "2", "9", "02", "10", "007", "123", "1.5", "1.10", "x", "a", "A", "b", " ", ".", "-",
  "_", "$", "~", "é", "ä"];
const numbers = [];
for (let i = 0; i < 1500; i++) {
  const w = () => { let x = ""; for (let k = 1 + rnd(3); k > 0; k--) x += NUMBERS[rnd(NUMBERS.length)]; return x; };
  const a = w();
  numbers.push([a, rnd(2) ? w() : a.slice(0, -1) + NUMBERS[rnd(NUMBERS.length)]]);
}
// every pool character against every other, alone (a cheap check of the ranks themselves)
for (let i = 0; i < 1500; i++) pairs.push([pool[rnd(pool.length)], pool[rnd(pool.length)]]);

// the collators: every locale's own where it is not the root's (and the root's itself, for
// the case orders flowctx's root collation does not reproduce), its search collation, each
// other collation it takes, en-US-u-va-posix
const variants = [{ key: "und", locale: "und", options: {} }];
for (const tag of locales.collator) {
  if (!rootCollations.includes(tag)) variants.push({ key: tag, locale: tag, options: {} });
  variants.push({ key: `${tag}/search`, locale: tag, options: { usage: "search" } });
  for (const [co, taking] of Object.entries(collations)) {
    if (co === "search" || co === "standard") continue;
    if (taking === "*" || taking.includes(tag)) variants.push({ key: `${tag}/${co}`, locale: tag, options: { collation: co } });
  }
}
for (const usage of ["sort", "search"]) {
  variants.push({ key: usage === "sort" ? "en-US-u-va-posix" : "en-US-u-va-posix/search",
    locale: "en-US-u-va-posix", options: { usage } });
}
for (const [co, taking] of Object.entries(collations)) {
  if (co === "search" || co === "standard") continue;
  if (taking === "*" || taking.includes("en-US")) {
    variants.push({ key: `en-US-u-va-posix/${co}`, locale: "en-US-u-va-posix", options: { collation: co } });
  }
}

const columnPool = [], columnIndex = new Map();
const ref = (col) => {
  const k = JSON.stringify(col);
  if (!columnIndex.has(k)) { columnIndex.set(k, columnPool.length); columnPool.push(col); }
  return columnIndex.get(k);
};
const out = {};
let kept = 0;
const seen = new Map();
const only = process.argv[2] ? new RegExp(process.argv[2]) : null;
for (const v of variants) {
  if (only && !only.test(v.key)) continue;
  const units = unitsOf(v);
  const r = ranks(v, units);
  // French accents weighed from the end of the string (cote, côte, coté, côté)
  backwards = make(v, {}).compare("c\u00f4te", "cot\u00e9") < 0;
  const ipCmp = make(v, { ignorePunctuation: true }).compare;
  variable = new Set(pool.filter((c) => ipCmp("a" + c + "b", "ab") === 0));
  // the pairs of letters that keep a contraction from starting at their second (Danish aA)
  blocked = new Set();
  const baseCmp = make(v, { sensitivity: "base" }).compare;
  for (const u of units.filter((d) => d.length === 2)) {
    for (const x of [...LETTERS, ...LETTERS.map((y) => y.toUpperCase())]) {
      const a = x + u, b = x + u[0] + (u[1].toLowerCase() === "z" ? "y" : "z");
      if (modelCompare(r, a, b, [0], false) === baseCmp(a, b)) continue;
      blocked.add(x + u[0]);
      if (modelCompare(r, a, b, [0], false) !== baseCmp(a, b)) blocked.delete(x + u[0]);
    }
  }
  // where numeric puts a run of digits among the pool's characters (en-US-u-va-posix: first)
  const numericBase = make(v, { sensitivity: "base", numeric: true }).compare;
  const before = pool.filter((c) => !/[0-9]/.test(c) && r[c][0] !== -1 && numericBase(c, "0") < 0);
  numericAt = before.length ? Math.max(...before.map((c) => r[c][0])) + 0.5 : -0.5;
  // a collator weighing the pool as one already kept does (eor in most locales) is that one
  const signature = JSON.stringify([backwards, [...blocked], numericAt, [...variable], units, [...pool, ...units].map((c) => r[c])]);
  if (seen.has(signature)) {
    const same = seen.get(signature);
    if (same in out) out[v.key] = same;
    continue;
  }
  seen.set(signature, v.key);
  const [expansions, unmodelled] = expansionsOf(v, r);
  for (const [c, row] of Object.entries(expansions)) r[c] = row;
  // and each of its contractions against its first letters and another letter
  const own = units.flatMap((d) => ["a", "e", "h", "s", "y", "z", "A", "Z"].flatMap((x) =>
    [[d, prefix(d) + x], [d + "a", prefix(d) + x + "a"], [d + "e", prefix(d) + x], [d, d.toLowerCase() + x]]))
    // Hungarian's ccs is cs twice
    .concat(units.filter((d) => d.length === 2).flatMap((d) => [[d[0] + d, d + d], [d[0] + d + "a", d + d + "a"]]));
  // a contraction's last letter with an accent (Hausa's ts in tś) is that contraction and an
  // accent to ICU: not modelled
  const accented = (x) => units.some((u) => {
    for (let i = x.indexOf(prefix(u)); i >= 0; i = x.indexOf(prefix(u), i + 1)) {
      const next = x[i + u.length - 1];
      if (next && next !== u.at(-1) && next.normalize("NFD")[0] === u.at(-1)) return true;
    }
    return false;
  });
  const checked = [...pairs, ...own].filter(([a, b]) => !unmodelled.some((c) => a.includes(c) || b.includes(c)) &&
    !accented(a) && !accented(b));
  let valid = 0;
  COMBOS.forEach(([sensitivity, caseFirst, ignorePunctuation], bit) => {
    const cols = columnsOf(sensitivity, caseFirst);
    for (const numeric of [false, true]) {
      const cmp = make(v, { sensitivity, caseFirst, ignorePunctuation, numeric }).compare;
      const all = numeric ? [...checked, ...numbers] : checked;
      if (all.every(([a, b]) => modelCompare(r, a, b, cols, ignorePunctuation, numeric) === cmp(a, b))) {
        valid += 2 ** (bit + (numeric ? 16 : 0));
      }
    }
  });
  if (process.env.DEBUG) console.log(v.key, valid.toString(2).padStart(16, "0"), units.join(" "), Object.keys(expansions).join(""), unmodelled.join(""), [...blocked].join(" "));
  if (!valid) continue;
  kept++;
  const items = [...pool, ...units];
  const plain = (c, col) => (c in expansions || unmodelled.includes(c) ? -1 : r[c][col]);
  out[v.key] = [units, COLUMNS.map((_, col) => ref(items.map((c) => plain(c, col)))), valid, expansions,
    unmodelled.join(""), backwards ? 1 : 0, [...blocked].sort(), numericAt, [...variable].join("")];
}
const data = { collationRanks: { pool: pool.join(""), columns: columnPool, collators: out } };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("collations.json.gz", tables), bytes);
console.log(`collations: ${kept} of ${variants.length} collators, ${columnPool.length} columns, ${bytes.length} bytes`);
