// Writes core/expressions/js/intl/tables/calendars.json.gz: what node's DateTimeFormat answers in
// the calendars other than the Gregorian that flowctx reproduces (japanese, persian, buddhist,
// roc): for each locale node has and each calendar, the pattern, month, weekday, era and day
// period names of every option set of scripts/intl_skeleton_sets.mjs, indexed by the calendar's
// own month and era; the start days of the Japanese eras; the Persian years whose first day is a
// day earlier than the 33-year arithmetic rule says. Run with the node whose answers flowctx
// reproduces:
//   node scripts/intl_calendars.mjs [CALENDAR...]
// (with calendars named, only those are measured again, the table's others kept).
// Every row is rebuilt here from its data and kept only where the rebuilt text equals node's on
// a few hundred dates; the calendar's fields of those dates are node's own (an English formatter
// in that calendar with Latin digits).
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SKELETONS } from "./intl_skeleton_sets.mjs";

const CALENDARS = ["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla"];
const DAY = 86400000;
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);

let seed = 7;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

// node's own fields of a time in a calendar: era (its English short name), year, month, day
const helpers = {};
function fieldsOf(cal, t) {
  helpers[cal] ??= new Intl.DateTimeFormat(`en-u-ca-${cal}-nu-latn`,
    { timeZone: "UTC", era: "short", year: "numeric", month: "numeric", day: "numeric" });
  const parts = helpers[cal].formatToParts(t);
  const get = (k) => parts.find((p) => p.type === k)?.value;
  return { era: get("era"), year: Number(get("year").replace("\u2212", "-").replace(/^-/, "-")),
    month: Number(get("month")), day: Number(get("day")) };
}

// the calendar's eras in order, each with a day that falls in it (the first day found of it)
function erasOf(cal) {
  const eras = [], days = [];
  const see = (d) => {
    const e = fieldsOf(cal, d * DAY).era;
    if (!eras.includes(e)) { eras.push(e); days.push(d); }
    return e;
  };
  const yearly = (from, to) => {
    for (let y = from; y <= to; y += 1000) see(Math.floor((y - 1970) * 365.2425));
  };
  yearly(-270000, -1000);
  // day by day where eras change (the Japanese ones from 645, the Republic of China's 1912)
  let last = see(-500000);
  for (let d = -500000; d <= 25000; d++) {
    const e = fieldsOf(cal, d * DAY).era;
    if (e !== last) { see(d); last = e; }
  }
  yearly(3000, 270000);
  return { eras, days };
}

// --- one locale's rows in one calendar (a child process, as node aborts on a few patterns) ----
function rowsOf(tag, cal, eraDays, eraNames, skip) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)].join("");
  const undigit = (v) => [...v].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  // a day 5 of each month of the calendar, at 03:04:05, in a year of 2023-2024
  const monthDays = [];
  for (let d = Date.UTC(2023, 0, 1) / DAY, found = 0; found < 12; d++) {
    const f = fieldsOf(cal, d * DAY);
    if (f.day === 5 && monthDays[f.month - 1] === undefined) { monthDays[f.month - 1] = d; found++; }
  }
  const out = {};
  for (const [key, opts] of Object.entries(SKELETONS)) {
    if (skip.includes(key)) continue;
    process.stderr.write(`skeleton ${key}\n`);
    const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...opts });
    const templateAt = (t) => {
      const own = fieldsOf(cal, t);
      return f.formatToParts(t).map((p) => {
        if (p.type === "literal") return p.value;
        if (p.type === "weekday" || p.type === "dayPeriod" || p.type === "era") return [p.type, "t"];
        const v = undigit(p.value);
        if (!/^[0-9]+$/.test(v)) return [p.type, "t"];
        if (p.type === "year") return [p.type, v === String(own.year) ? 0 : 2];
        return [p.type, v.length === 2 && Number(v) < 10 ? 2 : 0];
      });
    };
    const templates = monthDays.map((d) => JSON.stringify(templateAt(d * DAY + 11045000)));
    const name = (t, type) => f.formatToParts(t).find((p) => p.type === type)?.value ?? "";
    const months = monthDays.map((d) => name(d * DAY + 11045000, "month"));
    const weekdays = [];
    for (let d = 1; d <= 7; d++) weekdays.push(name(Date.UTC(2006, 0, d, 3, 4, 5), "weekday"));
    const periods = [];
    for (let h = 0; h < 24; h++) periods.push(name(Date.UTC(2006, 0, 5, h, 4, 5), "dayPeriod"));
    const hasEra = templates[0].includes('["era","t"]');
    const eras = hasEra ? eraDays.map((d) => name(d * DAY + 11045000, "era")) : [];
    const r = f.resolvedOptions();
    const resolved = {};
    for (const k of ["hourCycle", "hour12", "weekday", "era", "year", "month", "day", "dayPeriod", "hour",
      "minute", "second", "dateStyle", "timeStyle"]) if (k in r) resolved[k] = r[k];
    const same = templates.every((t) => t === templates[0]);
    const row = {
      t: JSON.parse(templates[0]), tm: same ? null : templates.map((t) => JSON.parse(t)),
      m: months.some((m) => m && !/^[0-9]+$/.test(undigit(m))) ? months : null,
      w: weekdays.some((w) => w) ? weekdays : null,
      dp: periods.some((p) => p) ? periods : null, r: resolved, e: hasEra ? eras : null,
    };
    let ok = true;
    for (let i = 0; i < 16 && ok; i++) {
      const t = Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60));
      if (rebuild(row, t, cal, eraNames, digits) !== f.formatToParts(t).map((p) => p.value).join("")) ok = false;
    }
    if (ok) out[key] = row;
  }
  return out;
}

function rebuild(row, t, cal, eraNames, digits) {
  const d = new Date(t);
  const own = fieldsOf(cal, t);
  const h = d.getUTCHours();
  const hour = { h12: h % 12 || 12, h11: h % 12, h23: h, h24: h || 24 }[row.r.hourCycle] ?? h;
  const values = { year: own.year, month: own.month, day: own.day, hour, minute: d.getUTCMinutes(),
    second: d.getUTCSeconds() };
  const tpl = row.tm ? row.tm[own.month - 1] : row.t;
  const nd = (s) => s.replace(/[0-9]/g, (c) => digits[Number(c)]);
  return tpl.map((p) => {
    if (typeof p === "string") return p;
    const [name, width] = p;
    if (name === "weekday") return row.w[d.getUTCDay()];
    if (name === "dayPeriod") return row.dp[h];
    if (name === "era") return row.e[eraNames.indexOf(own.era)];
    if (name === "month" && width === "t") return row.m[own.month - 1];
    const n = values[name];
    if (n === undefined) return "?";
    if (name === "year" && width === 2) return nd(String(n % 100).padStart(2, "0"));
    return nd(width === 2 ? String(n).padStart(2, "0") : String(n));
  }).join("");
}

if (process.argv[2] === "--rows") {
  const [tag, cal, eraFile, ...skip] = process.argv.slice(3);
  const { eras, days } = JSON.parse(readFileSync(eraFile, "utf8"))[cal];
  const rows = rowsOf(tag, cal, days, eras, skip);
  process.stdout.write(JSON.stringify(rows), () => process.exit(0));
  await new Promise(() => {});
}

// --- the whole table ------------------------------------------------------------------------
if (process.argv[2] === "--eras") {
  writeFileSync(process.argv[3], JSON.stringify(Object.fromEntries([...CALENDARS, "gregory"].map((c) => [c, erasOf(c)]))));
  process.exit(0);
}
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
const eraFile = join(tmpdir(), `intl_calendars_eras_${process.pid}.json`);
writeFileSync(eraFile, JSON.stringify(eraTable));

function child(tag, cal, skip) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--rows", tag, cal, eraFile, ...skip]);
    let out = "", err = "";
    p.stdout.on("data", (b) => { out += b; });
    p.stderr.on("data", (b) => { err += b; });
    p.on("close", (code) => resolve({ code, out, err }));
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
        const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e)]);
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
const isFirst = (d) => { const f = fieldsOf("persian", d * DAY); return f.month === 1 && f.day === 1; };
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
