// Writes core/expressions/js/intl/tables/units.json.gz: NumberFormat's style "unit" as node
// answers it, for every locale NumberFormat resolves to (tables/locales.json.gz) and each
// unitDisplay (short, narrow, long). A unit's pattern goes around the signed decimal number
// (the decimal style's own parts): for each sanctioned simple unit and each plural category the
// locale has, the text before and after the number. A compound unit X-per-Y is X's pattern
// inside Y's "per" pattern ({1} stands for X's pattern: "{1}/h", "{1} pro Stunde"), except the
// compounds ICU has patterns of its own for (kilometer-per-hour), kept like a simple unit where
// they are not what the "per" pattern makes in some language. A key (display/unit) is kept only where it
// differs from the nearest parent's that has it.
//   node scripts/intl_units.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { nearestParent } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
const UNITS = ["acre", "bit", "byte", "celsius", "centimeter", "day", "degree", "fahrenheit",
  "fluid-ounce", "foot", "gallon", "gigabit", "gigabyte", "gram", "hectare", "hour", "inch",
  "kilobit", "kilobyte", "kilogram", "kilometer", "liter", "megabit", "megabyte", "meter",
  "microsecond", "mile", "mile-scandinavian", "milliliter", "millimeter", "millisecond",
  "minute", "month", "nanosecond", "ounce", "percent", "petabyte", "pound", "second", "stone",
  "terabit", "terabyte", "week", "yard", "year"];
const DISPLAYS = ["short", "narrow", "long"];
const SAMPLES = [1, 2, 3, 5, 11, 21, 0, 1.5, 100, 1000000, 0.5, 22, 6, 7, 0.1, 1.2, 101, 102, 0.2];
const NUMERIC = new Set(["integer", "group", "decimal", "fraction", "minusSign", "plusSign", "nan", "infinity"]);

// the unit's pattern: the text around the decimal number's own parts ({0})
function affixes(tag, unit, display, x) {
  const dec = new Intl.NumberFormat(tag, { maximumFractionDigits: 3 }).formatToParts(x);
  const parts = new Intl.NumberFormat(tag, { style: "unit", unit, unitDisplay: display }).formatToParts(x);
  const key = (ps) => ps.map((p) => `${p.type}\u0001${p.value}`);
  const d = key(dec);
  const u = key(parts);
  const text = (ps) => ps.map((p) => p.value).join("");
  for (let at = 0; at + d.length <= u.length; at++) {
    if (d.every((k, i) => u[at + i] === k)) return text(parts.slice(0, at)) + "{0}" + text(parts.slice(at + d.length));
  }
  if (parts.some((p) => NUMERIC.has(p.type))) throw new Error(`${tag} ${unit} ${display} ${x}: ${text(parts)}`);
  return text(parts);  // a pattern without the number (ar's فدان for one)
}

// a unit's patterns by category: one pattern alone where every category has it
function patterns(tag, unit, display, samples) {
  const byCat = {};
  for (const [c, x] of Object.entries(samples)) byCat[c] = affixes(tag, unit, display, x);
  const vals = Object.values(byCat);
  return vals.every((v) => v === vals[0]) ? vals[0] : byCat;
}
const at = (p, c) => (typeof p === "string" ? p : p[c]);
function samplesOf(tag) {
  const pr = new Intl.PluralRules(tag);
  const samples = {};
  for (const x of SAMPLES) { const c = pr.select(x); if (!(c in samples)) samples[c] = x; }
  return samples;
}
// Y's per pattern, seen through numerators: X's pattern (with the number) found in X-per-Y ({1})
function perPattern(tag, den, display, simple, samples) {
  const found = new Map();
  const [c, x] = Object.entries(samples)[0];
  for (const num of ["bit", "stone", "acre", "byte"]) {
    if (num === den) continue;
    const inner = at(simple[`${display}/${num}`], c);
    const whole = affixes(tag, `${num}-per-${den}`, display, x);
    const i = whole.indexOf(inner);
    if (i < 0 || !inner.includes("{0}")) continue;
    const w = whole.slice(0, i) + "{1}" + whole.slice(i + inner.length);
    found.set(w, (found.get(w) || 0) + 1);
  }
  const best = [...found.entries()].sort((a, b) => b[1] - a[1])[0];
  if (!best) throw new Error(`${tag} ${display} per ${den}`);
  return best[0];
}
// what a compound is without patterns of its own: X's pattern inside Y's per pattern; but
// percent-per-Y short and narrow is percent's own pattern (V8 formats percent apart)
const rule = (row, display, num, den, c) =>
  num === "percent" && display !== "long"
    ? at(row[`${display}/percent`], c)
    : row[`${display}/per/${den}`].replace("{1}", at(row[`${display}/${num}`], c));
const composes = (row, tag, display, num, den, samples) => {
  for (const [c, x] of Object.entries(samples)) {
    if (rule(row, display, num, den, c) !== affixes(tag, `${num}-per-${den}`, display, x)) return false;
  }
  return true;
};
function simpleRow(tag, samples) {
  const row = {};
  for (const display of DISPLAYS) {
    for (const unit of UNITS) row[`${display}/${unit}`] = patterns(tag, unit, display, samples);
    for (const den of UNITS) row[`${display}/per/${den}`] = perPattern(tag, den, display, row, samples);
  }
  return row;
}
// the compounds ICU has patterns of its own for: looked for in each language (every pair)
const OWN = new Set();
for (const tag of locales.filter((t) => !t.includes("-"))) {
  const samples = samplesOf(tag);
  const row = simpleRow(tag, samples);
  for (const display of DISPLAYS) {
    for (const den of UNITS) {
      for (const num of UNITS) {
        if (!composes(row, tag, display, num, den, samples)) OWN.add(`${num}-per-${den}`);
      }
    }
  }
}
// then measured in every locale: kept where it is not what the reader would take (the nearest
// parent's own patterns, else the rule)
const rows = {};
const compoundRows = {};
let compounds = 0;
for (const tag of locales) {
  const samples = samplesOf(tag);
  rows[tag] = simpleRow(tag, samples);
  const own = {};
  for (const display of DISPLAYS) {
    for (const unit of OWN) {
      const [num, den] = unit.split("-per-");
      own[`${display}/${unit}`] = patterns(tag, unit, display, samples);
      own[`${display}/${unit}`] = composes(rows[tag], tag, display, num, den, samples) ? null : own[`${display}/${unit}`];
    }
  }
  compoundRows[tag] = own;
}
// keep a key only where it differs from the nearest parent's that has it
const pruned = {};
for (const tag of locales) {
  const own = {};
  for (const [k, v] of Object.entries(rows[tag])) {
    let p = nearestParent(tag, rows);
    while (p && !(k in rows[p])) p = nearestParent(p, rows);
    if (p && JSON.stringify(rows[p][k]) === JSON.stringify(v)) continue;
    own[k] = v;
  }
  // a compound's own patterns (null: the rule's) where the nearest parent's are not the same
  for (const [k, v] of Object.entries(compoundRows[tag])) {
    let p = nearestParent(tag, rows);
    let inherited = null;
    while (p) {
      if (pruned[p] && k in pruned[p]) { inherited = pruned[p][k]; break; }
      p = nearestParent(p, rows);
    }
    if (JSON.stringify(inherited) === JSON.stringify(v)) continue;
    own[k] = v;
    if (v !== null) compounds++;
  }
  if (Object.keys(own).length) pruned[tag] = own;
}
writeFileSync(new URL("units.json.gz", tables), gzipSync(JSON.stringify({ units: pruned }), { level: 9 }));
console.log(`${Object.keys(pruned).length} locales of their own, ${compounds} compounds of their own: ${[...OWN].join(" ")}`);
