// Writes core/expressions/js/intl/tables/calendarzones.json.gz: for each calendar other than the
// locale's own (the Gregorian, or fa's Persian, th's Buddhist: tables/zoneparts measures their
// times in it) and each locale scripts/intl_calendar_parts.mjs measures, the time sets
// tables/zoneparts measures (hours, minutes and seconds with a zone's name, fractional seconds or
// a day period; not the locale's -u-hc-, which flowctx refuses beside a calendar) whose text in
// the calendar is not the one in the locale's own calendar.
// ICU's generator takes the calendar's own patterns, and a few locales write their hours there
// otherwise (en's 24 hours with a generic zone name, "23h GMT+0 (minute: 59)"; id's dot after the
// fraction; de's H for HH): each such set is kept as a row in tables/zoneparts' format where the
// row rebuilds node's text on six dates, else refused. A set with a date is the calendar's date
// pattern and this time pattern joined by the calendar's join (tables/calendarparts), which 80
// sets per locale and calendar drawn at random (dates, zones, cycles, digit counts) check against
// node as texts: a time set whose whole is not the joined texts is refused for that locale and
// calendar. Run with the node flowctx reproduces (two locales at a time, each in a child):
//   node scripts/intl_calendar_zones.mjs
// or, to measure a few locales again into the table as it is:
//   node scripts/intl_calendar_zones.mjs --add TAG...
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { skeletonRow } from "./intl_date_rows.mjs";
import { digitsOf } from "./intl_calendar_rows.mjs";
import { skeletonKey } from "./intl_skeleton_sets.mjs";
import { rowPool } from "./intl_rows.mjs";

const CALENDARS = ["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla",
  "coptic", "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura",
  "iso8601", "chinese", "dangi"];
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const zp = read("zoneparts.json.gz");
// the sets with an hour, a minute or a second (a zone's name, a day period or a fraction alone is
// the field itself beside a calendar's date, as flowctx writes it)
const TIMED = ["hour", "minute", "second"];
const KEYS = zp.zoneParts.keys.filter((k) => !k.includes("hc=") && TIMED.some((n) => k.includes(`${n}=`)));
const optsOf = (k) => Object.fromEntries(k.split(",").map((p) => p.split("=")).map(([n, v]) =>
  [n, n === "fractionalSecondDigits" ? 3 : n === "hour12" ? v === "true" : v]));

let seed = 29;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const pick = (a) => a[rnd(a.length)];
// six instants: late evening with a fraction, early morning, noon exactly, midnight, afternoon
const TIMES = [Date.UTC(2024, 1, 29, 23, 59, 59, 123), Date.UTC(1999, 6, 5, 3, 4, 5, 678),
  Date.UTC(2010, 3, 5, 12, 0, 0, 0), Date.UTC(1975, 11, 31, 0, 0, 7, 9), Date.UTC(2031, 8, 17, 15, 30, 45, 500),
  Date.UTC(1950, 0, 1, 7, 45, 0, 50)];
const strip = ({ locale, calendar, ...r }) => JSON.stringify(r);
const fingerprint = (f) => strip(f.resolvedOptions()) + TIMES.map((t) => JSON.stringify(f.formatToParts(t))).join("");
const textOf = (f, t) => f.formatToParts(t).map((p) => p.value).join("");

// a time row's text (UTC's zone name, the fraction's three digits)
function rebuilt(row, t, digits, zone) {
  const d = new Date(t), h = d.getUTCHours();
  const hour = { h12: h % 12 || 12, h11: h % 12, h23: h, h24: h || 24 }[row.r.hourCycle] ?? h;
  const values = { hour, minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  const nd = (s) => s.replace(/[0-9]/g, (c) => digits[Number(c)]);
  return row.t.map((p) => {
    if (typeof p === "string") return p;
    const [name, width] = p;
    if (name === "dayPeriod") return row.dp[h];
    if (name === "timeZoneName") return zone;
    if (name === "fractionalSecond") return nd(String(d.getUTCMilliseconds()).padStart(3, "0"));
    const n = values[name];
    if (n === undefined || width === "t") return "?";
    return nd(width === 2 ? String(n).padStart(2, "0") : String(n));
  }).join("");
}

// the joins' choice by the date's month, as scripts/intl_date_parts.mjs finds it
const joinStyle = (d) => (d.month === "long" ? (d.weekday ? "full" : "long") : d.month === "short" ? "medium" : "short");
const DATE = { weekday: ["narrow", "short", "long"], era: ["narrow", "short", "long"],
  year: ["2-digit", "numeric"], month: ["2-digit", "numeric", "narrow", "short", "long"], day: ["2-digit", "numeric"] };
function dateSet() {
  for (;;) {
    const o = {};
    for (const [name, values] of Object.entries(DATE)) if (rnd(5) < 2) o[name] = pick(values);
    const names = Object.keys(o);
    // (a weekday or an era alone with a time: patterns of their own, which flowctx refuses)
    if (names.length && !names.every((n) => n === "weekday") && !names.every((n) => n === "era")) return o;
  }
}
const ZONES = ["UTC", "Asia/Kolkata", "America/New_York", "Europe/Berlin", "Asia/Tokyo"];

function measure(tag, joinsByCal) {
  const digits = digitsOf(tag);
  const utcName = (style) => new Intl.DateTimeFormat(tag, { timeZone: "UTC", timeZoneName: style })
    .formatToParts(0).find((p) => p.type === "timeZoneName").value;
  // (the locale's own calendar's: fa's Persian, whose times tables/zoneparts has, and its
  // Gregorian is one more calendar)
  const gregorian = KEYS.map((k) => fingerprint(new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...optsOf(k) })));
  const ownCalendar = new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
  const out = {}, failed = [], known = new Map();
  for (const cal of ownCalendar === "gregory" ? CALENDARS : [...CALENDARS, "gregory"]) {
    const asked = `${tag}-u-ca-${cal}`;
    const own = {};
    KEYS.forEach((k, at) => {
      const opts = optsOf(k);
      const f = new Intl.DateTimeFormat(asked, { timeZone: "UTC", ...opts });
      const print = fingerprint(f);
      if (print === gregorian[at]) return;
      // (a set that writes alike in two calendars has one row: measured once)
      const row = known.get(`${at} ${print}`) ?? skeletonRow(asked, opts, digits);
      known.set(`${at} ${print}`, row);
      delete row.z;
      row.t = row.t.map((p) => (Array.isArray(p) && p[0] === "fractionalSecond" ? ["fractionalSecond", "t"] : p));
      const zone = opts.timeZoneName ? utcName(opts.timeZoneName) : "";
      const ok = row.tm === null && TIMES.every((t) => rebuilt(row, t, digits, zone) === textOf(f, t));
      own[at] = ok ? row : null;
    });
    // the whole: the date's text and the time's joined by the calendar's join
    const joins = joinsByCal[cal];
    for (let i = 0; i < 80; i++) {
      const at = rnd(KEYS.length), date = dateSet(), zone = pick(ZONES);
      const time = optsOf(KEYS[at]);
      if ("fractionalSecondDigits" in time) time.fractionalSecondDigits = 1 + rnd(3);
      if (date.weekday && Object.keys(date).length === 1) continue;
      const t = rnd(4) === 0 ? Date.UTC(1950 + rnd(80), rnd(12), 1 + rnd(28), 12, 0, 0)
        : Date.UTC(1950 + rnd(80), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), rnd(1000));
      const fmt = (o) => textOf(new Intl.DateTimeFormat(asked, { timeZone: zone, ...o }), t);
      const join = joins?.[joinStyle(date)];
      const [order, pre, mid, post] = join ?? [];
      const [d, tt] = [fmt(date), fmt(time)];
      const expected = order === "dt" ? pre + d + mid + tt + post : pre + tt + mid + d + post;
      if (!join || fmt({ ...date, ...time }) !== expected) {
        failed.push([cal, KEYS[at], JSON.stringify(date), zone]);
        own[at] = null;
      }
    }
    out[cal] = own;
  }
  return { out, failed };
}

const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
const cp = read("calendarparts.json.gz");
const joinsOf = (cal, tag) => {
  for (let t = tag; t; t = parentOf(t)) if (t in cp.calendarJoins[cal]) return cp.calendarJoins[cal][t];
  return null;
};

const ALL = [...CALENDARS, "gregory"];
if (process.argv[2] === "--locale") {
  const tag = process.argv[3];
  const joins = Object.fromEntries(ALL.map((c) => [c, joinsOf(c, tag)]));
  const m = measure(tag, joins);
  process.stdout.write(JSON.stringify(m), () => process.exit(0));
  await new Promise(() => {});
}

// pooled as tables/zoneparts: a row [t, tm, m, w, dp, r, e, z] of pooled values; each locale's
// differences in a calendar a text "place:row,..." (base 36, row -1 refused), pooled too (most
// calendars share them): ``profile(own)`` gives its index among ``profiles``
function profiler(pool, rows, profiles) {
  const { row } = rowPool(pool, rows);
  const profileIndex = new Map(profiles.map((v, i) => [v, i]));
  return (own) => {
    const text = Object.entries(own)
      .map(([at, e]) => [Number(at), e === null ? -1 : row([e.t, e.tm, e.m, e.w, e.dp, e.r, e.e, null])])
      .sort((a, b) => a[0] - b[0])
      .map(([at, r]) => `${at.toString(36)}:${r < 0 ? "-1" : r.toString(36)}`).join(",");
    if (!profileIndex.has(text)) { profileIndex.set(text, profiles.length); profiles.push(text); }
    return profileIndex.get(text);
  };
}

// --add TAG...: the locales named measured (with the table's keys) and merged into the table as
// it is, the others kept
if (process.argv[2] === "--add") {
  const data = read("calendarzones.json.gz").calendarZones;
  KEYS.splice(0, KEYS.length, ...data.keys);
  const profile = profiler(data.pool, data.rows, data.profiles);
  for (const tag of process.argv.slice(3)) {
    const m = measure(tag, Object.fromEntries(ALL.map((c) => [c, joinsOf(c, tag)])));
    for (const [cal, own] of Object.entries(m.out)) (data.calendars[cal] ??= {})[tag] = profile(own);
    console.log(`${tag}: ${m.failed.length} whole-text failures`);
    for (const f of m.failed.slice(0, 10)) console.log("  failed:", f.join(" "));
  }
  const bytes = gzipSync(JSON.stringify({ calendarZones: data }), { level: 9 });
  writeFileSync(new URL("calendarzones.json.gz", tables), bytes);
  console.log(`wrote core/expressions/js/intl/tables/calendarzones.json.gz: ${bytes.length} bytes`);
  process.exit(0);
}

// --- every locale the calendars' parts measure ----------------------------------------------
const leftOut = (tag) => { for (let t = tag; t; t = parentOf(t)) if (zp.zonePartsRefused.includes(t)) return true; return false; };
const only = process.argv.slice(2);
const locales = [...new Set(CALENDARS.flatMap((c) => cp.calendarLocales[c]))].filter((tag) =>
  !leftOut(tag) && (!only.length || only.includes(tag))).sort();
function child(tag) {
  return new Promise((resolve) => {
    const p = spawn("nice", ["-n", "10", process.execPath, fileURLToPath(import.meta.url), "--locale", tag]);
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8") }));
  });
}
const measured = {}, aborted = [], failures = [];
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    const { code, out } = await child(tag);
    if (code !== 0) { aborted.push(tag); continue; }
    const m = JSON.parse(out);
    measured[tag] = m.out;
    for (const f of m.failed) failures.push([tag, ...f]);
  }
}
await Promise.all([worker(), worker()]);

const pool = [], rows = [], profiles = [];
const profile = profiler(pool, rows, profiles);
const calendars = Object.fromEntries(ALL.map((c) => [c, {}]));
for (const tag of Object.keys(measured).sort()) {
  for (const cal of Object.keys(measured[tag])) calendars[cal][tag] = profile(measured[tag][cal]);
}
const data = { calendarZones: { keys: KEYS, pool, rows, profiles, calendars, aborted: aborted.sort() } };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("calendarzones.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/calendarzones.json.gz: ${bytes.length} bytes; ${Object.keys(measured).length} locales, ${rows.length} rows, ${profiles.length} profiles; whole-text failures ${failures.length}; aborted ${aborted.join(" ") || "none"}`);
for (const f of failures.slice(0, 40)) console.log("  failed:", f.join(" "));
