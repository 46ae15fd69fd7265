// Writes core/expressions/js/intl/tables/zoneparts.json.gz: for each locale (in its own calendar:
// fa's Persian, th's Buddhist, whose sets with a date scripts/intl_calendar_zones.mjs checks), the
// time patterns with a zone's name and/or fractional seconds (timeZoneName,
// fractionalSecondDigits) for every set of hour, minute and second (every width, hour12, hourCycle,
// the locale's -u-hc-),
// alone too; how the locale writes an offset in the localized GMT formats (shortOffset,
// longOffset: hours alone, with minutes, with seconds, both signs, zero), and UTC's name in all six
// styles. ICU's pattern generator treats the zone and the fractional seconds as time fields:
// a set with a date is the date's pattern (tables/dateparts) joined to the time's by the locale's
// join, which 60 random sets per locale check against node (in zones, styles and digit counts
// drawn); a locale where one fails is listed and refused. Run with the node flowctx reproduces:
//   node scripts/intl_zone_parts.mjs
// (TAGS=el,el-CY measures those locales again and keeps every other one as the table has it)
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { skeletonRow, rebuild } from "./intl_date_rows.mjs";
import { skeletonKey } from "./intl_skeleton_sets.mjs";

let seed = 23;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const pick = (a) => a[rnd(a.length)];

// hours in every cycle: hour12, the hourCycle option, or the locale's -u-hc- (key hc=: ICU's own
// patterns for it, unlike the option's, as scripts/intl_date_parts.mjs measures them)
const CYCLES = [{}, { hour12: true }, { hour12: false }, ...["h11", "h12", "h23", "h24"].map((hourCycle) => ({ hourCycle })),
  ...["h11", "h12", "h23", "h24"].map((hc) => ({ hc }))];
// the tag and options a set is asked with
const askedWith = (tag, { hc, ...opts }) => [hc ? `${tag}-u-hc-${hc}` : tag, opts];
const BASE = [];
for (const hour of [undefined, "2-digit", "numeric"]) for (const minute of [undefined, "2-digit", "numeric"])
  for (const second of [undefined, "2-digit", "numeric"]) {
    const o = {};
    if (hour) o.hour = hour;
    if (minute) o.minute = minute;
    if (second) o.second = second;
    for (const c of (hour ? CYCLES : [{}])) BASE.push({ ...o, ...c });
  }
// a zone in each style (ICU's generator matches the generic ones to patterns of their own), any
// count of digits as 3 (the key says *), and one or two digits where ICU's pattern for them is not
// that of three with fewer digits (its generator matches a fraction by the count of its digits: an
// hour and a second without the minute, a 2-digit second, are appended each their way; the key
// says the count)
const STYLES = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"];
const EXTRA = [{ fractionalSecondDigits: 3 }, ...STYLES.flatMap((timeZoneName) => [{ timeZoneName }, { timeZoneName, fractionalSecondDigits: 3 }])];
// and the flexible day periods (pattern letter B), in each width, with no zone nor fraction
const PERIODS = ["narrow", "short", "long"].map((dayPeriod) => ({ dayPeriod }));
// (a weekday alone with a time, an era alone with a time: patterns of their own, refused)
const SETS = BASE.flatMap((o) => [...EXTRA, ...PERIODS].map((e) => ({ ...o, ...e })));
const keyOf = (o) => skeletonKey(o).replace(/fractionalSecondDigits=\d/, "fractionalSecondDigits=*");
// a set's key with its count of digits (a row of its own where it is not the three digits' row)
const digitKeyOf = (o) => skeletonKey(o);
// the offsets each GMT form is measured at: [zone, instant]
const OFFSETS = { p_h: ["Etc/GMT-5", 0], n_h: ["Etc/GMT+5", 0], p_hm: ["Asia/Kolkata", 0], n_hm: ["Pacific/Marquesas", 0],
  p_hms: ["Asia/Kolkata", -4e12], n_hms: ["America/New_York", -3e12], zero: ["Africa/Abidjan", 1e12] };
const SAMPLE = { p_h: [5, 0, 0], n_h: [5, 0, 0], p_hm: [5, 30, 0], n_hm: [9, 30, 0], p_hms: [5, 53, 28], n_hms: [4, 56, 2], zero: [0, 0, 0] };

function partsOf(tag) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)].join("");
  const undigit = (v) => [...v].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  const zoneName = (zone, t, style) => new Intl.DateTimeFormat(tag, { timeZone: zone, timeZoneName: style })
    .formatToParts(t).find((p) => p.type === "timeZoneName").value;
  // the GMT forms: the name with its hours, minutes and seconds as {H} {HH} {mm} {ss}
  const gmt = {};
  for (const style of ["shortOffset", "longOffset"]) {
    gmt[style] = {};
    for (const [kind, [zone, t]] of Object.entries(OFFSETS)) {
      let v = undigit(zoneName(zone, t, style));
      const [h, m, s] = SAMPLE[kind];
      if (kind !== "zero") {
        const hh = String(h).padStart(2, "0"), mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
        if (s) v = v.replace(`${mm}`, "{mm}").replace(ss, "{ss}");
        else if (m) v = v.replace(mm, "{mm}");
        v = v.includes(hh) ? v.replace(hh, "{HH}") : v.replace(String(h), "{H}");
      }
      gmt[style][kind] = v;
    }
  }
  const utc = Object.fromEntries(STYLES.map((s) => [s, zoneName("UTC", 0, s)]));
  // the day period at 12:00:00 where the minutes and seconds are shown (ICU's noon, where the
  // locale has one; the rows' periods are measured at 12:04:05)
  const noon = Object.fromEntries(PERIODS.map(({ dayPeriod }) => [dayPeriod, new Intl.DateTimeFormat(tag,
    { timeZone: "UTC", dayPeriod, hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h12" })
    .formatToParts(Date.UTC(2006, 0, 5, 12)).find((p) => p.type === "dayPeriod").value]));
  const rows = {};
  const fixFraction = (row) => {
    const fix = (tpl) => tpl.map((p) => (Array.isArray(p) && p[0] === "fractionalSecond" ? ["fractionalSecond", "t"] : p));
    return { ...row, t: fix(row.t), tm: row.tm ? row.tm.map(fix) : null };
  };
  // the row of a count of digits with the count V8 resolves (read from the pattern's S, a word's
  // too: de's 'Sekunde'), and what flowctx makes of the three digits' row for it: the same pattern,
  // the option's count where the pattern shows the fraction
  const withDigits = (asked, opts, d) => {
    const row = fixFraction(skeletonRow(asked, { ...opts, fractionalSecondDigits: d }, digits));
    const resolved = new Intl.DateTimeFormat(asked, { timeZone: "UTC", ...opts, fractionalSecondDigits: d })
      .resolvedOptions().fractionalSecondDigits;
    return resolved === undefined ? row : { ...row, r: { ...row.r, fractionalSecondDigits: resolved } };
  };
  const asFewer = (row, d) => (row.t.some((p) => Array.isArray(p) && p[0] === "fractionalSecond")
    ? { ...row, r: { ...row.r, fractionalSecondDigits: d } } : row);
  // the style a pattern writes the zone in, where it is not the one asked (el's 24-hour times
  // write each in its long width: GMT-05:00 for shortOffset): the style whose names are the
  // pattern's at each probe, kept as the zone's piece's third item
  const ZONE_PROBES = [["Europe/Athens", Date.UTC(2006, 0, 5, 12)], ["America/New_York", Date.UTC(2006, 6, 5, 12)],
    ["Asia/Kolkata", Date.UTC(2006, 0, 5, 12)], ["Europe/Berlin", Date.UTC(2006, 6, 5, 12)]];
  const probeNames = ZONE_PROBES.map(([zone, t]) => Object.fromEntries(STYLES.map((s) => [s, zoneName(zone, t, s)])));
  const writtenStyle = (asked, opts) => {
    let styles = STYLES;
    ZONE_PROBES.forEach(([zone, t], i) => {
      const v = new Intl.DateTimeFormat(asked, { ...opts, timeZone: zone }).formatToParts(t).find((p) => p.type === "timeZoneName")?.value;
      styles = styles.filter((s) => probeNames[i][s] === v);
    });
    return styles.includes(opts.timeZoneName) || styles.length !== 1 ? null : styles[0];
  };
  const widen = (row, style) => {
    const fix = (tpl) => tpl.map((p) => (Array.isArray(p) && p[0] === "timeZoneName" ? ["timeZoneName", "t", style] : p));
    return { ...row, t: fix(row.t), tm: row.tm ? row.tm.map(fix) : null };
  };
  for (const set of SETS) {
    const [asked, opts] = askedWith(tag, set);
    const written = set.timeZoneName ? writtenStyle(asked, opts) : null;
    const mark = (row) => (written ? widen(row, written) : row);
    const three = mark(fixFraction(skeletonRow(asked, opts, digits)));
    rows[keyOf(set)] = three;
    if (!set.fractionalSecondDigits) continue;
    for (const d of [1, 2, 3]) {
      const own = mark(withDigits(asked, opts, d));
      if (JSON.stringify(own) !== JSON.stringify(asFewer(three, d))) rows[digitKeyOf({ ...set, fractionalSecondDigits: d })] = own;
    }
  }
  return { rows, gmt, utc, noon, digits };
}


// --- the check: a row and a date's row joined, the zone's name and the fraction filled in ------
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const dp = read("dateparts.json.gz");
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
// tables/dateparts keeps its lists, rows and pool as text (read on first use)
const listOf = (text) => text.split(",").map((x) => (x === "" ? null : parseInt(x, 36)));
function datePart(tag, key) {
  const at = dp.dateParts.keys.indexOf(key);
  for (let t = tag; t; t = parentOf(t)) {
    const list = t in dp.dateParts.tags ? listOf(dp.dateParts.tags[t]) : null;
    if (list && list[at] !== null && list[at] !== undefined) {
      if (list[at] < 0) return null;
      const [t0, tm, m, w, p, r, e] = listOf(dp.dateParts.rows[list[at]]);
      const pool = new Proxy([], { get: (_, i) => JSON.parse(dp.dateParts.pool[i]) });
      return { t: pool[t0], tm: tm >= 0 ? pool[tm] : null, m: m >= 0 ? pool[m] : null, w: w >= 0 ? pool[w] : null, r: pool[r], e: e >= 0 ? pool[e] : null };
    }
  }
  return null;
}
const joinsOf = (tag) => { for (let t = tag; t; t = parentOf(t)) if (t in dp.dateJoins) return dp.dateJoins[t]; return null; };
const joinStyle = (d) => (d.month === "long" ? (d.weekday ? "full" : "long") : d.month === "short" ? "medium" : "short");
function merged(pieces) {
  const out = [];
  for (const p of pieces) {
    if (p === "") continue;
    if (typeof p === "string" && typeof out.at(-1) === "string") out[out.length - 1] += p;
    else out.push(p);
  }
  return out;
}
const joined = ([order, pre, mid, post], date, time) =>
  merged(order === "dt" ? [pre, ...date, mid, ...time, post] : [pre, ...time, mid, ...date, post]);
function offsetName(m, style, seconds) {
  const g = m.gmt[style];
  if (seconds === 0) return g.zero;
  const a = Math.abs(seconds), h = Math.floor(a / 3600), mi = Math.floor(a / 60) % 60, s = a % 60;
  const kind = (seconds > 0 ? "p_" : "n_") + (s ? "hms" : mi ? "hm" : "h");
  return g[kind].replace("{HH}", String(h).padStart(2, "0")).replace("{H}", String(h))
    .replace("{mm}", String(mi).padStart(2, "0")).replace("{ss}", String(s).padStart(2, "0"))
    .replace(/[0-9]/g, (c) => m.digits[Number(c)]);
}
const DATES = [{}, { year: "numeric", month: "numeric", day: "numeric" }, { year: "numeric", month: "long", day: "numeric" },
  { month: "short", day: "numeric" }, { weekday: "long", year: "numeric", month: "long", day: "numeric" },
  { year: "numeric", month: "2-digit", day: "2-digit" }, { month: "long" }, { year: "numeric" },
  { day: "2-digit" }, { year: "numeric", month: "short" }, { weekday: "short", day: "numeric" }];
const ZONES = ["UTC", "Asia/Kolkata", "America/New_York", "Europe/Berlin", "Asia/Tokyo", "Pacific/Chatham", "America/St_Johns"];
// and in every locale alike, hours of each cycle with an offset, beside a date and alone: a
// pattern may write the zone in another width than asked (el's 24-hour times: GMT-05:00)
const FIXED = [];
for (const timeZoneName of ["shortOffset", "longOffset"]) for (const date of [{}, { year: "numeric", month: "numeric", day: "numeric" }])
  for (const c of [{ hour12: false }, { hour12: true }, { hourCycle: "h23" }]) FIXED.push([date, { hour: "numeric", minute: "numeric", ...c, timeZoneName }]);
function check(tag, m, n = 60, timesOnly = false) {
  let failed = 0;
  for (let i = 0; i < n + FIXED.length; i++) {
    const fixed = i >= n ? FIXED[i - n] : null;
    const [date, time, zone] = fixed ? [...fixed, "America/New_York"] : [timesOnly ? {} : pick(DATES), pick(SETS), pick(ZONES)];
    // (a locale whose own calendar is another: its dates are its calendar's, checked beside these
    // times by scripts/intl_calendar_zones.mjs)
    if (timesOnly && Object.keys(date).length) continue;
    const style = fixed ? time.timeZoneName : zone === "UTC" ? time.timeZoneName : pick(["shortOffset", "longOffset"]);
    const fsd = 1 + rnd(3);
    // a date with a second but no minute: ICU appends the second with its field's name (refused)
    if (Object.keys(date).length && time.second && !time.minute) continue;
    const opts = { ...date, ...time };
    if ("timeZoneName" in opts && zone !== "UTC") opts.timeZoneName = style;
    if ("fractionalSecondDigits" in opts) opts.fractionalSecondDigits = fsd;
    const t = rnd(4) === 0 ? Date.UTC(1950 + rnd(80), rnd(12), 1 + rnd(28), 12, rnd(2) * rnd(60), rnd(2) * rnd(60))
      : Date.UTC(1950 + rnd(80), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), rnd(1000));
    let f;
    const [asked, own] = askedWith(tag, opts);
    try { f = new Intl.DateTimeFormat(asked, { timeZone: zone, ...own }); } catch { continue; }
    const expected = f.formatToParts(t).map((p) => p.value).join("");
    const zoned = opts.timeZoneName ? { ...time, timeZoneName: opts.timeZoneName } : time;
    const digitKey = "fractionalSecondDigits" in zoned ? digitKeyOf({ ...zoned, fractionalSecondDigits: fsd }) : null;
    let row = (digitKey && m.rows[digitKey]) || m.rows[keyOf(zoned)];
    // a zone alone is measured with the date V8 adds to it: beside a date, its pattern is the name
    const alone = !["hour", "minute", "second", "fractionalSecondDigits"].some((k) => k in time);
    if (alone && Object.keys(date).length) {
      const field = "dayPeriod" in time ? "dayPeriod" : "timeZoneName";
      row = { ...row, t: [[field, "t"]], tm: null, r: field === "dayPeriod" ? { dayPeriod: time.dayPeriod } : {} };
    }
    const d = Object.keys(date).length ? datePart(tag, skeletonKey(date)) : null;
    const joins = joinsOf(tag);
    if (Object.keys(date).length && (!d || !joins || !joins[joinStyle(date)])) { failed++; continue; }
    const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(t);
    const p = Object.fromEntries(parts.map((x) => [x.type, Number(x.value)]));
    const local = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, new Date(t).getUTCMilliseconds());
    const seconds = Math.round((local - t) / 1000);
    // (in the style the pattern writes, where it is not the one asked)
    const nameIn = (s) => (zone === "UTC" ? m.utc[s] : offsetName(m, s, seconds));
    const fraction = String(new Date(t).getUTCMilliseconds()).padStart(3, "0").slice(0, fsd).replace(/[0-9]/g, (c) => m.digits[Number(c)]);
    const fill = (tpl) => tpl.map((x) => (Array.isArray(x) && x[0] === "timeZoneName" ? nameIn(x[2] || style) : Array.isArray(x) && x[0] === "fractionalSecond" ? fraction : x));
    let whole = { ...row, t: fill(row.t), tm: row.tm ? row.tm.map(fill) : null };
    if (d) {
      const j = joins[joinStyle(date)];
      whole = { ...whole, t: joined(j, d.t, whole.t), tm: d.tm ? d.tm.map((x) => joined(j, x, whole.t)) : null, m: d.m, w: d.w, e: d.e,
        r: { ...d.r, ...row.r } };
    }
    // noon: 12 o'clock with the minutes and seconds shown zero (those not shown count as zero)
    const lt = new Date(local);
    const shown = (name) => whole.t.some((x) => Array.isArray(x) && x[0] === name);
    if (opts.dayPeriod && lt.getUTCHours() === 12 && (!shown("minute") || lt.getUTCMinutes() === 0)
      && (!shown("second") || lt.getUTCSeconds() === 0)) {
      const dp = [...(whole.dp || Array(24).fill(""))];
      dp[12] = shown("minute") || shown("second") ? m.noon[opts.dayPeriod] : dp[12];
      whole = { ...whole, dp };
    }
    if (rebuild(whole, local, m.digits) !== expected) {
      failed++;
      if (process.env.VERBOSE) console.error(tag, JSON.stringify(opts), zone, rebuild(whole, local, m.digits), "|", expected);
    }
  }
  return failed;
}

// each locale in a child of its own (node aborts on some locales' patterns), checked there too
if (process.argv[2] === "--parts") {
  const m = partsOf(process.argv[3]);
  m.failed = check(process.argv[3], m, 60, new Intl.DateTimeFormat(process.argv[3]).resolvedOptions().calendar !== "gregory");
  process.stdout.write(JSON.stringify(m), () => process.exit(0));
  await new Promise(() => {});
}
if (process.argv[2] === "--check") {
  const m = partsOf(process.argv[3]);
  console.log(JSON.stringify(m.noon), JSON.stringify(m.utc), check(process.argv[3], m, 300));
  process.exit(0);
}

// --- every locale, two at a time --------------------------------------------------------------
const skeletonTags = read("skeletons.json.gz").skeletons.tags;
const dateRows = read("dates.json.gz").dates;
const locales = read("locales.json.gz").locales.date.filter((tag) => tag in skeletonTags || tag in dateRows);
function child(tag) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--parts", tag]);
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8") }));
  });
}
const measured = {};
const refused = [];
// TAGS=a,b: those locales measured again, every other one kept as the table has it
const only = process.env.TAGS ? process.env.TAGS.split(",") : null;
if (only) {
  const old = read("zoneparts.json.gz");
  const { pool: p0, rows: r0, keys: k0, tags: t0 } = old.zoneParts;
  const lists = Object.fromEntries(Object.entries(t0).map(([tag, text]) => [tag, text.split(",").map((x) => (x === "" ? null : parseInt(x, 36)))]));
  const rowAt = (tag, i) => { for (let t = tag; t; t = parentOf(t)) if (t in lists && lists[t][i] !== null) return lists[t][i]; return -1; };
  const namesOf = (tag) => { for (let t = tag; t; t = parentOf(t)) if (t in old.zoneGmt) return old.zoneGmt[t]; return null; };
  for (const tag of new Set([...Object.keys(t0), ...Object.keys(old.zoneGmt)])) {
    if (only.includes(tag) || !namesOf(tag)) continue;
    const own = {};
    k0.forEach((k, i) => {
      const v = rowAt(tag, i);
      if (v < 0) return;
      const [t, tm, m, w, dp, r, e] = r0[v].map((j) => (j < 0 ? null : p0[j]));
      own[k] = { t, tm, m, w, dp, r, e };
    });
    const [gmt, utc, noon] = namesOf(tag);
    measured[tag] = { rows: own, gmt, utc, noon };
  }
  refused.push(...old.zonePartsRefused.filter((tag) => !only.includes(tag)));
  locales.splice(0, locales.length, ...only);
}
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    const { code, out } = await child(tag);
    if (code !== 0) { refused.push(tag); continue; }
    const m = JSON.parse(out);
    if (m.failed) refused.push(tag);
    measured[tag] = m;
  }
}
await Promise.all([worker(), worker()]);

const pool = [], index = new Map();
const ref = (v) => {
  if (v === null || v === undefined) return -1;
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
    const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e), -1]);
    if (!rowIndex.has(r)) { rowIndex.set(r, rows.length); rows.push(JSON.parse(r)); }
    return rowIndex.get(r);
  });
}
const get = (tag, at) => { for (let t = tag; t; t = parentOf(t)) if (t in indexed) return indexed[t][at]; return -1; };
const tags = {};
for (const tag of Object.keys(indexed)) {
  const p = parentOf(tag);
  const list = indexed[tag].map((v, at) => (p && get(p, at) === v ? null : v));
  // a list as text (base 36, empty for the parent's): read per locale on first use, not at load
  if (list.some((v) => v !== null)) tags[tag] = list.map((v) => (v === null ? "" : v.toString(36))).join(",");
}
const names = {};
for (const [tag, m] of Object.entries(measured)) {
  const own = JSON.stringify([m.gmt, m.utc, m.noon]);
  let p = parentOf(tag);
  while (p && !(p in measured)) p = parentOf(p);
  if (p && JSON.stringify([measured[p].gmt, measured[p].utc, measured[p].noon]) === own) continue;
  names[tag] = [m.gmt, m.utc, m.noon];
}
const data = { zoneParts: { pool, rows, keys, tags }, zoneGmt: names, zonePartsRefused: refused.sort() };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("zoneparts.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/zoneparts.json.gz: ${bytes.length} bytes; ${Object.keys(measured).length} locales; refused ${refused.join(" ") || "none"}`);
