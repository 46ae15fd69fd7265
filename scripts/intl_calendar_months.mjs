// Writes core/expressions/js/intl/tables/calendarmonths.json.gz: the months of the Islamic
// calendars ICU counts from the moon (islamic, the astronomical one, which islamic-rgsa is too)
// or from the Umm al-Qura table (islamic-umalqura, whose years outside its table are the civil
// calendar's), as node counts them: for each, the day (since 1970) a span of its months starts,
// that first month's year and month, and each month's length in the span (a "1" for 30 days, a
// "0" for 29). Run with the node whose answers flowctx reproduces:
//   node scripts/intl_calendar_months.mjs
// The span: the astronomical calendar's Islamic years -1000 to 3000 (flowctx refuses its dates
// outside them), the Umm al-Qura's from its table's year before the first to the one after the
// last, every day outside it checked on a sample to be the civil calendar's.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { DAY, fieldsOf } from "./intl_calendar_rows.mjs";

// the days from the first day of one Islamic year to the day before the first of another
function months(cal, fromYear, toYear) {
  // about 354.367 days a year from 16 July 622 (day -492148)
  const approx = (y) => Math.floor(-492148 + (y - 1) * 354.367);
  let d = approx(fromYear) - 60;
  while (!(fieldsOf(cal, d * DAY).year === fromYear && fieldsOf(cal, d * DAY).month === "1"
    && fieldsOf(cal, d * DAY).day === 1)) d++;
  const first = d;
  const lengths = [];
  let start = d;
  for (d = d + 1; ; d++) {
    const f = fieldsOf(cal, d * DAY);
    if (f.day !== 1) continue;
    const length = d - start;
    if (length !== 29 && length !== 30) throw new Error(`${cal}: a month of ${length} days before day ${d}`);
    lengths.push(length === 30 ? "1" : "0");
    start = d;
    if (f.year === toYear && f.month === "1") break;
  }
  return { first, year: fromYear, month: 1, lengths: lengths.join("") };
}

const tabular = (d) => {
  // the civil calendar's fields, from node itself
  const f = fieldsOf("islamic-civil", d * DAY);
  return `${f.year}/${f.month}/${f.day}`;
};
const data = { islamic: months("islamic", -1000, 3000) };
for (let i = 0; i < 2000; i++) {
  const d = Math.floor(Math.random() * 100000) - 50000;
  const a = fieldsOf("islamic", d * DAY), b = fieldsOf("islamic-rgsa", d * DAY);
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`islamic-rgsa is not islamic on day ${d}`);
}
// the Umm al-Qura table's years (1300 to 1600), and the civil calendar's outside them
data["islamic-umalqura"] = months("islamic-umalqura", 1299, 1602);
const uq = data["islamic-umalqura"];
const last = uq.first + [...uq.lengths].reduce((n, c) => n + (c === "1" ? 30 : 29), 0);
for (let i = 0; i < 20000; i++) {
  const d = Math.floor(Math.random() * 200000000) - 100000000;
  if (d >= uq.first && d < last) continue;
  const f = fieldsOf("islamic-umalqura", d * DAY);
  if (`${f.year}/${f.month}/${f.day}` !== tabular(d)) throw new Error(`islamic-umalqura is not civil on day ${d}`);
}
const bytes = gzipSync(JSON.stringify({ calendarMonthSpans: data }), { level: 9 });
writeFileSync(new URL("../core/expressions/js/intl/tables/calendarmonths.json.gz", import.meta.url), bytes);
console.log(`wrote core/expressions/js/intl/tables/calendarmonths.json.gz: ${bytes.length} bytes`);
