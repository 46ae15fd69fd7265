// One option set's row in a calendar other than a locale's own Gregorian one, measured from
// formatToParts (its pattern, month names indexed by the calendar's months, weekday, era and
// day period names, resolved options), and the text the row rebuilds for a time: shared by
// scripts/intl_calendars.mjs (the styles) and scripts/intl_calendar_parts.mjs (every set of
// components). A calendar's fields are node's own: an English formatter in the calendar with
// Latin digits; a month is known by its numeric text there ("13" in the Coptic calendar). The
// Chinese and Korean (dangi) calendars' fields are their related Gregorian year's, its place in
// the sexagenary cycle (year, 1-60) and the cycle (era), and a month known as "2" or "2bis"
// (its leap month).
export const DAY = 86400000;
export const LUNISOLAR = ["chinese", "dangi"];

const helpers = {}, known = new Map();
export function fieldsOf(cal, t) {
  const key = `${cal} ${t}`;
  if (known.has(key)) return known.get(key);
  if (LUNISOLAR.includes(cal)) {
    helpers[cal] ??= new Intl.DateTimeFormat(`en-u-ca-${cal}-nu-latn`,
      { timeZone: "UTC", year: "numeric", month: "numeric", day: "numeric" });
    const parts = helpers[cal].formatToParts(t);
    const get = (k) => parts.find((p) => p.type === k)?.value;
    const related = Number(get("relatedYear").replace("\u2212", "-"));
    const out = { era: String(Math.floor((related + 2636) / 60) + 1), year: (((related + 2636) % 60) + 60) % 60 + 1,
      month: get("month"), day: Number(get("day")), related };
    if (known.size < 100000) known.set(key, out);
    return out;
  }
  helpers[cal] ??= new Intl.DateTimeFormat(`en-u-ca-${cal}-nu-latn`,
    { timeZone: "UTC", era: "short", year: "numeric", month: "numeric", day: "numeric" });
  const parts = helpers[cal].formatToParts(t);
  const get = (k) => parts.find((p) => p.type === k)?.value;
  const out = { era: get("era"), year: Number(get("year").replace("\u2212", "-")),
    month: get("month"), day: Number(get("day")) };
  if (known.size < 100000) known.set(key, out);
  return out;
}

// the Hebrew months in ICU's order (its months' English names, which node writes for their
// numbers), Adar of a leap year, Adar II, last
const HEBREW = ["Tishri", "Heshvan", "Kislev", "Tevet", "Shevat", "Adar I", "Adar", "Nisan", "Iyar", "Sivan",
  "Tamuz", "Av", "Elul", "Adar II"];

// a month's number as ICU writes it (the Hebrew one without Adar I where the year has none)
export function monthNumber(cal, own) {
  if (cal !== "hebrew") return parseInt(own.month);
  const at = HEBREW.indexOf(own.month);
  const leap = (((own.year * 12 + 17) % 19) + 19) % 19 >= 12;
  return at === 13 ? 7 : leap || at < 6 ? at + 1 : at;
}

// the calendar's months in order (their numeric texts), each with a day 5 in 2023-2025
export function monthsOf(cal) {
  if (LUNISOLAR.includes(cal)) return lunisolarMonths(cal);
  const keys = [], days = [];
  for (let d = Date.UTC(2023, 0, 1) / DAY; d < Date.UTC(2026, 0, 1) / DAY; d++) {
    const f = fieldsOf(cal, d * DAY);
    if (f.day === 5 && !keys.includes(f.month)) { keys.push(f.month); days.push(d); }
  }
  if (cal === "hebrew") {
    if (keys.length !== HEBREW.length || keys.some((k) => !HEBREW.includes(k))) throw new Error(`Hebrew months ${keys}`);
    return { keys: HEBREW, days: HEBREW.map((k) => days[keys.indexOf(k)]) };
  }
  const order = keys.map((k, i) => i).sort((a, b) => parseInt(keys[a]) - parseInt(keys[b])
    || keys[a].length - keys[b].length);
  return { keys: order.map((i) => keys[i]), days: order.map((i) => days[i]) };
}

// the Chinese and dangi months: the twelve, then their leap ones, each with its day 5 nearest
// 2024 (searched month by month from 2024, back and forth, as far as 1000 years)
function lunisolarMonths(cal) {
  const keys = [...Array.from({ length: 12 }, (_, i) => String(i + 1)), ...Array.from({ length: 12 }, (_, i) => `${i + 1}bis`)];
  const days = keys.map(() => null);
  const start = Date.UTC(2024, 0, 1) / DAY;
  for (let step = 0; step < 1000 * 13 && days.includes(null); step++) {
    for (const sign of [1, -1]) {
      let d = start + sign * step * 29;
      const f = fieldsOf(cal, d * DAY);
      d += 5 - f.day;
      const at = keys.indexOf(fieldsOf(cal, d * DAY).month);
      if (at >= 0 && days[at] === null) days[at] = d;
    }
  }
  if (days.includes(null)) throw new Error(`${cal}: a leap month not found`);
  return { keys, days };
}

// the Chinese and dangi day 1-30 (a 30-day month's days) and sexagenary years (1 July of 1984 to
// 2043, each in the year of the cycle related to it), whose names a row may write
function lunisolarDays(cal) {
  for (let d = Date.UTC(2024, 0, 1) / DAY; ; d++) {
    if (fieldsOf(cal, d * DAY).day === 30) return Array.from({ length: 30 }, (_, i) => d - 29 + i);
  }
}
const lunisolarYears = () => Array.from({ length: 60 }, (_, i) => Date.UTC(1984 + i, 6, 1) / DAY);

// the calendar's eras in order, each with a day that falls in it (the first day found of it)
// (none for the Chinese and dangi ones, whose era is the cycle's number)
export function erasOf(cal) {
  if (LUNISOLAR.includes(cal)) return { eras: [], days: [] };
  const eras = [], days = [];
  const see = (d) => {
    const e = fieldsOf(cal, d * DAY).era;
    if (!eras.includes(e)) { eras.push(e); days.push(d); }
    return e;
  };
  const yearly = (from, to) => {
    for (let y = from; y <= to; y += 1000) see(Math.floor((y - 1970) * 365.2425));
  };
  yearly(-270000, -1000);
  // day by day where eras change (the Japanese ones from 645, the Republic of China's 1912)
  let last = see(-500000);
  for (let d = -500000; d <= 25000; d++) {
    const e = fieldsOf(cal, d * DAY).era;
    if (e !== last) { see(d); last = e; }
  }
  yearly(3000, 270000);
  return { eras, days };
}

export function digitsOf(tag) {
  const base = new Intl.DateTimeFormat(tag).resolvedOptions();
  const nf = new Intl.NumberFormat(tag, { numberingSystem: base.numberingSystem, useGrouping: false });
  const ds = [...nf.format(1234567890)];
  return [ds[9], ...ds.slice(0, 9)].join("");
}

const RESOLVED = ["hourCycle", "hour12", "weekday", "era", "year", "month", "day", "dayPeriod", "hour",
  "minute", "second", "dateStyle", "timeStyle"];

// ``cal``: { name, months: { keys, days }, eras: { eras, days } }; ``opts`` may carry hc (the
// locale's -u-hc-)
export const withHc = (tag, hc) => (!hc ? tag : tag.includes("-u-") ? `${tag}-hc-${hc}` : `${tag}-u-hc-${hc}`);

export function calendarRow(tag, cal, { hc, ...opts }, digits) {
  const f = new Intl.DateTimeFormat(withHc(tag, hc), { timeZone: "UTC", ...opts });
  const undigit = (v) => [...v].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  // the Chinese calendars' months in another numbering system, to tell a number from a name
  const other = LUNISOLAR.includes(cal.name) ? new Intl.DateTimeFormat(withHc(tag, hc),
    { timeZone: "UTC", ...opts, numberingSystem: digits === "0123456789" ? "arab" : "latn" }) : null;
  const monthIn = (g, t) => g.formatToParts(t).find((q) => q.type === "month")?.value;
  const templateAt = (t, parts) => {
    const own = fieldsOf(cal.name, t);
    const lunisolar = LUNISOLAR.includes(cal.name);
    return parts.map((p) => {
      if (p.type === "literal") return p.value;
      if (lunisolar && p.type === "yearName") return [p.type, "t"];
      if (lunisolar && p.type === "era") return [p.type, 0];
      // (a year of the cycle is below 61: its width is the one V8 reads from the pattern)
      if (lunisolar && p.type === "year") return [p.type, f.resolvedOptions().year === "2-digit" ? 2 : 0];
      // (a related year is padded to the pattern's width, 08 for the year 8, never cut: measured
      // at the year 8)
      if (lunisolar && p.type === "relatedYear") {
        if (undigit(p.value) !== String(own.related)) throw new Error(`${tag}: related year ${p.value}`);
        const eighth = new Date(Date.UTC(2000, 6, 1));
        eighth.setUTCFullYear(8);
        const early = f.formatToParts(eighth.getTime()).find((q) => q.type === "relatedYear")?.value;
        return [p.type, early !== undefined && undigit(early) === "08" ? 2 : 0];
      }
      // (a month written in digits is a number where they follow the numbering system asked, as
      // es's long months, 5bis, else a name: smn's narrow "10")
      if (lunisolar && p.type === "month" && monthIn(other, t) === p.value) return [p.type, "t"];
      if (p.type === "weekday" || p.type === "dayPeriod" || p.type === "era") return [p.type, "t"];
      const v = undigit(p.value);
      if (!/^[0-9]+$/.test(v)) return [p.type, "t"];
      if (p.type === "year") return [p.type, v === String(own.year) ? 0 : 2];
      return [p.type, v.length === 2 && Number(v) < 10 ? 2 : 0];
    });
  };
  const templates = [], months = [];
  // a month's name or a day's number can change the words around it (ca's "de març", "d'abril"):
  // each month's pattern where the month is a word, else the first's (every row is checked)
  const named = ["narrow", "short", "long"].includes(opts.month) || opts.dateStyle;
  for (const d of cal.months.days) {
    const t = d * DAY + 11045000;
    const parts = f.formatToParts(t);
    templates.push(JSON.stringify(templateAt(t, parts)));
    months.push(parts.find((p) => p.type === "month")?.value ?? "");
    // (a month written as a word where its number was asked: the Hebrew ones in en)
    // (the leap months' numbers are words in the Chinese calendars: 2bis, 闰2)
    if (!named && !templates[0].includes('["month","t"]')
      && !(LUNISOLAR.includes(cal.name) && templates[0].includes('["month",'))) break;
  }
  const name = (t, type) => f.formatToParts(t).find((p) => p.type === type)?.value ?? "";
  const first = templates[0];
  const weekdays = [], periods = [];
  if (first.includes('["weekday","t"]')) {
    for (let d = 1; d <= 7; d++) weekdays.push(name(Date.UTC(2006, 0, d, 3, 4, 5), "weekday"));
  }
  if (first.includes('["dayPeriod","t"]')) {
    for (let h = 0; h < 24; h++) periods.push(name(Date.UTC(2006, 0, 5, h, 4, 5), "dayPeriod"));
  }
  const hasEra = first.includes('["era","t"]');
  const eras = hasEra ? cal.eras.days.map((d) => name(d * DAY + 11045000, "era")) : [];
  // the Chinese calendars' names of the years of the cycle and of the days (zh's 初六)
  const anyTemplate = (piece) => templates.some((t) => t.includes(piece));
  const yearNames = anyTemplate('["yearName","t"]') ? lunisolarYears().map((d) => name(d * DAY + 11045000, "yearName")) : null;
  const dayNames = anyTemplate('["day","t"]') ? lunisolarDays(cal.name).map((d) => name(d * DAY + 11045000, "day")) : null;
  const r = f.resolvedOptions();
  const resolved = {};
  for (const k of RESOLVED) if (k in r) resolved[k] = r[k];
  const same = templates.length === 1 || templates.every((t) => t === first);
  return {
    t: JSON.parse(first), tm: same ? null : templates.map((t) => JSON.parse(t)),
    m: months.some((m) => m && !/^[0-9]+$/.test(undigit(m))) ? months : null,
    w: weekdays.length ? weekdays : null, dp: periods.length ? periods : null, r: resolved,
    e: hasEra ? eras : null, f, ...(yearNames || dayNames ? { yn: yearNames, dn: dayNames } : {}),
  };
}

export function rebuild(row, t, cal, digits) {
  const d = new Date(t);
  const own = fieldsOf(cal.name, t);
  const month = cal.months.keys.indexOf(own.month);
  const h = d.getUTCHours();
  const hour = { h12: h % 12 || 12, h11: h % 12, h23: h, h24: h || 24 }[row.r.hourCycle] ?? h;
  const values = { year: own.year, month: monthNumber(cal.name, own), day: own.day, hour,
    minute: d.getUTCMinutes(), second: d.getUTCSeconds(), era: Number(own.era), relatedYear: own.related };
  const tpl = row.tm ? row.tm[month] : row.t;
  const nd = (s) => s.replace(/[0-9]/g, (c) => digits[Number(c)]);
  return tpl.map((p) => {
    if (typeof p === "string") return p;
    const [name, width] = p;
    if (name === "weekday") return row.w[d.getUTCDay()];
    if (name === "dayPeriod") return row.dp[h];
    if (name === "era" && width === "t") return row.e[cal.eras.eras.indexOf(own.era)];
    if (name === "month" && width === "t") return row.m[month];
    if (name === "yearName") return row.yn[own.year - 1];
    if (name === "day" && width === "t") return row.dn[own.day - 1];
    const n = values[name];
    if (n === undefined || n < 0) return "?";
    if (name === "year" && width === 2) return nd(String(n % 100).padStart(2, "0"));
    if (name === "relatedYear") return nd(String(n).padStart(width === 2 ? 2 : 1, "0"));
    return nd(width === 2 ? String(n).padStart(2, "0") : String(n));
  }).join("");
}
