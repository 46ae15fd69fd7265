// Writes core/expressions/js/intl/tables/heirs.json.gz: for each calendar, the locales whose
// dates node writes otherwise than their parent's (the tag less its last subtag: fa-AF's fa,
// uz-Arab-AF's uz-Arab), on a battery of sets that show every month's, weekday's and era's name,
// a day period, the hours and the digits, in every month of two years. flowctx reads a locale that has no
// rows of its own in a calendar from its parent's rows; the tables' measuring scripts decided a
// locale was like its parent on a sample of dates (two months), which let Afghan month names
// (fa-AF's Persian months, de-AT's Jänner) pass for their parent's. Run with the node whose answers
// flowctx reproduces (and the locales whose own calendar, asked by name, node writes otherwise
// than when the calendar is left to the locale: uz-AF's Persian dates gain the era, AP):
//   node scripts/intl_locale_heirs.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const CALENDARS = ["gregory", "japanese", "persian", "buddhist", "roc", "islamic-civil", "islamic-tbla",
  "coptic", "ethiopic", "ethioaa", "indian", "hebrew", "islamic", "islamic-rgsa", "islamic-umalqura",
  "iso8601", "chinese", "dangi"];
const SETS = [
  { month: "long", day: "numeric" }, { month: "long" }, { month: "short", day: "numeric" }, { month: "short" },
  { month: "narrow" }, { month: "narrow", day: "numeric" }, { year: "numeric", month: "numeric", day: "numeric" },
  { weekday: "long" }, { weekday: "short", day: "numeric" }, { weekday: "narrow" },
  { era: "long", year: "numeric" }, { era: "short", year: "numeric" }, { era: "narrow", year: "numeric" },
  { hour: "numeric", dayPeriod: "long" }, { hour: "numeric", minute: "2-digit" },
];
// (not the styles: scripts/intl_calendars.mjs measures them in every locale node has)
// every month of two years (the lunisolar calendars' leap months among them), at varied hours
const TIMES = Array.from({ length: 26 }, (_, i) => Date.UTC(2023, i, 1 + (i * 7) % 28, (i * 5) % 24, 7));
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);

function texts(tag, calendar) {
  const out = [];
  for (const set of SETS) {
    let f;
    try {
      f = new Intl.DateTimeFormat(tag, { ...set, ...(calendar ? { calendar } : {}), timeZone: "UTC" });
    } catch (e) {
      out.push(String(e));
      continue;
    }
    for (const t of TIMES) out.push(f.format(t));
  }
  return out.join("\u0001");
}

const locales = read("locales.json.gz").locales.date;
const heirs = {};
let pairs = 0;
for (const calendar of CALENDARS) {
  const cache = new Map();
  const of = (tag) => {
    if (!cache.has(tag)) cache.set(tag, texts(tag, calendar));
    return cache.get(tag);
  };
  const differ = [];
  for (const tag of locales) {
    const parent = parentOf(tag);
    if (!parent) continue;
    pairs++;
    if (of(tag) !== of(parent)) differ.push(tag);
  }
  heirs[calendar] = differ.sort();
  console.log(`${calendar}: ${differ.length} locales differ from their parent`);
}
const explicit = locales.filter((tag) => {
  const own = new Intl.DateTimeFormat(tag).resolvedOptions().calendar;
  return own !== "gregory" && texts(tag, own) !== texts(tag, null);
});
console.log(`own calendar asked by name: ${explicit.join(" ") || "none"} differ`);
const data = { localeHeirs: heirs, localeExplicit: explicit };
writeFileSync(new URL("heirs.json.gz", tables), gzipSync(JSON.stringify(data), { level: 9 }));
console.log(`wrote core/expressions/js/intl/tables/heirs.json.gz (${pairs} locale and parent pairs)`);
