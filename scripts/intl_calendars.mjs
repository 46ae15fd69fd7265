// Writes core/expressions/js/intl/tables/calendars.json.gz: what node's DateTimeFormat answers in
// the calendars other than the Gregorian that flowctx reproduces: for each locale node has and
// each calendar, the pattern, month, weekday, era and day period names of the styles (dateStyle,
// timeStyle) of scripts/intl_skeleton_sets.mjs (its sets of components too, for the calendars
// measured so before scripts/intl_calendar_parts.mjs measured every set), indexed by the
// calendar's own months and eras (the Chinese calendars' with the names of the cycle's years and
// of the days where a pattern writes them); the start days of the Japanese eras; the Persian years whose
// first day is a day earlier than the 33-year arithmetic rule says. Run with the node whose
// answers flowctx reproduces:
//   node scripts/intl_calendars.mjs [CALENDAR...]
// (with calendars named, only those are measured again, the table's others kept).
// Every row is rebuilt here from its data and kept only where the rebuilt text equals node's on
// sixteen dates (scripts/intl_calendar_rows.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SKELETONS } from "./intl_skeleton_sets.mjs";
import { DAY, calendarRow, digitsOf, erasOf, fieldsOf, monthsOf, rebuild } from "./intl_calendar_rows.mjs";

const CALENDARS = ["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla", "coptic",
  "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura", "iso8601",
  "chinese", "dangi"];
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);

let seed = 7;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

// --- one locale's rows in one calendar (a child process, as node aborts on a few patterns) ----
// the styles only: scripts/intl_calendar_parts.mjs measures every set of components
function rowsOf(tag, cal, skip) {
  const digits = digitsOf(tag);
  const out = {};
  for (const [key, opts] of Object.entries(SKELETONS)) {
    if (skip.includes(key) || !key.includes("Style")) continue;
    process.stderr.write(`skeleton ${key}\n`);
    const row = calendarRow(tag, cal, opts, digits);
    let ok = true;
    for (let i = 0; i < 16 && ok; i++) {
      const t = Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60));
      if (rebuild(row, t, cal, digits) !== row.f.formatToParts(t).map((p) => p.value).join("")) ok = false;
    }
    delete row.f;
    if (ok) out[key] = row;
  }
  return out;
}

if (process.argv[2] === "--rows") {
  const [tag, cal, calFile, ...skip] = process.argv.slice(3);
  const rows = rowsOf(tag, { name: cal, ...JSON.parse(readFileSync(calFile, "utf8"))[cal] }, skip);
  process.stdout.write(JSON.stringify(rows), () => process.exit(0));
  await new Promise(() => {});
}

// --- the whole table ------------------------------------------------------------------------
// the locales whose Gregorian patterns differ from their parent's (the Gregorian tables' own
// tags) and those whose own calendar is another: a locale whose Gregorian patterns are its
// parent's has its parent's patterns in the other calendars too
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const locales = read("locales.json.gz").locales.date.filter((tag) =>
  tag in read("skeletons.json.gz").skeletons.tags || tag in read("dates.json.gz").dates
  || new Intl.DateTimeFormat(tag).resolvedOptions().calendar !== "gregory");
const RUN = process.argv.length > 2 ? process.argv.slice(2) : [...CALENDARS, "gregory"];
const eraTable = Object.fromEntries(RUN.map((c) => [c, erasOf(c)]));
for (const [cal, { eras }] of Object.entries(eraTable)) {
  if (new Set(eras).size !== eras.length) throw new Error(`two eras of ${cal} share a name`);
}
const calTable = Object.fromEntries(RUN.map((c) => [c, { months: monthsOf(c), eras: eraTable[c] }]));
const eraFile = join(tmpdir(), `intl_calendars_eras_${process.pid}.json`);
writeFileSync(eraFile, JSON.stringify(calTable));

function child(tag, cal, skip) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--rows", tag, cal, eraFile, ...skip]);
    let err = "";
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.stderr.on("data", (b) => { err += b; });
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8"), err }));
  });
}
async function measure(tag, cal) {
  const skip = [];
  for (;;) {
    const { code, out, err } = await child(tag, cal, skip);
    if (code === 0) return JSON.parse(out);
    const last = err.split("\n").filter((l) => l.startsWith("skeleton ")).at(-1);
    if (!last) throw new Error(`${tag} ${cal}: ${err.slice(0, 300)}`);
    skip.push(last.slice("skeleton ".length));
  }
}
// and the Gregorian rows of the locales whose own calendar is another (th, fa...), which
// scripts/intl_data.mjs leaves out
const jobs = [];
for (const cal of RUN) {
  for (const tag of locales) {
    const own = new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
    if (cal === "gregory" && own === "gregory") continue;
    jobs.push([cal, tag, own === cal ? tag : `${tag}-u-ca-${cal}`]);
  }
}
const measured = Object.fromEntries(RUN.map((c) => [c, {}]));
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const [cal, tag, asked] = jobs[next++];
    measured[cal][tag] = await measure(asked, cal);
  }
}
await Promise.all([worker(), worker(), worker()]);

const parentOf = (tag) => {
  const parts = tag.split("-");
  return parts.length > 1 ? parts.slice(0, -1).join("-") : null;
};
// rows shared as scripts/intl_data.mjs shares the Gregorian ones: pooled, each locale a list over
// the sorted keys of row indices (-1: none, null: its parent's)
function pooled(byCalendar, base) {
  const pool = [...(base?.pool ?? [])], index = new Map(pool.map((v, i) => [JSON.stringify(v), i]));
  const ref = (v) => {
    if (v === null) return -1;
    const k = JSON.stringify(v);
    if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
    return index.get(k);
  };
  const rows = [...(base?.rows ?? [])], rowIndex = new Map(rows.map((v, i) => [JSON.stringify(v), i]));
  const keys = Object.keys(SKELETONS).sort();
  const calendars = { ...(base?.calendars ?? {}) };
  for (const [cal, byTag] of Object.entries(byCalendar)) {
    const indexed = {};
    for (const [tag, row] of Object.entries(byTag)) {
      indexed[tag] = keys.map((k) => {
        const e = row[k];
        if (e === undefined) return -1;
        // (the Chinese calendars' names of the cycle's years and of the days after a zone's place)
        const more = e.yn || e.dn ? [-1, ref(e.yn ?? null), ref(e.dn ?? null)] : [];
        const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e), ...more]);
        if (!rowIndex.has(r)) { rowIndex.set(r, rows.length); rows.push(JSON.parse(r)); }
        return rowIndex.get(r);
      });
    }
    const get = (tag, at) => {
      for (let t = tag; t; t = parentOf(t)) if (t in indexed) return indexed[t][at];
      return -1;
    };
    const tags = {};
    for (const tag of Object.keys(indexed)) {
      const p = parentOf(tag);
      const list = indexed[tag].map((v, at) => (p && get(p, at) === v ? null : v));
      if (list.some((v) => v !== null)) tags[tag] = list;
    }
    calendars[cal] = tags;
  }
  return { pool, rows, keys, calendars };
}

// the Persian years whose first day is a day before the arithmetic rule's (ICU corrects the
// 33-year cycle for a range of years); every other year's first day checked to be the rule's
const persianStart = (y) => 365 * (y - 1) + Math.floor((8 * y + 21) / 33) + 1948320 - 2440588;
const isFirst = (d) => { const f = fieldsOf("persian", d * DAY); return f.month === "1" && f.day === 1; };
const persianEarlier = [];
for (let y = -272443; y <= 275140; y++) {
  const s = persianStart(y);
  if (Math.abs(s) > 1e8) continue;
  if (isFirst(s)) continue;
  if (!isFirst(s - 1)) throw new Error(`the Persian year ${y} starts neither on the rule's day nor the day before`);
  persianEarlier.push(y);
}

const base = process.argv.length > 2 ? read("calendars.json.gz") : {};
const counted = RUN.filter((c) => c !== "gregory");
const data = {
  calendarSkeletons: pooled(measured, base.calendarSkeletons),
  // each era's day found first and the era's year on it
  calendarEras: { ...base.calendarEras, ...Object.fromEntries(counted.map((c) => [c, eraTable[c].days])) },
  calendarEraYears: { ...base.calendarEraYears,
    ...Object.fromEntries(counted.map((c) => [c, eraTable[c].days.map((d) => fieldsOf(c, d * DAY).year)])) },
  persianEarlier,
};
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("calendars.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/calendars.json.gz: ${bytes.length} bytes`);
