// Writes core/expressions/js/intl/tables/chinesemonths.json.gz: the months of the Chinese and
// Korean (dangi) calendars as node counts them (ICU finds their new moons and solar terms
// astronomically, at China's and at Korea's meridian): for each, the day (since 1970) its span of
// months starts (the first day of the year whose related Gregorian year is -3000) and, for each
// month to the first of the related year 3501, a digit: 0 a month of 29 days, 1 of 30, 2 a leap
// month of 29, 3 a leap month of 30. The dangi months are kept as the Chinese ones with the
// differences (the month's place and its digit). Run with the node whose answers flowctx
// reproduces:
//   node scripts/intl_chinese_months.mjs
// Every day of the span is then checked against node from the table alone.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const DAY = 86400000;
const FIRST = -3000, LAST = 3500;
const helpers = {};
// node's month (its number, "bis" after a leap month's), day and related Gregorian year
function fields(cal, d) {
  helpers[cal] ??= new Intl.DateTimeFormat(`en-u-ca-${cal}-nu-latn`,
    { timeZone: "UTC", year: "numeric", month: "numeric", day: "numeric" });
  const parts = helpers[cal].formatToParts(d * DAY);
  const get = (k) => parts.find((p) => p.type === k).value;
  const month = get("month");
  return { month: parseInt(month), leap: month.endsWith("bis"), day: Number(get("day")),
    related: Number(get("relatedYear").replace("\u2212", "-")) };
}

function months(cal) {
  const jan = (y) => { const t = new Date(Date.UTC(2000, 0, 1)); t.setUTCFullYear(y); return t.getTime() / DAY; };
  let d = jan(FIRST);
  for (;;) {
    const f = fields(cal, d);
    if (f.related === FIRST && f.month === 1 && !f.leap && f.day === 1) break;
    d++;
  }
  const first = d, digits = [];
  for (;;) {
    const f = fields(cal, d);
    if (f.related === LAST + 1) break;
    const length = fields(cal, d + 29).day === 1 ? 29 : 30;
    if (fields(cal, d + length).day !== 1) throw new Error(`${cal}: no month of 29 or 30 days from day ${d}`);
    digits.push((f.leap ? 2 : 0) + (length === 30 ? 1 : 0));
    d += length;
  }
  return { first, related: FIRST, months: digits.join("") };
}

// every day from the table: the month's number, whether it is leap, the day and related year
function* days(span) {
  let [d, related, month] = [span.first, span.related, 0];
  for (const c of span.months) {
    const leap = c >= "2";
    if (!leap) month++;
    if (month === 13) { month = 1; related++; }
    const length = c === "1" || c === "3" ? 30 : 29;
    for (let i = 0; i < length; i++) yield [d + i, month, leap, i + 1, related];
    d += length;
  }
}

const chinese = months("chinese"), dangi = months("dangi");
if (dangi.first !== chinese.first || dangi.months.length !== chinese.months.length) {
  throw new Error("the dangi span is not the Chinese one's");
}
const differences = [];
for (let i = 0; i < chinese.months.length; i++) {
  if (chinese.months[i] !== dangi.months[i]) differences.push([i, Number(dangi.months[i])]);
}
for (const [cal, span] of [["chinese", chinese], ["dangi", dangi]]) {
  let n = 0;
  for (const [d, month, leap, day, related] of days(span)) {
    const f = fields(cal, d);
    if (f.month !== month || f.leap !== leap || f.day !== day || f.related !== related) {
      throw new Error(`${cal}: day ${d} is ${JSON.stringify(f)} in node, ${[month, leap, day, related]} in the table`);
    }
    n++;
  }
  console.log(`${cal}: ${span.months.length} months, ${n} days checked`);
}
const data = { chineseMonths: { chinese, dangi: differences } };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("../core/expressions/js/intl/tables/chinesemonths.json.gz", import.meta.url), bytes);
console.log(`wrote core/expressions/js/intl/tables/chinesemonths.json.gz: ${bytes.length} bytes, ${differences.length} dangi months differ`);
