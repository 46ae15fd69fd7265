// Writes core/expressions/js/intl/tables/pluralrules.json.gz: the CLDR plural rules (cardinal and
// ordinal) node's ICU selects with, for each locale node's PluralRules resolves to (the list
// scripts/intl_data.mjs measured, tables/locales.json.gz). The rule texts come from the CLDR
// release node's ICU was built on (the cldr-core package of that version, node's
// process.versions.cldr), and each locale's rule set is kept only after it gave node's own
// Intl.PluralRules answer for every number of a large sample: integers, millions, and 1 to 8
// fraction digits with and without trailing zeros. A locale whose rules disagree stops the script.
//   npm install cldr-core@<process.versions.cldr>.x   (in a scratch folder)
//   CLDR_CORE=<that folder>/node_modules/cldr-core node scripts/intl_plural_rules.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { join } from "node:path";

const root = process.env.CLDR_CORE;
if (!root) throw new Error("set CLDR_CORE to the cldr-core package folder");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
if (!pkg.version.startsWith(process.versions.cldr.split(".")[0] + ".")) {
  throw new Error(`cldr-core ${pkg.version} is not node's CLDR ${process.versions.cldr}`);
}
const sets = {
  cardinal: JSON.parse(readFileSync(join(root, "supplemental/plurals.json"))).supplemental["plurals-type-cardinal"],
  ordinal: JSON.parse(readFileSync(join(root, "supplemental/ordinals.json"))).supplemental["plurals-type-ordinal"],
};
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.plural;

// --- the rule language (UTS #35 plural rules), as flowctx's plural.py reads it ----------------
function operands(digits) {
  // digits: the number as shown, "-"-less, e.g. "1.50" or "1000000"; e: its compact exponent
  const [whole, fraction = ""] = digits.split(".");
  const t = fraction.replace(/0+$/, "");
  return {
    n: Number(digits), i: Number(whole), v: fraction.length, w: t.length,
    f: Number(fraction || "0"), t: Number(t || "0"), e: 0, c: 0,
  };
}
function holds(condition, o) {
  return condition.split(" or ").some((and) => and.split(" and ").every((rel) => {
    const m = rel.trim().match(/^([nivwftec])(?:\s*%\s*(\d+))?\s*(!=|=)\s*(.+)$/);
    if (!m) throw new Error(`rule ${rel}`);
    let x = o[m[1]];
    if (m[2]) x = x % Number(m[2]);
    const hit = m[4].split(",").some((r) => {
      const [lo, hi] = r.trim().split("..").map(Number);
      return hi === undefined ? x === lo : Number.isInteger(x) && x >= lo && x <= hi;
    });
    return m[3] === "=" ? hit : !hit;
  }));
}
const ORDER = ["zero", "one", "two", "few", "many"];
function rulesOf(cldr) {
  const out = {};
  for (const cat of ORDER) {
    const text = cldr[`pluralRule-count-${cat}`];
    if (text !== undefined) out[cat] = text.split("@")[0].trim();
  }
  return out;
}
function select(rules, digits) {
  const o = operands(digits);
  for (const [cat, cond] of Object.entries(rules)) if (cond && holds(cond, o)) return cat;
  return "other";
}

// --- the sample every locale's rules must answer as node does -----------------------------------
let seed = 11;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const samples = [];
for (let i = 0; i <= 1200; i++) samples.push([i, 0]);
for (const i of [2000, 10000, 100000, 1000000, 2000000, 1000001, 10000000, 1e9, 123456789]) samples.push([i, 0]);
for (let k = 0; k < 300; k++) samples.push([rnd(1e7), 0]);
for (let v = 1; v <= 8; v++) {
  for (let k = 0; k < 260; k++) {
    const i = [rnd(30), 100 + rnd(30), 1000 + rnd(30), rnd(1e6)][rnd(4)];
    let f = rnd(10 ** v);
    if (k % 5 === 0) f = rnd(10) * 10 ** Math.max(v - 1, 0);
    if (k % 7 === 0) f = rnd(Math.min(30, 10 ** v));
    samples.push([i, v, String(f).padStart(v, "0")]);
  }
}

const ruleTexts = [];
const byLocale = { cardinal: {}, ordinal: {} };
const failures = [];
for (const type of ["cardinal", "ordinal"]) {
  for (const tag of locales) {
    let key = tag;
    while (!(key in sets[type]) && key.includes("-")) key = key.slice(0, key.lastIndexOf("-"));
    // a language CLDR gives no rules has "other" alone (the root's)
    const rules = key in sets[type] ? rulesOf(sets[type][key]) : {};
    const plain = new Intl.PluralRules(tag, { type });
    const cats = plain.resolvedOptions().pluralCategories;
    const fixed = {};
    let bad = null;
    for (const [i, v, f] of samples) {
      const digits = v ? `${i}.${f}` : String(i);
      fixed[v] ??= new Intl.PluralRules(tag, { type, minimumFractionDigits: v, maximumFractionDigits: v });
      const got = fixed[v].select(Number(digits));
      if (got !== select(rules, digits)) { bad = `${digits} (v=${v} f=${f}): node ${got}, rules ${select(rules, digits)}`; break; }
    }
    const listed = ["zero", "one", "two", "few", "many", "other"].filter((c) => c in rules || c === "other");
    if (!bad && JSON.stringify([...cats].sort()) !== JSON.stringify([...listed].sort())) bad = `categories ${cats}`;
    if (bad) { failures.push(`${type} ${tag} (${key}): ${bad}`); continue; }
    const text = JSON.stringify([rules, cats]);
    let index = ruleTexts.indexOf(text);
    if (index < 0) { ruleTexts.push(text); index = ruleTexts.length - 1; }
    byLocale[type][tag] = index;
  }
}
if (failures.length) { console.error(failures.join("\n")); process.exit(1); }

// a locale is kept only where its rules differ from its parent's (de-CH reads de's)
const pruned = (rows) => Object.fromEntries(Object.entries(rows).filter(([tag, i]) => {
  let parent = tag;
  while (parent.includes("-")) {
    parent = parent.slice(0, parent.lastIndexOf("-"));
    if (parent in rows) return rows[parent] !== i;
  }
  return true;
}));
const out = {
  pluralRules: ruleTexts.map((t) => JSON.parse(t)),
  pluralRuleSets: { cardinal: pruned(byLocale.cardinal), ordinal: pruned(byLocale.ordinal) },
};
writeFileSync(new URL("pluralrules.json.gz", tables), gzipSync(JSON.stringify(out), { level: 9 }));
console.log(`${ruleTexts.length} rule sets, ${samples.length} numbers checked per locale and type`);
