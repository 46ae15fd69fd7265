// Writes core/expressions/js/intl/tables/dateranges.json.gz: Intl.DateTimeFormat's formatRangeToParts
// for the option sets people write (the styles, the default forms, common sets of components),
// in each locale whose own calendar is the Gregorian: for each greatest differing field (year,
// month, day, am/pm, hour, minute, second, millisecond) ICU's interval pattern as a template of
// parts, each with its source (startRange, endRange, shared), the fields' names taken from the
// set's own row (tables/skeletons). A template is kept only where it rebuilds node's parts on
// each hour's pair and 6 random pairs of instants that differ first in that field (an interval's
// own day periods, where they are not the row's, kept beside it). Run with the node flowctx
// reproduces:
//   node scripts/intl_date_ranges.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { skeletonRow, rebuild } from "./intl_date_rows.mjs";
import { skeletonKey } from "./intl_skeleton_sets.mjs";

let seed = 31;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

const SETS = [{}, { dateStyle: "full" }, { dateStyle: "long" }, { dateStyle: "medium" }, { dateStyle: "short" },
  { timeStyle: "medium" }, { timeStyle: "short" },
  ...["full", "long", "medium", "short"].flatMap((dateStyle) => ["medium", "short"].map((timeStyle) => ({ dateStyle, timeStyle }))),
  { year: "numeric", month: "long", day: "numeric" }, { year: "numeric", month: "short", day: "numeric" },
  { year: "numeric", month: "2-digit", day: "2-digit" }, { month: "long", day: "numeric" }, { month: "short", day: "numeric" },
  { weekday: "long", year: "numeric", month: "long", day: "numeric" }, { weekday: "short", month: "short", day: "numeric" },
  { weekday: "long" }, { month: "long" }, { month: "short", year: "numeric" }, { month: "long", year: "numeric" },
  { year: "numeric" }, { day: "numeric" },
  { hour: "2-digit", minute: "2-digit" }, { hour: "numeric", minute: "2-digit" }, { hour: "numeric" },
  { hour: "numeric", minute: "2-digit", hour12: true }, { hour: "2-digit", minute: "2-digit", hour12: false },
  { hour: "numeric", minute: "2-digit", second: "2-digit" },
  { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" },
  { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  { weekday: "short", hour: "numeric", minute: "2-digit" },
  // zones' names (offsets, UTC's names) and day periods
  { timeZoneName: "short" }, { timeZoneName: "shortOffset" }, { timeZoneName: "longOffset" },
  { hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  { hour: "numeric", minute: "2-digit", timeZoneName: "shortOffset" },
  { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "shortOffset" },
  { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "longOffset" },
  { year: "numeric", month: "long", day: "numeric", timeZoneName: "shortGeneric" },
  { hour: "numeric", minute: "2-digit", dayPeriod: "short" }, { dayPeriod: "long" },
  { hour: "numeric", dayPeriod: "narrow" },
  // the other styles, each style with the hour12 option, single fields and a few more sets
  { timeStyle: "full" }, { timeStyle: "long" },
  ...["full", "long", "medium", "short"].flatMap((dateStyle) => ["full", "long"].map((timeStyle) => ({ dateStyle, timeStyle }))),
  ...[true, false].flatMap((hour12) => [{ timeStyle: "short", hour12 }, { timeStyle: "medium", hour12 },
    { dateStyle: "short", timeStyle: "short", hour12 }, { dateStyle: "medium", timeStyle: "short", hour12 }]),
  { weekday: "short" }, { weekday: "narrow" }, { month: "numeric" }, { month: "2-digit" }, { month: "short" },
  { month: "narrow" }, { year: "2-digit" }, { day: "2-digit" }, { minute: "2-digit" }, { minute: "numeric" },
  { second: "2-digit" }, { second: "numeric" }, { hour: "2-digit" },
  { month: "numeric", day: "numeric" }, { year: "numeric", month: "numeric" }, { year: "numeric", month: "2-digit" },
  { weekday: "long", month: "long", day: "numeric" }, { weekday: "short", year: "numeric", month: "short", day: "numeric" },
  { hour: "2-digit", minute: "2-digit", second: "2-digit" }, { hour: "numeric", minute: "numeric" },
  { era: "short" }, { era: "long" }, { year: "numeric", era: "short" },
];
// the greatest differing field's level (ICU's order) and the calendar fields each changes
const LEVELS = [[10, "year"], [20, "month"], [30, "day"], [40, "ampm"], [50, "hour"], [60, "minute"], [70, "second"], [80, "ms"]];
const A = [2006, 0, 5, 3, 4, 5, 6];
const B = { 10: [2007, 5, 17, 15, 34, 45, 600], 20: [2006, 5, 17, 15, 34, 45, 600], 30: [2006, 0, 17, 15, 34, 45, 600],
  40: [2006, 0, 5, 15, 34, 45, 600], 50: [2006, 0, 5, 9, 34, 45, 600], 60: [2006, 0, 5, 3, 34, 45, 600],
  70: [2006, 0, 5, 3, 4, 45, 600], 80: [2006, 0, 5, 3, 4, 5, 600] };
const at = (f) => Date.UTC(...f);
// a random pair differing first at a level: the same fields above it, others drawn
function pair(level) {
  const f = [1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), rnd(1000)];
  const g = [...f];
  const i = { 10: 0, 20: 1, 30: 2, 40: 3, 50: 3, 60: 4, 70: 5, 80: 6 }[level];
  for (let k = i; k < 7; k++) g[k] = [1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), rnd(1000)][k];
  if (level === 40) g[3] = f[3] < 12 ? 12 + rnd(12) : rnd(12);
  if (level === 50) g[3] = f[3] < 12 ? rnd(12) : 12 + rnd(12);
  if (g[i] === f[i] || (level === 50 && g[3] === f[3])) g[i === 3 ? 3 : i] = (f[i] + 1) % [3000, 12, 29, 24, 60, 60, 1000][i] || 1;
  if (level === 50 && (g[3] < 12) !== (f[3] < 12)) g[3] = f[3] < 12 ? (f[3] + 1) % 12 : 12 + ((f[3] + 1) % 12);
  return [at(f), at(g)];
}

function rangesOf(tag, only = null) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)].join("");
  const undigit = (v) => [...v].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  const out = {};
  for (const set of only === null ? SETS : [SETS[only]]) {
    // a set whose row cannot rebuild a field (fi's month name in a range of a month alone) is
    // left out, not the locale
    try { out[skeletonKey(set)] = rangesOfSet(tag, set, digits, undigit); } catch { /* left out */ }
  }
  return out;
}

function rangesOfSet(tag, set, digits, undigit) {
  const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...set });
  const row = skeletonRow(tag, set, digits);
  const levels = {};
  for (const [level] of LEVELS) {
    const parts = f.formatRangeToParts(at(A), at(B[level]));
    if (parts.every((p) => p.source === "shared")) continue;  // the pattern ignores the field
    const widths = {};
    const tpl = parts.map((p) => {
      if (p.type === "literal") return [p.value, p.source];
      if (["weekday", "dayPeriod", "era"].includes(p.type)) return [[p.type, "t"], p.source];
      const v = undigit(p.value);
      if (!/^[0-9]+$/.test(v)) return [[p.type, "t"], p.source];
      if (p.source !== "endRange" || !(p.type in widths)) widths[p.type] = v.length === 2 && (p.type !== "year" || v === "06" || v === "07") ? 2 : 0;
      return [[p.type, widths[p.type]], p.source];
    });
    // the day periods of an interval pattern may be another field's (zh-Hant's flexible
    // periods beside a single date's am/pm): measured at each hour where they are not the row's
    const shift = (h) => {
      const g = [2006, 0, 5, h, 4, 5, 6];
      const b = [...g];
      if (level === 10) b[0]++; else if (level === 20) b[1]++; else if (level === 30) b[2]++;
      else if (level === 40) b[3] = h < 12 ? h + 12 : h - 12; else if (level === 50) b[3] = h % 12 === 11 ? h - 1 : h + 1;
      else if (level === 60) b[4] += 20; else if (level === 70) b[5] += 20; else b[6] += 100;
      return [at(g), at(b)];
    };
    let periods = null;
    if (tpl.some(([p]) => Array.isArray(p) && p[0] === "dayPeriod")) {
      const seen = Array.from({ length: 24 }, (_, h) => {
        const part = f.formatRangeToParts(...shift(h)).find((p) => p.type === "dayPeriod" && p.source !== "endRange");
        return part ? part.value : "";
      });
      if (JSON.stringify(seen) !== JSON.stringify(row.dp)) periods = seen;
    }
    const rowOf = periods ? { ...row, dp: periods } : row;
    const rebuildWith = (tpl2, t1, t2) => tpl2.map(([p, s]) => ({ value: typeof p === "string" ? p : rebuild({ ...rowOf, t: [p], tm: null }, s === "endRange" ? t2 : t1, digits), source: s }));
    let ok = true;
    // every hour once (the day periods), then 6 random pairs
    for (let i = 0; i < 30 && ok; i++) {
      const [t1, t2] = i < 24 ? shift(i) : pair(level);
      const want = f.formatRangeToParts(t1, t2).map((p) => ({ value: p.value, source: p.source }));
      ok = JSON.stringify(rebuildWith(tpl, t1, t2)) === JSON.stringify(want);
    }
    levels[level] = ok ? (periods ? { t: tpl, dp: periods } : tpl) : null;
  }
  return levels;
}

if (process.argv[2] === "--ranges") {
  const only = process.argv[4] === undefined ? null : Number(process.argv[4]);
  process.stdout.write(JSON.stringify(rangesOf(process.argv[3], only)), () => process.exit(0));
  await new Promise(() => {});
}
if (process.argv[2] === "--check") {
  const r = rangesOf(process.argv[3]);
  let kept = 0, refused = 0;
  for (const levels of Object.values(r)) for (const t of Object.values(levels)) (t ? kept++ : refused++);
  console.log(JSON.stringify(r["dateStyle=medium"]), kept, refused);
  process.exit(0);
}

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const skeletonTags = read("skeletons.json.gz").skeletons.tags;
const dateRows = read("dates.json.gz").dates;
const locales = read("locales.json.gz").locales.date.filter((tag) =>
  (tag in skeletonTags || tag in dateRows) && new Intl.DateTimeFormat(tag).resolvedOptions().calendar === "gregory");
function child(tag, only = null) {
  return new Promise((resolve) => {
    const args = [fileURLToPath(import.meta.url), "--ranges", tag, ...(only === null ? [] : [String(only)])];
    const p = spawn(process.execPath, args);
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8") }));
  });
}
const measured = {};
const aborted = [];
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    const { code, out } = await child(tag);
    if (code === 0) { measured[tag] = JSON.parse(out); continue; }
    // node itself aborts on some sets (sc's year and month: V8's "unreachable code"): each
    // set alone, those left out
    const one = {};
    for (let i = 0; i < SETS.length; i++) {
      const r = await child(tag, i);
      if (r.code === 0) Object.assign(one, JSON.parse(r.out));
    }
    if (Object.keys(one).length) measured[tag] = one;
    else aborted.push(tag);
  }
}
await Promise.all([worker(), worker()]);

// pooled templates; each locale's map of key -> [level, template index] pairs, kept where it
// differs from its parent's (-1: measured and refused)
const pool = [], index = new Map();
const ref = (v) => {
  if (v === null) return -1;
  const k = JSON.stringify(v);
  if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
  return index.get(k);
};
const encoded = {};
for (const [tag, m] of Object.entries(measured)) {
  encoded[tag] = Object.fromEntries(Object.entries(m).map(([k, levels]) =>
    [k, Object.fromEntries(Object.entries(levels).map(([l, t]) => [l, ref(t)]))]));
}
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
const tags = {};
for (const [tag, e] of Object.entries(encoded)) {
  let p = parentOf(tag);
  while (p && !(p in encoded)) p = parentOf(p);
  const own = p ? Object.fromEntries(Object.entries(e).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(encoded[p][k]))) : e;
  if (Object.keys(own).length) tags[tag] = own;
}
const data = { dateRanges: { pool, tags }, dateRangesAborted: aborted };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("dateranges.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/dateranges.json.gz: ${bytes.length} bytes; ${Object.keys(measured).length} locales; aborted ${aborted.join(" ") || "none"}`);
