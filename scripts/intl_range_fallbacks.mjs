// Writes core/expressions/js/intl/tables/rangefallbacks.json.gz: each locale's fallback interval
// pattern (ICU's intervalFormatFallback, "{0} – {1}"), the text formatRange puts before, between
// and after two dates it writes in full, in each calendar ICU has. Measured on an option set
// whose time ICU has no interval pattern for (hours, minutes and seconds: the two times are
// written in full), where the dates differ in the second; a locale's row is kept only where it
// differs from its parent's (its Gregorian one for another calendar). Run with the node flowctx
// reproduces:
//   node scripts/intl_range_fallbacks.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (name) => JSON.parse(gunzipSync(readFileSync(new URL(name, tables))));
const locales = read("locales.json.gz").locales.date;
const CALENDARS = Intl.supportedValuesOf("calendar");


// the text around and between the two dates, each written in full as formatToParts writes it
// (a date's own literals before its first field and after its last are the pattern's "shared"
// ones in formatRangeToParts: the text, not the parts, tells them apart)
function split(tag, calendar) {
  const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", calendar, hour: "numeric", minute: "numeric", second: "numeric" });
  const [a, b] = [Date.UTC(2006, 0, 5, 3, 4, 5), Date.UTC(2006, 0, 5, 3, 4, 45)];
  const text = f.formatRangeToParts(a, b).map((p) => p.value).join("");
  const one = (t) => f.formatToParts(t).map((p) => p.value).join("");
  const [x, y] = [one(a), one(b)];
  const i = text.indexOf(x);
  const j = text.lastIndexOf(y);
  if (i < 0 || j < i + x.length) return null;
  return [text.slice(0, i), text.slice(i + x.length, j), text.slice(j + y.length)];
}

const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
const gregory = {};
const refused = [];
for (const tag of locales) {
  const row = split(tag, "gregory");
  if (row === null) { refused.push(tag); continue; }
  gregory[tag] = row;
}
const kept = {};
for (const tag of Object.keys(gregory)) {
  let p = parentOf(tag);
  while (p !== null && !(p in gregory)) p = parentOf(p);
  if (p === null || JSON.stringify(gregory[p]) !== JSON.stringify(gregory[tag])) kept[tag] = gregory[tag];
}
const calendars = {};
for (const calendar of CALENDARS) {
  if (calendar === "gregory") continue;
  for (const tag of locales) {
    if (!(tag in gregory)) continue;
    const row = split(tag, calendar);
    if (row === null) { refused.push(`${tag}:${calendar}`); continue; }
    if (JSON.stringify(row) !== JSON.stringify(gregory[tag])) (calendars[calendar] ??= {})[tag] = row;
  }
}
// the locales where the two dates of a fallback are each written as formatToParts writes one
// (ICU writes them by its own best pattern for the set's skeleton, which is the set's own pattern
// in most locales but not all: bg's hours lose their zero and their word): every set of a battery
// of dates with times and of times alone (whose dates ICU writes with the year, month and day
// added, as the set with those options writes them) agrees, on a pair differing in the day, the
// month and the year
const BATTERY = [
  { hour: "numeric", minute: "2-digit" }, { hour: "2-digit", minute: "2-digit", second: "2-digit" },
  { hour: "numeric" }, { hour: "numeric", minute: "numeric", second: "numeric", hour12: true },
  { hour: "numeric", minute: "numeric", hourCycle: "h23" }, { minute: "numeric", second: "numeric" },
  { hour: "numeric", minute: "numeric", timeZoneName: "short" },
  { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", second: "2-digit" },
  { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric" },
  { year: "2-digit", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hour12: false },
  { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" },
  { day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "numeric", timeZoneName: "shortOffset" },
];
const PAIRS = [[Date.UTC(2006, 0, 5, 3, 4, 5), Date.UTC(2006, 0, 7, 15, 4, 45)],
  [Date.UTC(2006, 0, 5, 13, 4, 5), Date.UTC(2006, 4, 5, 3, 4, 45)],
  [Date.UTC(2006, 0, 5, 13, 4, 5), Date.UTC(2008, 0, 5, 13, 4, 5)]];
const joined = (f, t) => f.formatToParts(t).map((p) => p.value).join("");
const exact = [];
for (const tag of Object.keys(gregory)) {
  const [pre, mid, post] = gregory[tag];
  const ok = BATTERY.every((set) => {
    const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...set });
    const timeOnly = !["year", "month", "day", "weekday", "era"].some((k) => k in set);
    const g = timeOnly ? new Intl.DateTimeFormat(tag, { timeZone: "UTC", year: "numeric", month: "numeric", day: "numeric", ...set }) : f;
    return PAIRS.every(([a, b]) => f.formatRange(a, b) === pre + joined(g, a) + mid + joined(g, b) + post);
  });
  if (ok) exact.push(tag);
}
const data = { rangeFallbacks: kept, rangeFallbackExact: exact, rangeFallbackCalendars: calendars, rangeFallbacksRefused: refused };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("rangefallbacks.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/rangefallbacks.json.gz: ${bytes.length} bytes; ${Object.keys(gregory).length} locales (${Object.keys(kept).length} kept); other calendars' own: ${Object.entries(calendars).map(([c, r]) => `${c} ${Object.keys(r).length}`).join(", ") || "none"}; refused ${refused.length}; the dates written as one date's: ${exact.length} locales`);
