// Writes core/expressions/js/intl/tables/dateintervals.json.gz: what ICU's DateIntervalFormat
// builds formatRange's intervals from, in each locale whose own calendar is the Gregorian, for
// the option sets no table measured whole (core/expressions/js/intl/intervals.py builds them):
//   - "i": the interval pattern of each CLDR interval skeleton (intervalFormats: yMMMd, hm, Hmv...)
//     for each greatest differing field (y, M, d, a, h, m), recovered as a pattern (its letters
//     told by the texts of each field over several pairs of instants, checked by rebuilding
//     node's formatRangeToParts, parts and sources, on each pair): measured on the option set
//     whose pattern's skeleton IS the interval skeleton, so that ICU takes the skeleton's own
//     pattern (or, for a field the skeleton has no pattern for, what ICU makes of it for that
//     request: the fallback, null, or a longer skeleton's pattern); "?" where no pattern
//     rebuilds node's parts;
//   - "w": the hour's width in the patterns ICU's generator writes without the option's width
//     (formatRange's dates written in full: "03:04" in de where format writes "3:04"), per
//     hour cycle, time fields and zone name, and with a weekday alone beside hours, minutes and
//     seconds (ICU's own "Ehms" pattern);
//   - "L": the option sets of a month's name without a day whose pattern writes the stand-alone
//     month (LLL, which ICU's interval skeletons do not have): told by a range of two months
//     with an hour, where ICU adds the day before a stand-alone month;
//   - "B": the hour cycles whose interval patterns write the flexible day periods (ICU asks its
//     generator for the hour alone: zh-Hant's "Bh時"), where they are not the am/pm ones;
//   - "g": the date-and-time pattern ICU joins a date with a time interval by, as
//     [order, before, between, after].
//   - "D": the sets of date fields whose dates ICU's generator writes otherwise than V8 for the
//     fields it asks, by the field that differs (d, M, y; h: a day's two times; P: the dates
//     alone), where ICU writes them in full.
// A locale's entries are kept where they differ from its parent's; a task node aborts on
// (gd's, sc's) is left out, named in dateIntervalsAborted. Run with the node flowctx reproduces
// (10 to 15 minutes, three child processes at a time; a run stopped midway goes on where it
// stopped when run again):
//   node scripts/intl_date_intervals.mjs
import { appendFileSync, existsSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const at = (y, mo, d, h, mi, s) => Date.UTC(y, mo, d, h, mi, s);
// (the checks import this file's functions)
const MAIN = process.argv[1] === fileURLToPath(import.meta.url);

// ICU's interval skeletons (CLDR's intervalFormats, every locale inheriting root's) and the
// option set whose pattern's skeleton each is
export const DATE_SKELETONS = {
  d: { day: "numeric" }, y: { year: "numeric" }, M: { month: "numeric" }, MMM: { month: "short" },
  Md: { month: "numeric", day: "numeric" }, MEd: { month: "numeric", day: "numeric", weekday: "short" },
  MMMd: { month: "short", day: "numeric" }, MMMEd: { month: "short", day: "numeric", weekday: "short" },
  yM: { year: "numeric", month: "numeric" }, yMd: { year: "numeric", month: "numeric", day: "numeric" },
  yMEd: { year: "numeric", month: "numeric", day: "numeric", weekday: "short" },
  yMMM: { year: "numeric", month: "short" }, yMMMd: { year: "numeric", month: "short", day: "numeric" },
  yMMMEd: { year: "numeric", month: "short", day: "numeric", weekday: "short" },
  yMMMM: { year: "numeric", month: "long" },
  Gy: { era: "short", year: "numeric" }, GyM: { era: "short", year: "numeric", month: "numeric" },
  GyMd: { era: "short", year: "numeric", month: "numeric", day: "numeric" },
  GyMEd: { era: "short", year: "numeric", month: "numeric", day: "numeric", weekday: "short" },
  GyMMM: { era: "short", year: "numeric", month: "short" },
  GyMMMd: { era: "short", year: "numeric", month: "short", day: "numeric" },
  GyMMMEd: { era: "short", year: "numeric", month: "short", day: "numeric", weekday: "short" },
};
// skeletons some locales have besides root's, with a long month or weekday (es's yMMMMd: "d 'de'
// MMMM 'de' y"): kept where a locale's patterns for them are not its shorter skeleton's widened
export const WIDER = {
  MMMMd: "MMMd", MMMMEd: "MMMEd", MMMEEEEd: "MMMEd", MMMMEEEEd: "MMMEd", MEEEEd: "MEd",
  yMMMMd: "yMMMd", yMMMMEd: "yMMMEd", yMMMEEEEd: "yMMMEd", yMMMMEEEEd: "yMMMEd", yMEEEEd: "yMEd",
  GyMMMMd: "GyMMMd", GyMMMMEd: "GyMMMEd", GyMMMMEEEEd: "GyMMMEd",
};
for (const [wide, base] of Object.entries(WIDER)) {
  const o = { ...DATE_SKELETONS[base] };
  if (wide.includes("MMMM")) o.month = "long";
  if (wide.includes("EEEE")) o.weekday = "long";
  DATE_SKELETONS[wide] = o;
}
export const TIME_SKELETONS = {
  h: { hour: "numeric", hourCycle: "h12" }, H: { hour: "numeric", hourCycle: "h23" },
  hm: { hour: "numeric", minute: "2-digit", hourCycle: "h12" }, Hm: { hour: "numeric", minute: "2-digit", hourCycle: "h23" },
  hv: { hour: "numeric", timeZoneName: "shortGeneric", hourCycle: "h12" },
  Hv: { hour: "numeric", timeZoneName: "shortGeneric", hourCycle: "h23" },
  hmv: { hour: "numeric", minute: "2-digit", timeZoneName: "shortGeneric", hourCycle: "h12" },
  Hmv: { hour: "numeric", minute: "2-digit", timeZoneName: "shortGeneric", hourCycle: "h23" },
};
// the zone the skeletons with a zone's name are measured in (a fixed offset: the pairs of
// instants differ first where they are built to, and its generic and specific names differ)
const ZONE = "America/Phoenix";
const ZONE_OFFSET = 7 * 3600000;

// pairs of instants (as UTC fields) that differ first in a field, several per field so that a
// field's letter is told apart (h and K at 0 and 13 o'clock, month names of four months)
const PAIRS = {
  y: [[[2006, 0, 5, 0, 4, 5], [2007, 5, 17, 13, 34, 45]], [[2006, 10, 25, 14, 7, 9], [2009, 1, 3, 2, 50, 20]],
    [[1999, 8, 9, 11, 59, 59], [2001, 3, 30, 12, 0, 0]]],
  M: [[[2006, 0, 5, 0, 4, 5], [2006, 5, 17, 13, 34, 45]], [[2006, 10, 25, 14, 7, 9], [2006, 11, 3, 2, 50, 20]],
    [[1999, 2, 9, 11, 59, 59], [1999, 7, 30, 12, 0, 0]]],
  d: [[[2006, 0, 5, 0, 4, 5], [2006, 0, 17, 13, 34, 45]], [[2006, 10, 25, 14, 7, 9], [2006, 10, 26, 2, 50, 20]],
    [[1999, 6, 9, 11, 59, 59], [1999, 6, 30, 12, 0, 0]], [[2006, 0, 2, 3, 4, 5], [2006, 0, 8, 5, 6, 7]]],
  a: [[[2006, 0, 5, 0, 4, 5], [2006, 0, 5, 13, 34, 45]], [[2006, 10, 25, 9, 7, 9], [2006, 10, 25, 23, 50, 20]],
    [[1999, 6, 9, 11, 59, 59], [1999, 6, 9, 12, 0, 0]]],
  h: [[[2006, 0, 5, 0, 4, 5], [2006, 0, 5, 2, 34, 45]], [[2006, 10, 25, 13, 7, 9], [2006, 10, 25, 22, 50, 20]],
    [[1999, 6, 9, 10, 59, 59], [1999, 6, 9, 11, 0, 0]]],
  m: [[[2006, 0, 5, 0, 4, 5], [2006, 0, 5, 0, 34, 45]], [[2006, 10, 25, 13, 7, 9], [2006, 10, 25, 13, 50, 20]],
    [[1999, 6, 9, 11, 9, 59], [1999, 6, 9, 11, 10, 0]], [[2006, 0, 5, 1, 2, 5], [2006, 0, 5, 1, 8, 45]]],
};
const LETTERS_OF_DATE = ["y", "M", "d"];
const LETTERS_OF_TIME = ["a", "h", "m"];

// ---- ICU's formatting of a pattern, as V8 reads it back (shared with the checks) -----------

const TYPES = { G: "era", y: "year", M: "month", L: "month", d: "day", E: "weekday", c: "weekday",
  a: "dayPeriod", h: "hour", H: "hour", K: "hour", k: "hour", m: "minute", s: "second",
  z: "timeZoneName", v: "timeZoneName", O: "timeZoneName" };

// a pattern's items: literal texts and [letter, count] fields
export function parsePattern(p) {
  const out = [];
  let i = 0;
  const lit = (s) => { if (typeof out[out.length - 1] === "string") out[out.length - 1] += s; else out.push(s); };
  while (i < p.length) {
    const c = p[i];
    if (c === "'") {
      if (p[i + 1] === "'") { lit("'"); i += 2; continue; }
      let j = i + 1, s = "";
      while (j < p.length) {
        if (p[j] === "'" && p[j + 1] === "'") { s += "'"; j += 2; continue; }
        if (p[j] === "'") break;
        s += p[j++];
      }
      lit(s); i = j + 1; continue;
    }
    if (/[A-Za-z]/.test(c)) {
      let j = i;
      while (p[j] === c) j++;
      out.push([c, j - i]); i = j; continue;
    }
    lit(c); i++;
  }
  return out;
}
export function writePattern(items) {
  return items.map((it) => (typeof it === "string"
    ? (/[A-Za-z']/.test(it) ? `'${it.replace(/'/g, "''")}'` : it)
    : it[0].repeat(it[1]))).join("");
}
// ICU's splitPatternInto2Part: the second part starts at the first field whose letter came
// before (the pattern as items: a letter's run is one field)
export function splitAt(items) {
  const seen = new Set();
  for (let i = 0; i < items.length; i++) {
    if (typeof items[i] === "string") continue;
    if (seen.has(items[i][0])) return i;
    seen.add(items[i][0]);
  }
  return items.length;
}

// the text of one field at an instant (UTC fields, the zone's offset already added)
function fieldText(ctx, letter, count, t) {
  const d = new Date(t);
  const y = d.getUTCFullYear(), mo = d.getUTCMonth(), day = d.getUTCDate(), h = d.getUTCHours();
  const num = (n, w) => String(n).padStart(w, "0").replace(/[0-9]/g, (c) => ctx.digits[Number(c)]);
  switch (letter) {
    case "y": return count === 2 ? num(y % 100, 2) : num(y, count);
    case "M": case "L":
      if (count <= 2) return num(mo + 1, count);
      return ctx.names[`${letter}${count}`]?.[mo];
    case "d": return num(day, count);
    case "E": case "c": return ctx.names[`${letter}${Math.max(count, 3)}`]?.[d.getUTCDay()];
    case "G": return ctx.names[`G${count <= 3 ? 1 : count}`]?.[1];
    case "a": return count === 1 ? (h < 12 ? ctx.am : ctx.pm) : undefined;
    case "h": return num(h % 12 || 12, count);
    case "K": return num(h % 12, count);
    case "H": return num(h, count);
    case "k": return num(h || 24, count);
    case "m": return num(d.getUTCMinutes(), count);
    case "s": return num(d.getUTCSeconds(), count);
    case "z": case "v": case "O": return ctx.zones[`${letter}${count}`];
  }
  return undefined;
}

// ICU's format of an interval pattern (its first part with the first instant, the rest with
// the second), its spans (the fields written twice) and the parts V8 makes of them
export function rangeParts(ctx, items, t1, t2, laterFirst = false) {
  const cut = splitAt(items);
  const [first, second] = laterFirst ? [t2, t1] : [t1, t2];
  const pieces = items.map((it, i) => {
    if (typeof it === "string") return { text: it };
    const text = fieldText(ctx, it[0], it[1], i < cut ? first : second);
    return { text, letter: it[0] };
  });
  return partsOf(pieces, laterFirst ? 1 : 0);
}
export function partsOf(pieces, firstIndex) {
  if (pieces.some((p) => p.text === undefined)) return null;
  let pos = 0;
  const fields = [];
  for (const p of pieces) {
    p.start = pos; pos += p.text.length; p.limit = pos;
    if (p.letter !== undefined && p.text !== "") fields.push(p);
  }
  const text = pieces.map((p) => p.text).join("");
  // ICU's addOverlapSpans: each field's first repetition
  let s1a = Infinity, s1b = 0, s2a = Infinity, s2b = 0;
  for (let i = 0; i < fields.length; i++) {
    for (let j = i + 1; j < fields.length; j++) {
      if (fields[i].letter !== fields[j].letter) continue;
      s1a = Math.min(s1a, fields[i].start); s1b = Math.max(s1b, fields[i].limit);
      s2a = Math.min(s2a, fields[j].start); s2b = Math.max(s2b, fields[j].limit);
      break;
    }
  }
  if (s1a === Infinity) return { text, parts: null };
  const spans = [[s1a, s1b], [s2a, s2b]];
  if (firstIndex === 1) spans.reverse();
  const source = (a, b) => {
    if (spans[0][0] <= a && b <= spans[0][1]) return "startRange";
    if (spans[1][0] <= a && b <= spans[1][1]) return "endRange";
    return "shared";
  };
  const parts = [];
  let prev = 0;
  for (const f of fields) {
    if (f.start > prev) parts.push({ type: "literal", value: text.slice(prev, f.start), source: source(prev, f.start) });
    parts.push({ type: TYPES[f.letter], value: f.text, source: source(f.start, f.limit) });
    prev = f.limit;
  }
  if (text.length > prev) parts.push({ type: "literal", value: text.slice(prev), source: source(prev, text.length) });
  return { text, parts };
}

// ICU's adjustFieldWidth for a skeleton that differs in widths only: a field the pattern writes
// at the skeleton's own width is widened to the asked one
export function widened(pattern, asked, best) {
  const count = (sk) => { const o = {}; for (const c of sk) o[c] = (o[c] ?? 0) + 1; return o; };
  const [theirs, ours] = [count(best), count(asked)];
  const later = pattern.startsWith("latestFirst:");
  const items = parsePattern(pattern.replace(/^latestFirst:/, "")).map((it) => {
    if (typeof it === "string") return it;
    const c = it[0] === "L" ? "M" : it[0];
    return (theirs[c] ?? 0) === it[1] && (ours[c] ?? 0) > it[1] ? [it[0], ours[c]] : it;
  });
  return (later ? "latestFirst:" : "") + writePattern(items);
}

// ---- one locale's measurement -------------------------------------------------------------

export function context(tag) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  const digits = [ds[9], ...ds.slice(0, 9)];
  const fmt = (o, zone = "UTC") => new Intl.DateTimeFormat(tag, { timeZone: zone, ...o });
  const part = (f, t, type) => f.formatToParts(t).find((p) => p.type === type)?.value;
  const names = {};
  const widths = { 3: "short", 4: "long", 5: "narrow" };
  for (const [count, w] of Object.entries(widths)) {
    const withDay = fmt({ month: w, day: "numeric" }), alone = fmt({ month: w });
    names[`M${count}`] = Array.from({ length: 12 }, (_, mo) => part(withDay, at(2006, mo, 5, 3, 4, 5), "month"));
    names[`L${count}`] = Array.from({ length: 12 }, (_, mo) => part(alone, at(2006, mo, 5, 3, 4, 5), "month"));
    const wd = fmt({ weekday: w, day: "numeric" }), wa = fmt({ weekday: w });
    // 2006-01-01 is a Sunday: the names in getUTCDay's order
    names[`E${count}`] = Array.from({ length: 7 }, (_, i) => part(wd, at(2006, 0, 1 + i, 3, 4, 5), "weekday"));
    names[`c${count}`] = Array.from({ length: 7 }, (_, i) => part(wa, at(2006, 0, 1 + i, 3, 4, 5), "weekday"));
  }
  for (const [count, w] of [[1, "short"], [4, "long"], [5, "narrow"]]) {
    const f = fmt({ era: w, year: "numeric" });
    names[`G${count}`] = [part(f, Date.UTC(-500, 0, 5), "era"), part(f, at(2006, 0, 5, 3, 4, 5), "era")];
  }
  const h12 = fmt({ hour: "numeric", hour12: true });
  const am = part(h12, at(2006, 0, 5, 3, 4, 5), "dayPeriod"), pm = part(h12, at(2006, 0, 5, 15, 4, 5), "dayPeriod");
  const zones = {};
  for (const [key, style] of [["z1", "short"], ["z4", "long"], ["v1", "shortGeneric"], ["v4", "longGeneric"], ["O1", "shortOffset"], ["O4", "longOffset"]]) {
    zones[key] = part(fmt({ hour: "numeric", timeZoneName: style }, ZONE), at(2006, 0, 5, 3, 4, 5), "timeZoneName");
  }
  return { tag, digits, names, am, pm, zones, fmt, calendar: base.calendar };
}

// the letters a field's text can be written by, the likeliest first
function candidates(type, skeleton) {
  const count = (ch) => [...skeleton].filter((c) => c === ch).length;
  switch (type) {
    case "year": return [["y", 1], ["y", 2]];
    case "month": {
      const n = count("M");
      const first = n >= 3 ? [["M", n], ["L", n]] : [["M", 1], ["M", 2]];
      return [...first, ["M", 1], ["M", 2], ["M", 3], ["M", 4], ["M", 5], ["L", 3], ["L", 4], ["L", 5]];
    }
    case "day": return [["d", 1], ["d", 2]];
    // (E, EE and EEE write the same names: the skeleton's own width first, which ICU widens)
    case "weekday": return [["E", count("E") || 1], ["E", 3], ["E", 4], ["E", 5], ["c", 3], ["c", 4], ["c", 5]];
    case "era": return [["G", count("G") || 1], ["G", 4], ["G", 5]];
    case "dayPeriod": return [["a", 1]];
    case "hour": return skeleton.includes("H")
      ? [["H", 1], ["H", 2], ["k", 1], ["k", 2], ["h", 1], ["h", 2], ["K", 1], ["K", 2]]
      : [["h", 1], ["h", 2], ["K", 1], ["K", 2], ["H", 1], ["H", 2], ["k", 1], ["k", 2]];
    case "minute": return [["m", 2], ["m", 1]];
    case "second": return [["s", 2], ["s", 1]];
    case "timeZoneName": return [["v", 1], ["z", 1], ["v", 4], ["z", 4], ["O", 1], ["O", 4]];
  }
  return [];
}

// the interval pattern behind node's parts on several pairs: each field's letter is one that
// writes its text on every pair (a shared field may be either instant's), the likeliest first;
// checked by rebuilding every pair's parts
export function recover(ctx, skeleton, outs) {
  const n = outs[0].parts.length;
  if (outs.some((o) => o.parts.length !== n)) return null;
  const items = [];
  const fits = (i, [letter, count]) => outs.every((o) => {
    const q = o.parts[i];
    const ts = q.source === "startRange" ? [o.a] : q.source === "endRange" ? [o.b] : [o.a, o.b];
    return ts.some((t) => fieldText(ctx, letter, count, t) === q.value);
  });
  // a type's fields are written by one letter and width where the texts allow (an hour that
  // is 10 or more is h's and K's, 13 or more H's and HH's)
  const chosen = {};
  for (let i = 0; i < n; i++) {
    const p = outs[0].parts[i];
    if (outs.some((o) => o.parts[i].type !== p.type)) return null;
    if (p.type === "literal") {
      if (outs.some((o) => o.parts[i].value !== p.value)) return null;
      items.push(p.value); continue;
    }
    const all = candidates(p.type, skeleton).filter((c) => fits(i, c));
    if (!all.length) return null;
    items.push(all);
    for (const c of all) (chosen[p.type] ??= []).push(c);
  }
  // the letter and width fitting most of the type's fields
  for (let i = 0; i < items.length; i++) {
    if (typeof items[i] === "string") continue;
    const type = outs[0].parts[i].type;
    const score = (c) => chosen[type].filter((d) => d[0] === c[0] && d[1] === c[1]).length;
    let best = items[i][0];
    for (const c of items[i]) if (score(c) > score(best)) best = c;
    items[i] = best;
  }
  // literals next to each other are one
  const merged = [];
  for (const it of items) {
    if (typeof it === "string" && typeof merged[merged.length - 1] === "string") merged[merged.length - 1] += it;
    else merged.push(it);
  }
  for (const laterFirst of [false, true]) {
    if (outs.every((o) => {
      const r = rangeParts(ctx, merged, o.a, o.b, laterFirst);
      return r && r.parts && JSON.stringify(r.parts) === JSON.stringify(o.parts);
    })) return (laterFirst ? "latestFirst:" : "") + writePattern(merged);
  }
  return null;
}

// a set's date fields as ICU's interval skeleton normalizes them (the era's width aside)
function normalized(o) {
  const month = { numeric: "M", "2-digit": "M", short: "MMM", long: "MMMM", narrow: "MMMMM" }[o.month] ?? "";
  const weekday = { short: "E", long: "EEEE", narrow: "EEEEE" }[o.weekday] ?? "";
  return (o.era ? "G" : "") + ({ numeric: "y", "2-digit": "yy" }[o.year] ?? "") + month + weekday + (o.day ? "d" : "");
}

const strip = (parts) => parts.map((p) => ({ type: p.type, value: p.value, source: p.source }));


// the date option sets without a day whose month ICU may read as stand-alone (LLL): each era,
// year, month and weekday width
export const MONTH_SHAPES = [];
for (const era of [null, "short", "long", "narrow"]) for (const year of [null, "numeric", "2-digit"]) {
  for (const month of ["numeric", "2-digit", "short", "long", "narrow"]) for (const weekday of [null, "short", "long", "narrow"]) {
    const o = { month };
    if (era) o.era = era;
    if (year) o.year = year;
    if (weekday) o.weekday = weekday;
    MONTH_SHAPES.push(o);
  }
}
export const shapeKey = (o) => Object.keys(o).sort().map((k) => `${k}=${o[k]}`).join(",");

// whether a set's pattern writes the stand-alone month: a range of two months with an hour,
// where ICU adds the day (its skeleton has no M) before the month
function standalone(ctx, shape) {
  const f = ctx.fmt({ ...shape, hour: "numeric" });
  const parts = f.formatRangeToParts(at(2006, 0, 5, 3, 4, 5), at(2006, 5, 17, 13, 34, 45));
  return parts.some((p) => p.type === "day");
}

function measureSkeleton(ctx, skeleton, options, letters, zone) {
  const offset = zone ? ZONE_OFFSET : 0;
  const f = ctx.fmt(options, zone ?? "UTC");
  // ICU takes the skeleton's own pattern only where the set's pattern has its fields at
  // these widths (ja's long month is numeric), as ICU normalizes them (MM is M, dd d)
  // (V8's resolved options read a quoted word's letters too: pt's "MMM 'de' y" has a day)
  const r = { ...f.resolvedOptions() };
  const types = new Set(f.formatToParts(at(2006, 0, 5, 3, 4, 5)).map((p) => p.type));
  for (const k of ["era", "year", "month", "weekday", "day"]) if (!types.has(k)) delete r[k];
  if (normalized(r) !== normalized(options)) return null;
  if (options.hourCycle && r.hourCycle !== options.hourCycle) return null;
  const levels = {};
  for (const letter of letters) {
    const outs = PAIRS[letter].map(([x, y]) => {
      const a = at(...x), b = at(...y);
      return { a, b, parts: strip(f.formatRangeToParts(a + offset, b + offset)) };
    });
    if (outs.every((o) => o.parts.every((p) => p.source === "shared"))) { levels[letter] = 0; continue; }
    const found = recover(ctx, skeleton, outs);
    // (a skeleton with a long weekday asked is its own width already)
    levels[letter] = found === null ? "?" : skeleton.includes("EEEE") ? found : widths(ctx, skeleton, options, letter, found, offset, zone);
  }
  return levels;
}

// an era or weekday name a pattern writes at the skeleton's own width (G, E) ICU widens to the
// width asked (GGGG); one it writes at another width it keeps (ko's GGGGG, "AD", the short name
// too; my's EEEE, its short names the long ones): told by the same ranges asked with long and
// with narrow names, which ICU answers by this skeleton widened
function widths(ctx, skeleton, options, letter, pattern, offset, zone) {
  if (!("era" in options) && !("weekday" in options)) return pattern;
  const later = pattern.startsWith("latestFirst:");
  const items = parsePattern(pattern.replace(/^latestFirst:/, ""));
  const requests = ["long", "narrow"].map((width) => {
    const wide = { ...options };
    let asked = skeleton;
    const n = width === "long" ? 4 : 5;
    if ("era" in options) { wide.era = width; asked = asked.replace("G", "G".repeat(n)); }
    if ("weekday" in options) { wide.weekday = width; asked = asked.replace("E", "E".repeat(n)); }
    const f = ctx.fmt(wide, zone ?? "UTC");
    const outs = PAIRS[letter].map(([x, y]) => {
      const a = at(...x), b = at(...y);
      return { a, b, parts: strip(f.formatRangeToParts(a + offset, b + offset)) };
    });
    return { asked, outs };
  });
  const fits = (its) => {
    const text = (later ? "latestFirst:" : "") + writePattern(its);
    return requests.every(({ asked, outs }) => {
      const w = parsePattern(widened(text, asked, skeleton).replace(/^latestFirst:/, ""));
      return outs.every((o) => {
        const r = rangeParts(ctx, w, o.a, o.b, later);
        return r && r.parts && JSON.stringify(r.parts) === JSON.stringify(o.parts);
      });
    });
  };
  if (fits(items)) return pattern;
  // the widths writing the same names as the one recovered
  const key = (c, n) => (c === "G" ? `G${n <= 3 ? 1 : n}` : `E${Math.max(n, 3)}`);
  const alike = (c, n) => [1, 4, 5].filter((m) => JSON.stringify(ctx.names[key(c, m)]) === JSON.stringify(ctx.names[key(c, n)]));
  const at_ = items.map((it, k) => (typeof it !== "string" && "GE".includes(it[0]) ? k : -1)).filter((k) => k >= 0);
  let variants = [items];
  for (const k of at_) {
    variants = variants.flatMap((v) => alike(v[k][0], v[k][1]).map((m) => v.map((it, i) => (i === k ? [it[0], m] : it))));
  }
  // (a letter's fields keep one width)
  const one = variants.filter((v) => ["G", "E"].every((c) => new Set(v.filter((it) => it[0] === c).map((it) => it[1])).size <= 1));
  const found = one.find((v) => fits(v));
  // (else the wider skeleton is one of the locale's own: es's yMMMMd)
  return found ? (later ? "latestFirst:" : "") + writePattern(found) : pattern;
}

// the sets of date fields whose dates ICU's generator writes otherwise than V8 (V8 asks its
// generator for the option set's fields; ICU for the skeleton of V8's pattern, and, where a
// date with a time differs in a field the pattern does not have, for that skeleton with the day,
// month and year added: a stand-alone month or weekday (LLL, ccc) finds other patterns than the
// option's MMM, EEE in ja's "M/dEEEE"; a field V8's generator appended, "(maand: M)", is read
// back as the pattern's own): each set with an hour, for two days, months and years and two
// hours of a day, where the dates ICU writes are not V8's for the fields it asks
export const DATE_SHAPES = [];
for (const era of [null, "short", "long", "narrow"]) for (const year of [null, "numeric", "2-digit"]) {
  for (const month of [null, "numeric", "2-digit", "short", "long", "narrow"]) for (const weekday of [null, "short", "long", "narrow"]) {
    for (const day of [null, "numeric"]) {
      const o = {};
      if (era) o.era = era;
      if (year) o.year = year;
      if (month) o.month = month;
      if (weekday) o.weekday = weekday;
      if (day) o.day = day;
      // (an era beside a weekday is left out, refused: node aborts on ranges of some
      // locales' eras with weekdays)
      if (era && weekday) continue;
      if (Object.keys(o).length) DATE_SHAPES.push(o);
    }
  }
}
const CHECKS = { d: [[2006, 0, 5, 3, 4, 5], [2006, 0, 17, 13, 34, 45]], M: [[2006, 0, 5, 3, 4, 5], [2006, 5, 17, 13, 34, 45]],
  y: [[2006, 0, 5, 3, 4, 5], [2007, 5, 17, 13, 34, 45]], h: [[2006, 0, 5, 3, 4, 5], [2006, 0, 5, 5, 34, 45]] };
function generatorDates(ctx, shape, standaloneMonth) {
  const time = { hour: "numeric", hourCycle: "h23" };
  const f = ctx.fmt({ ...shape, ...time });
  const text = (o, t) => ctx.fmt(o).formatToParts(t).map((p) => p.value).join("");
  const bad = [];
  for (const [letter, [x, y]] of Object.entries(CHECKS)) {
    const [a, b] = [at(...x), at(...y)];
    const out = f.formatRange(a, b);
    if (letter === "h") {
      if (!out.includes(text(shape, a))) bad.push(letter);
      continue;
    }
    // the fields ICU adds: the day, then the month, then the year, each where the skeleton
    // has none (a stand-alone month is none)
    const o = { ...shape, ...time };
    const hasMonth = "month" in shape && !standaloneMonth;
    const added = letter === "d" ? !("day" in shape) : letter === "M" ? !hasMonth : !("year" in shape);
    if (added) {
      if (!("day" in shape)) o.day = "numeric";
      if (letter !== "d" && !("month" in shape)) o.month = "numeric";
      if (letter === "y") o.year = "numeric";
    }
    const fits = ["numeric", "2-digit"].some((hour) => {
      const p = { ...o, hour };
      return out.includes(text(p, a)) && out.includes(text(p, b));
    });
    if (!fits) bad.push(letter);
  }
  // the dates alone, where ICU has no interval skeleton for them (a stand-alone month or a
  // weekday without a day): both dates by its generator's pattern for V8's skeleton ("P")
  if (!("day" in shape) && (standaloneMonth || "weekday" in shape)) {
    const g = ctx.fmt(shape);
    for (const [letter, [x, y]] of Object.entries(CHECKS)) {
      const [a, b] = [at(...x), at(...y)];
      if (letter === "h") continue;
      const out = g.formatRange(a, b);
      if (!out.includes(text(shape, a)) || !out.includes(text(shape, b))) { bad.push("P"); break; }
    }
  }
  return bad.join("");
}

// the hour's width in ICU's generator's own patterns (no width asked): the hour of a range of
// two days, which ICU writes with the year, month and day it adds to the time ("w"), and of a
// weekday with hours, minutes and seconds ("E"+ key), which it writes whole
export const HOUR_CYCLES = ["h11", "h12", "h23", "h24"];
export const TIME_SHAPES = [];
for (const hourCycle of HOUR_CYCLES) for (const fields of ["h", "hm", "hms", "hs"]) {
  for (const zone of [null, "short", "long", "shortGeneric", "longGeneric", "shortOffset", "longOffset"]) {
    const o = { hour: "numeric", hourCycle };
    if (fields.includes("m")) o.minute = "2-digit";
    if (fields.includes("s")) o.second = "2-digit";
    if (zone) o.timeZoneName = zone;
    TIME_SHAPES.push(o);
  }
  TIME_SHAPES.push({ weekday: "short", hour: "numeric", minute: "2-digit", second: "2-digit", hourCycle });
}
function hourWidth(ctx, shape) {
  // (with a day, whose two days ICU writes in full by the generator's pattern for the whole
  // skeleton, zone included: a time alone it writes with "yMd" added and its zone left out)
  const f = ctx.fmt("weekday" in shape ? shape : { day: "numeric", ...shape });
  const parts = f.formatRangeToParts(at(2006, 0, 5, 3, 4, 5), at(2006, 0, 7, 5, 6, 7));
  const hours = parts.filter((p) => p.type === "hour").map((p) => p.value);
  if (hours.length !== 2 || !parts.some((p) => p.type === "day" || p.type === "weekday")) return null;
  const widths = new Set(hours.map((v) => v.length));
  return widths.size === 1 ? [...widths][0] : null;
}

// the hour cycles whose interval patterns write another day period than am/pm (ICU's
// generator writes the hour alone with a flexible one: zh-Hant's 凌晨3:00至晚上8:00)
function flexible(ctx, hourCycle) {
  const f = ctx.fmt({ hour: "numeric", minute: "2-digit", hourCycle });
  for (const [a, b] of [[3, 20], [9, 14], [0, 23]]) {
    const parts = f.formatRangeToParts(at(2006, 0, 5, a, 4, 5), at(2006, 0, 5, b, 34, 45));
    if (parts.some((p) => p.type === "dayPeriod" && p.value !== ctx.am && p.value !== ctx.pm)) return true;
  }
  return false;
}

// the date-and-time pattern ICU joins a date with a time interval by (its DateTimePatterns'
// default one): a range of two hours of a day with the year, month and day, less the time's
// interval and the date
function glue(ctx) {
  const [a, b] = [at(2006, 0, 5, 3, 4, 5), at(2006, 0, 5, 5, 34, 45)];
  const text = ctx.fmt({ year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" }).formatRange(a, b);
  const time = ctx.fmt({ hour: "numeric", minute: "2-digit" }).formatRange(a, b);
  // (the date ICU writes is its generator's for the skeleton of V8's whole pattern: os's
  // dd.MM.y beside a time, where its year, month and day alone are y-MM-dd)
  const dates = ["numeric", "2-digit"].flatMap((month) => ["numeric", "2-digit"].map((day) =>
    ctx.fmt({ year: "numeric", month, day }).formatToParts(a).map((p) => p.value).join("")));
  // (the longest found: 5.01.2006 is in 05.01.2006 too)
  const date = dates.filter((d) => text.includes(d)).sort((x, y) => y.length - x.length)[0];
  if (date === undefined) return null;
  const i = text.indexOf(time), j = text.indexOf(date);
  if (i < 0 || j < 0 || text.indexOf(time, i + 1) >= 0 || text.indexOf(date, j + 1) >= 0) return null;
  if (i < j && i + time.length <= j) return ["td", text.slice(0, i), text.slice(i + time.length, j), text.slice(j + date.length)];
  if (j < i && j + date.length <= i) return ["dt", text.slice(0, j), text.slice(j + date.length, i), text.slice(i + time.length)];
  return null;
}

// a locale's tasks, each measured alone in a child that may abort (V8 aborts on some of
// gd's and sc's intervals)
function tasks() {
  return [
    ...Object.keys(DATE_SKELETONS).map((s) => ["i", s]), ...Object.keys(TIME_SKELETONS).map((s) => ["i", s]),
    ...MONTH_SHAPES.map((_, k) => ["L", k]), ...TIME_SHAPES.map((_, k) => ["w", k]),
    ...DATE_SHAPES.map((_, k) => ["D", k]),
    ["B", "h11"], ["B", "h12"], ["g"],
  ];
}
function run(ctx, [kind, arg]) {
  if (kind === "L") return standalone(ctx, MONTH_SHAPES[arg]);
  if (kind === "D") {
    const shape = DATE_SHAPES[arg];
    const alone = "month" in shape && !("day" in shape) && standalone(ctx, shape);
    return generatorDates(ctx, shape, alone);
  }
  if (kind === "w") return hourWidth(ctx, TIME_SHAPES[arg]);
  if (kind === "B") return flexible(ctx, arg);
  if (kind === "g") return glue(ctx);
  const date = DATE_SKELETONS[arg];
  if (date) return measureSkeleton(ctx, arg, date, LETTERS_OF_DATE, null);
  return measureSkeleton(ctx, arg, TIME_SKELETONS[arg], LETTERS_OF_TIME, arg.includes("v") ? ZONE : null);
}

// a child: one locale's tasks from the given one on, a JSON line each
if (MAIN && process.argv[2] === "--child") {
  const [tag, from] = [process.argv[3], Number(process.argv[4])];
  const ctx = context(tag);
  const all = tasks();
  // (written line by line and synchronously: what was measured before an abort is kept)
  for (let k = from; k < all.length; k++) writeSync(1, JSON.stringify([k, run(ctx, all[k])]) + "\n");
  process.exit(0);
}

function child(tag, from) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), "--child", tag, String(from)]);
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });  // joined whole: a character may span two
    p.stderr.on("data", () => {});
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8") }));
  });
}
// a locale's measurement: the tasks' results, a task node aborts on left out
async function measureLocale(tag) {
  const all = tasks();
  const results = new Array(all.length).fill(undefined);
  const aborted = [];
  let from = 0;
  while (from < all.length) {
    const { code, out } = await child(tag, from);
    let last = from - 1;
    for (const line of out.split("\n")) {
      if (!line) continue;
      const [k, r] = JSON.parse(line);
      results[k] = r; last = k;
    }
    if (code === 0 && last === all.length - 1) break;
    // the task after the last one written is the one node aborted on
    aborted.push(all[last + 1].join(":"));
    from = last + 2;
  }
  const alone = new Set();
  const widths = {};
  const entry = { i: {}, L: [], w: {}, B: [], g: null, D: {} };
  all.forEach(([kind, arg], k) => {
    const r = results[k];
    if (r === undefined || r === null) return;
    if (kind === "L" && r) entry.L.push(shapeKey(MONTH_SHAPES[arg]));
    if (kind === "w") widths[shapeKey(TIME_SHAPES[arg])] = r;
    if (kind === "B" && r) entry.B.push(arg);
    if (kind === "g") entry.g = r;
    if (kind === "D" && r) entry.D[arg] = r;
  });
  for (const k of entry.L) alone.add(k);
  all.forEach(([kind, arg], k) => {
    const r = results[k];
    if (kind !== "i" || !r) return;
    // (a set whose pattern writes the stand-alone month is not the skeleton's)
    const date = DATE_SKELETONS[arg];
    if (date && !("day" in date) && alone.has(shapeKey(date))) return;
    entry.i[arg] = r;
  });
  // a wider skeleton is kept where its patterns are not the nearest kept one's widened (the
  // narrower first)
  const letters = (sk) => [...new Set(sk)].sort().join("");
  const count = (sk) => { const o = {}; for (const c of sk) o[c] = (o[c] ?? 0) + 1; return o; };
  // ICU's distance between two skeletons of the same fields (a name against a number 256)
  const distance = (a, b) => {
    const [x, y] = [count(a), count(b)];
    let d = 0;
    for (const c of Object.keys(x)) {
      if (x[c] === y[c]) continue;
      d += c === "M" && ((x[c] <= 2) !== (y[c] <= 2)) ? 256 : Math.abs(x[c] - y[c]);
    }
    return d;
  };
  for (const wide of Object.keys(WIDER).sort((a, b) => a.length - b.length)) {
    const w = entry.i[wide];
    if (!w) continue;
    const near = Object.keys(entry.i).filter((k) => k !== wide && letters(k) === letters(wide) && !(k in WIDER && k.length >= wide.length))
      .sort((a, b) => distance(a, wide) - distance(b, wide));
    const b = near.length ? entry.i[near[0]] : null;
    if (b && Object.keys(w).every((l) => (typeof w[l] === "string" && typeof b[l] === "string" && w[l] !== "?"
      ? widened(b[l], wide, near[0]) === w[l] : w[l] === b[l]))) delete entry.i[wide];
  }
  entry.w = widths;
  return { entry, aborted };
}

if (MAIN && process.argv[2] === "--locale") {
  const r = await measureLocale(process.argv[3]);
  console.log(JSON.stringify(r, null, 1));
  process.exit(0);
}

// ---- the table ----------------------------------------------------------------------------
if (MAIN) await main();
async function main() {
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const only = process.argv.slice(2);
const locales = read("locales.json.gz").locales.date.filter((tag) =>
  (only.length === 0 || only.includes(tag)) && new Intl.DateTimeFormat(tag).resolvedOptions().calendar === "gregory");
const started = Date.now();
const measured = {};
const aborted = [];
// the locales measured so far, kept in a work file: a run stopped midway goes on where it
// stopped (the file names this script's version; it is removed at the end)
const work = join(tmpdir(), "flowctx-dateintervals.partial.jsonl");
const version = JSON.stringify([statSync(fileURLToPath(import.meta.url)).mtimeMs, only]);
if (existsSync(work)) {
  const [head, ...lines] = readFileSync(work, "utf8").split("\n");
  if (head === version) {
    for (const line of lines) {
      if (!line) continue;
      const [tag, entry, lost] = JSON.parse(line);
      measured[tag] = entry;
      for (const task of lost) aborted.push(`${tag}:${task}`);
    }
  }
}
if (!Object.keys(measured).length) writeFileSync(work, version + "\n");
let next = 0;
async function worker() {
  while (next < locales.length) {
    const tag = locales[next++];
    if (tag in measured) continue;
    const r = await measureLocale(tag);
    measured[tag] = r.entry;
    for (const task of r.aborted) aborted.push(`${tag}:${task}`);
    appendFileSync(work, JSON.stringify([tag, r.entry, r.aborted]) + "\n");
  }
}
await Promise.all([worker(), worker(), worker()]);
unlinkSync(work);

// each locale's entries where they differ from its nearest measured parent's (a missing
// skeleton, field or width is the parent's; a skeleton the locale does not have but its
// parent has: null)
const parentOf = (tag) => {
  let p = tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null;
  while (p && !(p in measured)) p = p.includes("-") ? p.slice(0, p.lastIndexOf("-")) : null;
  return p;
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const widthText = (w) => TIME_SHAPES.map((o) => String(w[shapeKey(o)] ?? 0)).join("");
const tags = {};
for (const tag of Object.keys(measured).sort()) {
  const e = measured[tag];
  const p = parentOf(tag);
  const pe = p ? measured[p] : null;
  const own = {};
  const i = {};
  for (const s of new Set([...Object.keys(e.i), ...Object.keys(pe?.i ?? {})])) {
    if (!pe || !same(e.i[s], pe.i[s])) i[s] = e.i[s] ?? null;
  }
  if (Object.keys(i).length) own.i = i;
  const L = MONTH_SHAPES.map((o, k) => (e.L.includes(shapeKey(o)) ? k : -1)).filter((k) => k >= 0);
  if (!pe || !same(e.L, pe.L)) own.L = L;
  if (!pe || widthText(e.w) !== widthText(pe.w)) own.w = widthText(e.w);
  if (!pe || !same(e.B, pe.B)) own.B = e.B;
  if (!pe || !same(e.g, pe.g)) own.g = e.g;
  if (!pe || !same(e.D, pe.D)) own.D = e.D;
  if (Object.keys(own).length) tags[tag] = own;
}
const data = {
  dateIntervals: { tags, monthShapes: MONTH_SHAPES.map(shapeKey), timeShapes: TIME_SHAPES.map(shapeKey),
    dateShapes: DATE_SHAPES.map(shapeKey) },
  dateIntervalsAborted: aborted,
};
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL(only.length ? "/tmp/dateintervals.json.gz" : "dateintervals.json.gz", only.length ? "file:///" : tables), bytes);
console.log(`wrote dateintervals.json.gz: ${bytes.length} bytes; ${Object.keys(measured).length} locales in ${Math.round((Date.now() - started) / 1000)} s; aborted ${aborted.length}: ${aborted.slice(0, 20).join(" ")}`);
}
