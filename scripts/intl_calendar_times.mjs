// Writes core/expressions/js/intl/tables/calendartimes.json.gz: the locales whose default time
// form (toLocaleTimeString's hour, minute and second) in a calendar other than their own is not
// the one of their own calendar (es-MX's 08:00:00 a.m. in the tabular Islamic calendars, 8:00:00
// a.m. in the Gregorian): flowctx refuses those, and takes the others' from the own calendar.
// Compared on 6 instants in every locale node has and every calendar flowctx counts. Run with
// the node whose answers flowctx reproduces:
//   node scripts/intl_calendar_times.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const locales = read("locales.json.gz").locales.date;
const CALENDARS = ["gregory", "japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla"];
const TIMES = [0, Date.UTC(812, 11, 25, 8), Date.UTC(2024, 5, 1, 15, 4, 5), Date.UTC(1999, 0, 1, 23, 59, 59),
  Date.UTC(-44, 2, 15, 12), Date.UTC(2100, 9, 31, 1, 30)];
const TIME = { timeZone: "UTC", hour: "numeric", minute: "numeric", second: "numeric" };
const differ = [];
for (const tag of locales) {
  const own = new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
  const base = new Intl.DateTimeFormat(tag, TIME);
  const mine = TIMES.map((t) => base.format(t)).join("|");
  for (const calendar of CALENDARS) {
    if (calendar === own) continue;
    const f = new Intl.DateTimeFormat(tag, { ...TIME, calendar });
    if (TIMES.map((t) => f.format(t)).join("|") !== mine) differ.push(`${tag}:${calendar}`);
  }
}
const bytes = gzipSync(JSON.stringify({ calendarTimesOwn: differ }), { level: 9 });
writeFileSync(new URL("calendartimes.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/calendartimes.json.gz: ${bytes.length} bytes, ${differ.length} pairs`);
