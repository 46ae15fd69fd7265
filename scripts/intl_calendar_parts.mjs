// Writes core/expressions/js/intl/tables/calendarparts*.json.gz: every set of date components
// (weekday, era, year, month, day in every width) measured in each calendar other than a
// locale's own Gregorian one, the sets of time components whose text in the calendar is not the
// locale's Gregorian one (ICU's generator takes a calendar's own patterns, which a few locales
// write otherwise), and how the calendar joins a date with a time (four patterns chosen by the
// date's month, as scripts/intl_date_parts.mjs finds them for the Gregorian). Run with the node
// whose answers flowctx reproduces:
//   node scripts/intl_calendar_parts.mjs [CALENDAR...]
// (with calendars named, only those are measured again, the table's others kept; --split writes
// a table of the whole in one file as one file per calendar; the dangi calendar's rows are kept in
// the Chinese calendar's file, each locale's list as its differences from the Chinese one's).
// Every row is rebuilt from its data and kept only where the rebuilt text equals node's on
// six dates; each calendar's joins are checked on 60 sets drawn at random, and a locale where
// one fails has its joins refused (null).
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { calendarRow, digitsOf, erasOf, monthsOf, rebuild, withHc } from "./intl_calendar_rows.mjs";
import { skeletonKey } from "./intl_skeleton_sets.mjs";

export const CALENDARS = ["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla",
  "coptic", "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura",
  "iso8601", "chinese", "dangi"];

let seed = 13;
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
const DATE_SETS = sets(DATE).filter((o) => Object.keys(o).some((k) => k !== "era"));
const CYCLES = ["h11", "h12", "h23", "h24"];
// (the locale's -u-hc- beside a calendar is left out: flowctx refuses it)
const TIME_SETS = sets(TIME).flatMap((o) => ("hour" in o
  ? [o, { ...o, hour12: true }, { ...o, hour12: false }, ...CYCLES.map((hourCycle) => ({ ...o, hourCycle }))]
  : [o]));
// as scripts/intl_date_parts.mjs: the join's pattern ICU chooses by the date's month (long with a
// weekday, long, short, else), and a date's and a time's templates joined by it
const joinStyle = (d) => (d.month === "long" ? (d.weekday ? "full" : "long") : d.month === "short" ? "medium" : "short");
function joined([order, pre, mid, post], date, time) {
  const out = [];
  for (const p of order === "dt" ? [pre, ...date, mid, ...time, post] : [pre, ...time, mid, ...date, post]) {
    if (p === "") continue;
    if (typeof p === "string" && typeof out.at(-1) === "string") out[out.length - 1] += p;
    else out.push(p);
  }
  return out;
}
const STYLE_DATES = { full: { weekday: "long", month: "long", day: "numeric" }, long: { month: "long", day: "numeric" },
  medium: { month: "short", day: "numeric" }, short: { month: "numeric", day: "numeric" } };
const STYLE_TIME = { hour: "numeric", minute: "2-digit" };

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
function compose(join, d, t) {
  const r = {};
  for (const k of ["hourCycle", "hour12", "weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second"]) {
    if (k in t.r) r[k] = t.r[k];
    else if (k in d.r) r[k] = d.r[k];
  }
  return { t: joined(join, d.t, t.t), tm: d.tm ? d.tm.map((x) => joined(join, x, t.t)) : null, m: d.m, w: d.w,
    dp: t.dp, r, e: d.e, yn: d.yn, dn: d.dn };
}

// the sets a locale's rows are compared on with its parent's: where node writes every one of them
// as the parent does, in a calendar, the locale's rows in it are its parent's
const SAMPLE = Array.from({ length: 40 }, () => DATE_SETS[rnd(DATE_SETS.length)])
  .concat(Array.from({ length: 10 }, () => TIME_SETS[rnd(TIME_SETS.length)]));
const ownCalendar = (tag) => new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
const asked = (tag, cal) => (cal === ownCalendar(tag) ? tag : `${tag}-u-ca-${cal}`);

function sameAsParent(tag, parent, cal) {
  const times = [Date.UTC(2024, 1, 29, 23, 59, 59), Date.UTC(1999, 6, 5, 3, 4, 5)];
  const [mine, theirs] = [asked(tag, cal), asked(parent, cal)];
  return SAMPLE.every(({ hc, ...opts }) => {
    const f = new Intl.DateTimeFormat(withHc(mine, hc), { timeZone: "UTC", ...opts });
    const g = new Intl.DateTimeFormat(withHc(theirs, hc), { timeZone: "UTC", ...opts });
    return times.every((t) => f.format(t) === g.format(t));
  });
}

function partsOf(tag, gregoryTag, cal) {
  const digits = digitsOf(tag);
  const times = Array.from({ length: 2 }, () => Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60)));
  const textOf = (f, t) => f.formatToParts(t).map((p) => p.value).join("");
  const keep = (row) => {
    const ok = times.every((t) => rebuild(row, t, cal, digits) === textOf(row.f, t));
    delete row.f;
    return ok ? row : null;
  };
  const rows = {};
  for (const set of DATE_SETS) {
    const row = keep(calendarRow(tag, cal, set, digits));
    if (row) rows[skeletonKey(set)] = row;
  }
  // a time's text in the calendar where it is not the Gregorian's (else the Gregorian row)
  const gregorian = {};
  for (const set of TIME_SETS) {
    const { hc, ...opts } = set;
    const f = new Intl.DateTimeFormat(withHc(tag, hc), { timeZone: "UTC", ...opts });
    const g = new Intl.DateTimeFormat(withHc(gregoryTag, hc), { timeZone: "UTC", ...opts });
    const strip = ({ locale, calendar, ...r }) => JSON.stringify(r);
    const same = gregoryTag !== tag && strip(f.resolvedOptions()) === strip(g.resolvedOptions())
      && times.every((t) => JSON.stringify(f.formatToParts(t)) === JSON.stringify(g.formatToParts(t)));
    if (same) { gregorian[skeletonKey(set)] = true; continue; }
    const row = keep(calendarRow(tag, cal, set, digits));
    if (row) rows[skeletonKey(set)] = row;
  }
  const check = (opts, row) => {
    const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...opts });
    return times.every((t) => rebuild(row, t, cal, digits) === textOf(f, t));
  };
  const timeRow = (set) => rows[skeletonKey(set)] ?? (gregorian[skeletonKey(set)]
    ? (() => { const r = calendarRow(tag, cal, set, digits); delete r.f; return r; })() : null);
  const joins = {};
  for (const [style, d] of Object.entries(STYLE_DATES)) {
    const both = calendarRow(tag, cal, { ...d, ...STYLE_TIME }, digits).t;
    const dr = rows[skeletonKey(d)], tr = timeRow(STYLE_TIME);
    joins[style] = dr && tr ? joinOf(dr.t, tr.t, both) : null;
  }
  return { rows, gregorian: Object.keys(gregorian), joins: checkedJoins(joins, check, (set) => rows[skeletonKey(set)], timeRow) };
}

// the joins, checked on 60 sets drawn at random (a date set of a weekday or an era alone left
// out: ICU has patterns of their own for them with a time, which flowctx refuses), or null where
// one is not node's
const JOINED = DATE_SETS.filter((o) => !Object.keys(o).every((k) => k === "weekday") && !Object.keys(o).every((k) => k === "era"));
function checkedJoins(joins, check, dateRow, timeRow) {
  const plain = TIME_SETS.filter((o) => !o.hc);
  for (let i = 0; i < 60; i++) {
    const d = JOINED[rnd(JOINED.length)], t = plain[rnd(plain.length)];
    const dr = dateRow(d), tr = timeRow(t), jn = joins[joinStyle(d)];
    if (!dr || !tr) continue;  // (a row node's patterns could not rebuild, refused)
    if (!jn || !check({ ...d, ...t }, compose(jn, dr, tr))) return null;
  }
  return joins;
}

// the joins alone, measured again for the locales and calendars whose joins are null
function joinsOnly(tag, cal) {
  const digits = digitsOf(tag);
  const times = Array.from({ length: 2 }, () => Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60)));
  const textOf = (f, t) => f.formatToParts(t).map((p) => p.value).join("");
  const row = (set) => {
    const r = calendarRow(tag, cal, set, digits);
    const ok = times.every((t) => rebuild(r, t, cal, digits) === textOf(r.f, t));
    delete r.f;
    return ok ? r : null;
  };
  const check = (opts, r) => {
    const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...opts });
    return times.every((t) => rebuild(r, t, cal, digits) === textOf(f, t));
  };
  const joins = {};
  for (const [style, d] of Object.entries(STYLE_DATES)) {
    const both = calendarRow(tag, cal, { ...d, ...STYLE_TIME }, digits).t;
    const dr = row(d), tr = row(STYLE_TIME);
    joins[style] = dr && tr ? joinOf(dr.t, tr.t, both) : null;
  }
  return checkedJoins(joins, check, row, row);
}

// the locales a regional locale may write as (CLDR's parents of most regions, which are not the
// tag without its region): en-AU writes as en-001 or en-150, es-AR as es-419
const DONORS = ["001", "150", "419", "GB", "PT"];

// one locale in every calendar asked: "parent" where node writes the sample as the parent does,
// an alias of another locale measured before it that writes the sample alike, else its rows
if (process.argv[2] === "--parts") {
  const [tag, parent, calFile, ...names] = process.argv.slice(3);
  const table = JSON.parse(readFileSync(calFile, "utf8"));
  const language = tag.split("-")[0];
  const donors = tag.split("-").length === 2 && parent === language
    ? DONORS.map((r) => `${language}-${r}`).filter((d) => d !== tag && d < tag && measuredLocales().includes(d)) : [];
  const out = {};
  for (const name of names) {
    if (parent !== "-" && sameAsParent(tag, parent, name)) { out[name] = "parent"; continue; }
    const donor = donors.find((d) => sameAsParent(tag, d, name));
    if (donor) { out[name] = { rows: {}, gregorian: [], joins: null, alias: donor }; continue; }
    out[name] = partsOf(asked(tag, name), name === "gregory" ? asked(tag, name) : `${tag}-u-ca-gregory`, { name, ...table[name] });
  }
  const aliases = Object.entries(out).filter(([, m]) => m.alias).map(([cal, m]) => JSON.stringify({ tag, cal, donor: m.alias }));
  if (aliases.length) appendFileSync(join(tmpdir(), "intl_calendar_parts_aliases.jsonl"), aliases.join("\n") + "\n");
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
  await new Promise(() => {});
}

// --- the locales in every calendar, three at a time ---------------------------------------------
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
// the table in one file per calendar (each read on its first use) beside the keys, joins, locales
// and months: written from the whole, and read back into it
// (the dangi rows are the Chinese ones' file's, each locale's list kept as its differences from
// the Chinese list: {place: row})
const partFile = (cal) => `calendarparts-${cal}.json.gz`;
const SHARED = { dangi: "chinese" };
function split(data) {
  const { pool, rows, keys, calendars } = data.calendarParts;
  for (const [cal, tags] of Object.entries(calendars)) {
    if (SHARED[cal]) continue;
    const [pooled, rowed, p2, r2] = [new Map(), new Map(), [], []];
    const refP = (i) => {
      if (i < 0) return i;
      if (!pooled.has(i)) { pooled.set(i, p2.length); p2.push(pool[i]); }
      return pooled.get(i);
    };
    const refR = (i) => {
      if (i === null || i < 0) return i;
      if (!rowed.has(i)) { rowed.set(i, r2.length); r2.push(rows[i].map(refP)); }
      return rowed.get(i);
    };
    const t2 = Object.fromEntries(Object.entries(tags).map(([t, l]) => [t, l.map(refR)]));
    const shared = {};
    for (const [other, base] of Object.entries(SHARED)) {
      if (base !== cal || !calendars[other]) continue;
      shared[other] = Object.fromEntries(Object.entries(calendars[other]).map(([t, l]) => {
        const own = l.map(refR), theirs = t2[t];
        if (!theirs) return [t, own];
        return [t, Object.fromEntries(own.flatMap((v, i) => (v === theirs[i] ? [] : [[i, v]])))];
      }));
    }
    const file = { pool: p2, rows: r2, tags: t2, ...(Object.keys(shared).length ? { shared } : {}) };
    writeFileSync(new URL(partFile(cal), tables), gzipSync(JSON.stringify(file), { level: 9 }));
  }
  const { calendarParts, ...rest } = data;
  const bytes = gzipSync(JSON.stringify({ calendarPartKeys: keys, ...rest }), { level: 9 });
  writeFileSync(new URL("calendarparts.json.gz", tables), bytes);
}
function whole() {
  const small = read("calendarparts.json.gz");
  if (small.calendarParts) return small;
  const [pool, rows, calendars, pooledAt, rowAt] = [[], [], {}, new Map(), new Map()];
  for (const cal of Object.keys(small.calendarLocales)) {
    const shared = SHARED[cal] && read(partFile(SHARED[cal])).shared?.[cal] ? SHARED[cal] : null;
    const part = read(partFile(shared ?? cal));
    if (shared) {
      part.tags = Object.fromEntries(Object.entries(part.shared[cal]).map(([t, l]) => [t, Array.isArray(l) ? l
        : part.tags[t].map((v, i) => (String(i) in l ? l[i] : v))]));
    }
    // (a value or row in two files is one: the files' shared rows stay shared)
    const p2 = part.pool.map((v) => {
      const k = JSON.stringify(v);
      if (!pooledAt.has(k)) { pooledAt.set(k, pool.length); pool.push(v); }
      return pooledAt.get(k);
    });
    const r2 = part.rows.map((r) => {
      const row = r.map((i) => (i < 0 ? i : p2[i])), k = JSON.stringify(row);
      if (!rowAt.has(k)) { rowAt.set(k, rows.length); rows.push(row); }
      return rowAt.get(k);
    });
    calendars[cal] = Object.fromEntries(Object.entries(part.tags).map(([t, l]) => [t, l.map((i) => (i === null || i < 0 ? i : r2[i]))]));
  }
  const { calendarPartKeys, ...rest } = small;
  return { calendarParts: { pool, rows, keys: calendarPartKeys, calendars }, ...rest };
}
if (process.argv[2] === "--split") {
  split(whole());
  console.log("split core/expressions/js/intl/tables/calendarparts.json.gz");
  process.exit(0);
}
// --joins CAL...: the joins of the calendars named measured again where they are null
if (process.argv[2] === "--joins") {
  const small = read("calendarparts.json.gz");
  const names = process.argv.slice(3);
  const calTable = Object.fromEntries(names.map((c) => [c, { months: monthsOf(c), eras: erasOf(c) }]));
  let found = 0;
  for (const cal of names) {
    for (const [tag, joins] of Object.entries(small.calendarJoins[cal])) {
      if (joins !== null) continue;
      const again = joinsOnly(asked(tag, cal), { name: cal, ...calTable[cal] });
      if (again) { small.calendarJoins[cal][tag] = again; found++; }
    }
  }
  writeFileSync(new URL("calendarparts.json.gz", tables), gzipSync(JSON.stringify(small), { level: 9 }));
  console.log(`joins measured again: ${found} found`);
  process.exit(0);
}

// as scripts/intl_calendars.mjs: the locales whose Gregorian patterns differ from their parent's
// and those whose own calendar is another
function measuredLocales() {
  const own = (file) => JSON.parse(gunzipSync(readFileSync(new URL(`../core/expressions/js/intl/tables/${file}`, import.meta.url))));
  const [skeletonTags, dates] = [own("skeletons.json.gz").skeletons.tags, own("dates.json.gz").dates];
  return own("locales.json.gz").locales.date.filter((tag) =>
    tag in skeletonTags || tag in dates || ownCalendar(tag) !== "gregory");
}
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
const everyLocale = measuredLocales();
// measured: each language's own locale (no parent among them) and the regional ones named here
// (with their parents); flowctx refuses the other regional ones' sets that scripts/intl_calendars
// .mjs did not measure
const REGIONAL = ["en-GB", "en-IN", "en-001", "en-150", "en-AU", "en-CA", "de-AT", "de-CH", "fr-CA",
  "fr-CH", "es-419", "es-MX", "es-US", "pt-PT", "sr-Latn", "zh-Hant", "zh-Hant-HK", "ar-EG", "ar-SA",
  "it-CH", "nl-BE"];
const nearestIn = (list, tag) => {
  let p = parentOf(tag);
  while (p && !list.includes(p)) p = parentOf(p);
  return p;
};
const locales = everyLocale.filter((tag) => !nearestIn(everyLocale, tag) || REGIONAL.includes(tag)
  || REGIONAL.some((r) => r.startsWith(`${tag}-`)));
// each a phase of its own, whose table is written when it ends: the calendars measured so before,
// then the others
const PHASES = [["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla", "gregory"],
  ["coptic", "ethiopic", "ethioaa", "indian"], ["hebrew", "islamic", "islamic-umalqura", "islamic-rgsa", "iso8601"],
  ["chinese", "dangi"]];
const RUN = process.argv.length > 2 ? process.argv.slice(2) : [...CALENDARS, "gregory"];
const calTable = Object.fromEntries(RUN.map((c) => [c, { months: monthsOf(c), eras: erasOf(c) }]));
const calFile = join(tmpdir(), `intl_calendar_parts_${process.pid}.json`);
writeFileSync(calFile, JSON.stringify(calTable));

function child(tag, names) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--parts", tag, nearestIn(locales, tag) ?? "-", calFile, ...names]);
    let err = "";
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.stderr.on("data", (b) => { err += b; });
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8"), err }));
  });
}

const baseFile = process.argv.length > 2 ? whole() : null;
const base = baseFile?.calendarParts;
const pool = [...(base?.pool ?? [])], index = new Map(pool.map((v, i) => [JSON.stringify(v), i]));
const ref = (v) => {
  if (v === null || v === undefined) return -1;
  const k = JSON.stringify(v);
  if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
  return index.get(k);
};
const rows = [...(base?.rows ?? [])], rowIndex = new Map(rows.map((v, i) => [JSON.stringify(v), i]));
const keys = [...DATE_SETS, ...TIME_SETS].map(skeletonKey).sort();
if (base && JSON.stringify(base.keys) !== JSON.stringify(keys)) throw new Error("the table's keys changed: measure every calendar");
// each locale a list over the keys: a row's index, -1 none, -2 the locale's Gregorian row, null
// its parent's; pooled as each locale's rows arrive
const calendars = { ...(base?.calendars ?? {}) };
const joins = { ...(baseFile?.calendarJoins ?? {}) };
const covered = { ...(baseFile?.calendarLocales ?? {}) };
const indexed = Object.fromEntries(RUN.map((c) => [c, {}]));
const joinsOf = Object.fromEntries(RUN.map((c) => [c, {}]));
const aliases = Object.fromEntries(RUN.map((c) => [c, {}]));
function take(cal, tag, m) {
  if (m === "parent") return;
  if (m.alias) { aliases[cal][tag] = m.alias; return; }
  joinsOf[cal][tag] = m.joins;
  indexed[cal][tag] = keys.map((k) => {
    if (m.gregorian.includes(k)) return -2;
    const e = m.rows[k];
    if (e === undefined) return -1;
    // (the Chinese calendars' names of the cycle's years and of the days after a zone's place)
    const more = e.yn || e.dn ? [-1, ref(e.yn), ref(e.dn)] : [];
    const r = JSON.stringify([ref(e.t), ref(e.tm), ref(e.m), ref(e.w), ref(e.dp), ref(e.r), ref(e.e), ...more]);
    if (!rowIndex.has(r)) { rowIndex.set(r, rows.length); rows.push(JSON.parse(r)); }
    return rowIndex.get(r);
  });
}
function build(cal) {
  const lists = indexed[cal];
  const get = (tag, at) => {
    for (let t = tag; t; t = parentOf(t)) if (t in lists) return lists[t][at];
    return -1;
  };
  const joinOf = (tag) => {
    for (let t = tag; t; t = parentOf(t)) if (t in joinsOf[cal]) return joinsOf[cal][t];
    return null;
  };
  // a locale that writes as another measured before it has that one's rows and joins
  for (const [tag, donor] of Object.entries(aliases[cal])) {
    lists[tag] = keys.map((k, at) => get(donor, at));
    joinsOf[cal][tag] = joinOf(donor);
  }
  const tags = {};
  for (const tag of Object.keys(lists)) {
    const p = parentOf(tag);
    const list = lists[tag].map((v, at) => (p && get(p, at) === v ? null : v));
    if (list.some((v) => v !== null)) tags[tag] = list;
  }
  calendars[cal] = tags;
  joins[cal] = joinsOf[cal];
  covered[cal] = locales;
}
function write(note) {
  const data = {
    calendarParts: { pool, rows, keys, calendars },
    calendarJoins: joins,
    calendarLocales: covered,
    calendarMonths: { ...(baseFile?.calendarMonths ?? {}), ...Object.fromEntries(RUN.map((c) => [c, calTable[c].months.keys])) },
  };
  split(data);
  console.log(`wrote core/expressions/js/intl/tables/calendarparts*.json.gz (${note})`);
}

const aborted = [];
for (const phase of PHASES) {
  const names = phase.filter((c) => RUN.includes(c));
  if (!names.length) continue;
  // a locale's parent comes first (its rows are the sample's reference)
  const jobs = [...locales].sort((a, b) => a.split("-").length - b.split("-").length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const tag = jobs[next++];
      const asked = names.filter((c) => c !== "gregory" || ownCalendar(tag) !== "gregory");
      if (!asked.length) continue;
      const { code, out } = await child(tag, asked);
      if (code !== 0) { aborted.push(tag); continue; }
      for (const [cal, m] of Object.entries(JSON.parse(out))) take(cal, tag, m);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  names.forEach(build);
  write(`${names.join(" ")}; aborted ${aborted.join(" ") || "none"}`);
}
