// Writes core/expressions/js/intl/tables/calendarstyles.json.gz: the styles with a zone's name
// (timeStyle full and long, alone and beside each dateStyle) in every calendar other than the
// Gregorian, and in the Gregorian for the locales whose own calendar is another (fa, th...),
// which scripts/intl_calendars.mjs leaves out; for those locales, every style with a time in
// each hour cycle too. Each row is the style's pattern with the
// calendar's names (scripts/intl_calendar_rows.mjs's calendarRow) and UTC's name as the locale
// writes it in the style; the zone's name of any other zone is flowctx's zone names'. A row is
// kept only where it rebuilds node's text on sixteen dates. Locales as in
// scripts/intl_calendars.mjs (a locale whose Gregorian patterns are its parent's has its
// parent's here too), each kept only where it differs from its parent. Run with the node whose
// answers flowctx reproduces (about 12 minutes, three child processes at a time):
//   node scripts/intl_calendar_styles.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { calendarRow, digitsOf, erasOf, monthsOf, rebuild } from "./intl_calendar_rows.mjs";
import { parentPruned, rowPool } from "./intl_rows.mjs";

const CALENDARS = ["japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla", "coptic",
  "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura", "iso8601",
  "chinese", "dangi"];
const STYLES = {};
for (const timeStyle of ["full", "long"]) {
  for (const dateStyle of [undefined, "full", "long", "medium", "short"]) {
    const key = dateStyle ? `dateStyle=${dateStyle},timeStyle=${timeStyle}` : `timeStyle=${timeStyle}`;
    STYLES[key] = dateStyle ? { dateStyle, timeStyle } : { timeStyle };
  }
}
// and, for the locales whose own calendar is another, every style with a time in each hour
// cycle (hour12 is one of them to V8: th's h11 for true)
const CYCLE_STYLES = {};
for (const timeStyle of ["full", "long", "medium", "short"]) {
  for (const dateStyle of [undefined, "full", "long", "medium", "short"]) {
    for (const hourCycle of ["h11", "h12", "h23", "h24"]) {
      const key = [dateStyle && `dateStyle=${dateStyle}`, `hourCycle=${hourCycle}`, `timeStyle=${timeStyle}`].filter(Boolean).join(",");
      CYCLE_STYLES[key] = { ...(dateStyle ? { dateStyle } : {}), hourCycle, timeStyle };
    }
  }
}
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);

let seed = 31;
const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };

// --- one locale's rows in every calendar (a child process: node aborts on a few patterns) ----
function rowsOf(tag, calTable, skip) {
  const digits = digitsOf(tag);
  const own = new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
  const out = {};
  for (const name of [...CALENDARS, ...(own === "gregory" ? [] : ["gregory"])]) {
    const cal = { name, ...calTable[name] };
    const asked = own === name ? tag : `${tag}-u-ca-${name}`;
    const rows = {};
    for (const [key, opts] of Object.entries(own === "gregory" ? STYLES : { ...STYLES, ...CYCLE_STYLES })) {
      if (skip.includes(`${name}:${key}`)) continue;
      process.stderr.write(`style ${name}:${key}\n`);
      const row = calendarRow(asked, cal, opts, digits);
      // UTC's name, as the style writes it (the zone's piece is a name: "t")
      const zone = row.f.formatToParts(0).find((p) => p.type === "timeZoneName")?.value;
      if (zone === undefined && !key.includes("hourCycle")) continue;
      const withZone = (r) => ({ ...r, t: r.t.map((p) => (Array.isArray(p) && p[0] === "timeZoneName" ? zone : p)),
        tm: r.tm && r.tm.map((t) => t.map((p) => (Array.isArray(p) && p[0] === "timeZoneName" ? zone : p))) });
      let ok = true;
      for (let i = 0; i < 16 && ok; i++) {
        const t = Date.UTC(1990 + rnd(60), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60));
        // (formatToParts keeps ICU's narrow no-break spaces, which format swaps for plain ones)
        if (rebuild(withZone(row), t, cal, digits) !== row.f.formatToParts(t).map((p) => p.value).join("")) ok = false;
      }
      delete row.f;
      if (ok) rows[key] = { ...row, z: zone };
    }
    out[name] = rows;
  }
  return out;
}

if (process.argv[2] === "--rows") {
  const [tag, calFile, ...skip] = process.argv.slice(3);
  const rows = rowsOf(tag, JSON.parse(readFileSync(calFile, "utf8")), skip);
  process.stdout.write(JSON.stringify(rows), () => process.exit(0));
  await new Promise(() => {});
}

// --- the whole table ------------------------------------------------------------------------
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const skeletonTags = read("skeletons.json.gz").skeletons.tags;
const dateRows = read("dates.json.gz").dates;
const locales = read("locales.json.gz").locales.date.filter((tag) => tag in skeletonTags || tag in dateRows
  || new Intl.DateTimeFormat(tag).resolvedOptions().calendar !== "gregory");
const calTable = Object.fromEntries([...CALENDARS, "gregory"].map((c) => [c, { months: monthsOf(c), eras: erasOf(c) }]));
const calFile = join(tmpdir(), `intl_calendar_styles_${process.pid}.json`);
writeFileSync(calFile, JSON.stringify(calTable));

function child(tag, skip) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--rows", tag, calFile, ...skip]);
    const chunks = [];
    let err = "";
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.stderr.on("data", (b) => { err += b; });
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8"), err }));
  });
}
// node aborts on a few patterns (gl's): the style it aborted on is left out and the rest measured
async function measure(tag) {
  const skip = [];
  for (;;) {
    const { code, out, err } = await child(tag, skip);
    if (code === 0) return { rows: JSON.parse(out), skip };
    const last = err.split("\n").filter((l) => l.startsWith("style ")).at(-1);
    if (!last || skip.length > 20) return null;
    skip.push(last.slice("style ".length));
  }
}
const measured = {};  // calendar -> tag -> key -> row
const failed = [];
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    const found = await measure(tag);
    if (found === null) { failed.push(tag); continue; }
    if (found.skip.length) failed.push(...found.skip.map((s) => `${tag}:${s}`));
    for (const [cal, rows] of Object.entries(found.rows)) (measured[cal] ??= {})[tag] = rows;
  }
}
await Promise.all([worker(), worker(), worker()]);

// pooled as scripts/intl_calendars.mjs pools its rows: [t, tm, m, w, dp, r, e, z (UTC's name)]
const { pool, rows, row } = rowPool();
const keys = Object.keys({ ...STYLES, ...CYCLE_STYLES }).sort();
const calendars = {};
for (const [cal, byTag] of Object.entries(measured)) {
  const indexed = {};
  for (const [tag, found] of Object.entries(byTag)) {
    indexed[tag] = keys.map((k) => {
      const e = found[k];
      if (e === undefined) return -1;
      const more = e.yn || e.dn ? [e.yn ?? null, e.dn ?? null] : [];
      return row([e.t, e.tm, e.m, e.w, e.dp, e.r, e.e, e.z, ...more]);
    });
  }
  calendars[cal] = parentPruned(indexed);
}
const data = { calendarStyles: { pool, rows, keys, calendars }, calendarStylesFailed: failed.sort() };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("calendarstyles.json.gz", tables), bytes);
const kept = Object.values(measured).flatMap((byTag) => Object.values(byTag)).reduce((n, r) => n + Object.keys(r).length, 0);
console.log(`wrote core/expressions/js/intl/tables/calendarstyles.json.gz: ${bytes.length} bytes; ${locales.length} locales, ${kept} rows kept of ${locales.length * Object.keys(STYLES).length * CALENDARS.length}+; aborted ${failed.join(" ") || "none"}`);
