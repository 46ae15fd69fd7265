// Writes core/expressions/js/intl/tables/dateparts.json.gz: every option set of date components
// (weekday, era, year, month, day in every width) and every one of time components (hour,
// minute, second in every width, hour12 true, false or unsaid), measured in each locale's own
// Gregorian calendar, and how the locale joins a date with a time: ICU's pattern generator
// takes a pattern with both from its own date and time patterns, joined by one of four
// patterns chosen by the date's month (long with a weekday, long, short, else). Run with the
// node whose answers flowctx reproduces:
//   node scripts/intl_date_parts.mjs
// Each row is rebuilt from its data and kept only where the rebuilt text equals node's; each
// join is checked on every set of a weekday alone with a time (where ICU has patterns of their
// own), every era alone with every time (an era alone is no date set of its own) and on 300 other
// sets drawn at random; a set whose join is not node's is measured as a
// row of its own, and a locale where a drawn set's join fails is marked (its joins are refused).
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { rebuild, skeletonRow } from "./intl_date_rows.mjs";
import { skeletonKey } from "./intl_skeleton_sets.mjs";

let seed = 11;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

const DATE = { weekday: ["narrow", "short", "long"], era: ["narrow", "short", "long"],
  year: ["2-digit", "numeric"], month: ["2-digit", "numeric", "narrow", "short", "long"],
  day: ["2-digit", "numeric"] };
const TIME = { hour: ["2-digit", "numeric"], minute: ["2-digit", "numeric"], second: ["2-digit", "numeric"] };
function sets(widths) {
  let out = [{}];
  for (const [name, values] of Object.entries(widths)) {
    out = out.flatMap((o) => [o, ...values.map((v) => ({ ...o, [name]: v }))]);
  }
  return out.filter((o) => Object.keys(o).length);
}
// an era alone is no date set of its own (V8 adds a year, month and day to it): with a time it
// is measured as a row of its own
const DATE_SETS = sets(DATE).filter((o) => Object.keys(o).some((k) => k !== "era"));
const ERAS = DATE.era.map((era) => ({ era }));
// hours in every cycle: hour12, the hourCycle option, or the locale's -u-hc- (key hc=), each its
// own pattern (ICU's generator keeps the width of a pattern's own hours, not of another cycle's)
const CYCLES = ["h11", "h12", "h23", "h24"];
const TIME_SETS = sets(TIME).flatMap((o) => ("hour" in o
  ? [o, { ...o, hour12: true }, { ...o, hour12: false }, ...CYCLES.map((hourCycle) => ({ ...o, hourCycle })),
    ...CYCLES.map((hc) => ({ ...o, hc }))]
  : [o]));
// the tag and options a set is asked with (hc= is the locale's -u-hc-)
const askedWith = (tag, { hc, ...opts }) => [hc ? `${tag}-u-hc-${hc}` : tag, opts];
// the join's pattern ICU chooses by the date's month: long with a weekday, long, short, else
export const joinStyle = (d) => (d.month === "long" ? (d.weekday ? "full" : "long") : d.month === "short" ? "medium" : "short");
const STYLE_DATES = { full: { weekday: "long", month: "long", day: "numeric" }, long: { month: "long", day: "numeric" },
  medium: { month: "short", day: "numeric" }, short: { month: "numeric", day: "numeric" } };
const STYLE_TIME = { hour: "numeric", minute: "2-digit" };

// a template as text, each field one private-use character, to find a date's and a time's in
// the pattern that joins them
const FIELD_CHARS = new Map();
const text = (tpl) => tpl.map((p) => {
  if (typeof p === "string") return p;
  const k = JSON.stringify(p);
  if (!FIELD_CHARS.has(k)) FIELD_CHARS.set(k, String.fromCharCode(0xe000 + FIELD_CHARS.size));
  return FIELD_CHARS.get(k);
}).join("");
function joinOf(date, time, both) {
  const [d, t, b] = [text(date), text(time), text(both)];
  const i = b.indexOf(d), j = b.indexOf(t);
  if (i < 0 || j < 0) return null;
  if (i + d.length <= j) return ["dt", b.slice(0, i), b.slice(i + d.length, j), b.slice(j + t.length)];
  if (j + t.length <= i) return ["td", b.slice(0, j), b.slice(j + t.length, i), b.slice(i + d.length)];
  return null;
}
function merged(pieces) {
  const out = [];
  for (const p of pieces) {
    if (p === "") continue;
    if (typeof p === "string" && typeof out.at(-1) === "string") out[out.length - 1] += p;
    else out.push(p);
  }
  return out;
}
export function joined(join, date, time) {
  const [order, pre, mid, post] = join;
  return merged(order === "dt" ? [pre, ...date, mid, ...time, post] : [pre, ...time, mid, ...date, post]);
}
function compose(join, d, t) {
  const r = {};
  for (const k of ["hourCycle", "hour12", "weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second"]) {
    if (k in t.r) r[k] = t.r[k];
    else if (k in d.r) r[k] = d.r[k];
  }
  return { t: joined(join, d.t, t.t), tm: d.tm ? d.tm.map((x) => joined(join, x, t.t)) : null, m: d.m, w: d.w,
    dp: t.dp, r, e: d.e };
}

function partsOf(tag) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)].join("");
  const times = Array.from({ length: 16 }, () => Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60)));
  const checked = (set, row, n = 16) => {
    const [asked, opts] = askedWith(tag, set);
    const f = new Intl.DateTimeFormat(asked, { timeZone: "UTC", ...opts });
    return times.slice(0, n).every((t) => rebuild(row, t, digits) === f.formatToParts(t).map((p) => p.value).join(""));
  };
  const measure = (set) => skeletonRow(...askedWith(tag, set), digits);
  const rows = {};
  for (const set of [...DATE_SETS, ...TIME_SETS]) {
    const row = measure(set);
    if (checked(set, row)) rows[skeletonKey(set)] = row;
  }
  // the styles with a time and an hour cycle (V8 asks ICU again for the style's pattern with
  // the hour cycle's hours), and timeStyle full and long (the zone's name, UTC's)
  for (const timeStyle of ["full", "long", "medium", "short"]) {
    for (const dateStyle of [undefined, "full", "long", "medium", "short"]) {
      for (const hourCycle of [undefined, "h11", "h12", "h23", "h24"]) {
        if (hourCycle === undefined && !["full", "long"].includes(timeStyle)) continue;
        const opts = { timeStyle, ...(dateStyle ? { dateStyle } : {}), ...(hourCycle ? { hourCycle } : {}) };
        const row = skeletonRow(tag, opts, digits);
        if (checked(opts, row)) rows[skeletonKey(opts)] = row;
        // the locale's -u-hc- (ICU's own patterns for it, unlike the option's): key hc=
        if (hourCycle === undefined) continue;
        const set = { timeStyle, ...(dateStyle ? { dateStyle } : {}), hc: hourCycle };
        const own = measure(set);
        if (checked(set, own)) rows[skeletonKey(set)] = own;
      }
    }
  }
  const joins = {};
  for (const [style, d] of Object.entries(STYLE_DATES)) {
    const both = skeletonRow(tag, { ...d, ...STYLE_TIME }, digits).t;
    joins[style] = joinOf(rows[skeletonKey(d)].t, rows[skeletonKey(STYLE_TIME)].t, both);
  }
  // the joins checked: every weekday alone with every time, 300 other sets drawn
  const own = {};
  let failed = 0;
  const check = (d, t, drawn) => {
    const dr = rows[skeletonKey(d)], tr = rows[skeletonKey(t)], join = joins[joinStyle(d)];
    const opts = { ...d, ...t };
    if (dr && tr && join && checked(opts, compose(join, dr, tr), 8)) return;
    if (drawn) failed++;
    const row = measure(opts);
    if (checked(opts, row)) own[skeletonKey(opts)] = row;
  };
  for (const d of DATE_SETS.filter((o) => Object.keys(o).length === 1 && o.weekday)) for (const t of TIME_SETS) check(d, t, false);
  for (const d of ERAS) for (const t of TIME_SETS) check(d, t, false);
  const others = DATE_SETS.filter((o) => !(Object.keys(o).length === 1 && o.weekday));
  for (let i = 0; i < 300; i++) check(others[rnd(others.length)], TIME_SETS[rnd(TIME_SETS.length)], true);
  return { rows: { ...rows, ...own }, joins, failed };
}

if (process.argv[2] === "--parts") {
  process.stdout.write(JSON.stringify(partsOf(process.argv[3])), () => process.exit(0));
  await new Promise(() => {});
}

// --- every locale, two at a time --------------------------------------------------------------
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const skeletonTags = read("skeletons.json.gz").skeletons.tags;
const dateRows = read("dates.json.gz").dates;
// as scripts/intl_calendars.mjs: the locales whose Gregorian patterns differ from their parent's
const locales = read("locales.json.gz").locales.date.filter((tag) =>
  (tag in skeletonTags || tag in dateRows) && new Intl.DateTimeFormat(tag).resolvedOptions().calendar === "gregory");
function child(tag) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--parts", tag]);
    let err = "";
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.stderr.on("data", (b) => { err += b; });
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8"), err }));
  });
}
const measured = {};
const refused = [];
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    const { code, out } = await child(tag);
    if (code === 0) measured[tag] = JSON.parse(out);
    else refused.push(tag);  // node aborted on one of its patterns: the locale's parts left out
  }
}
await Promise.all([worker(), worker()]);

const parentOf = (tag) => {
  const parts = tag.split("-");
  return parts.length > 1 ? parts.slice(0, -1).join("-") : null;
};
const pool = [], index = new Map();
const ref = (v) => {
  if (v === null) return -1;
  const k = JSON.stringify(v);
  if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
  return index.get(k);
};
const rows = [], rowIndex = new Map();
const keys = [...new Set(Object.values(measured).flatMap((m) => Object.keys(m.rows)))].sort();
const indexed = {};
for (const [tag, m] of Object.entries(measured)) {
  indexed[tag] = keys.map((k) => {
    const e = m.rows[k];
    if (e === undefined) return -1;
    const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e), ref(e.z ?? null)]);
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
  // a list as text (base 36, empty for the parent's): read per locale on first use, not at load
  if (list.some((v) => v !== null)) tags[tag] = list.map((v) => (v === null ? "" : v.toString(36))).join(",");
}
// each locale's joins (null where a drawn set's join was not node's: its joins are refused)
const joins = Object.fromEntries(Object.entries(measured).map(([tag, m]) => [tag, m.failed ? null : m.joins]));
// rows as text (base 36) and the pool's values as JSON text: read one by one on first use
const rowTexts = rows.map((r) => r.map((v) => v.toString(36)).join(","));
const poolTexts = pool.map((v) => JSON.stringify(v));
const data = { dateParts: { pool: poolTexts, rows: rowTexts, keys, tags, texts: true }, dateJoins: joins, datePartsRefused: refused };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("dateparts.json.gz", tables), bytes);
const failing = Object.entries(measured).filter(([, m]) => m.failed).map(([t, m]) => `${t}:${m.failed}`);
console.log(`wrote core/expressions/js/intl/tables/dateparts.json.gz: ${bytes.length} bytes; joins failed in ${failing.join(" ") || "none"}; aborted ${refused.join(" ") || "none"}`);
