// Writes core/expressions/js/intl/tables/rangefallbacks.json.gz: each locale's fallback interval
// pattern (ICU's intervalFormatFallback, "{0} – {1}"), the text formatRange puts before, between
// and after two dates it writes in full, in each calendar ICU has. Measured on an option set
// whose time ICU has no interval pattern for (minutes and seconds: the two times are written in
// full), where the dates differ in the second; a locale's row is kept only where it
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
  // (no hour: hy's range writes 03:04:05 where its format writes 3:04:05, which read as the
  // fallback's own "0" before each date)
  const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", calendar, minute: "numeric", second: "numeric" });
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
const data = { rangeFallbacks: kept, rangeFallbackCalendars: calendars, rangeFallbacksRefused: refused };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("rangefallbacks.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/rangefallbacks.json.gz: ${bytes.length} bytes; ${Object.keys(gregory).length} locales (${Object.keys(kept).length} kept); other calendars' own: ${Object.entries(calendars).map(([c, r]) => `${c} ${Object.keys(r).length}`).join(", ") || "none"}; refused ${refused.length}`);
