// One option set's row in a locale's own calendar (its pattern, month, weekday, era and day
// period names, resolved options), measured from formatToParts, and the text the row rebuilds for
// a time: shared by scripts/intl_data.mjs and scripts/intl_date_parts.mjs.
const FIELDS = ["weekday", "era", "year", "month", "day", "dayPeriod", "hour", "minute", "second"];
const at = (y, mo, d, h, mi, s) => Date.UTC(y, mo, d, h, mi, s);
export function skeletonRow(tag, opts, digits) {
  const f = new Intl.DateTimeFormat(tag, { timeZone: "UTC", ...opts });
  const undigit = (v) => [...v].map((c) => (digits.includes(c) ? String(digits.indexOf(c)) : c)).join("");
  const templateAt = (t) => f.formatToParts(t).map((p) => {
    if (p.type === "literal") return p.value;
    if (p.type === "weekday" || p.type === "dayPeriod" || p.type === "era") return [p.type, "t"];
    const v = undigit(p.value);
    if (!/^[0-9]+$/.test(v)) return [p.type, "t"];
    return [p.type, v.length === 2 && (p.type !== "year" || v === "06") ? 2 : 0];
  });
  const months = [];
  const templates = [];
  for (let mo = 0; mo < 12; mo++) {
    const t = at(2006, mo, 5, 3, 4, 5);
    templates.push(JSON.stringify(templateAt(t)));
    const part = f.formatToParts(t).find((p) => p.type === "month");
    months.push(part ? part.value : "");
  }
  const weekdays = [];
  for (let d = 1; d <= 7; d++) {
    const part = f.formatToParts(at(2006, 0, d, 3, 4, 5)).find((p) => p.type === "weekday");
    weekdays.push(part ? part.value : "");
  }
  const periods = [];
  for (let h = 0; h < 24; h++) {
    const part = f.formatToParts(at(2006, 0, 5, h, 4, 5)).find((p) => p.type === "dayPeriod");
    periods.push(part ? part.value : "");
  }
  // the era's names: before the year 1 and after
  const eras = [Date.UTC(-500, 0, 5, 3, 4, 5), at(2006, 0, 5, 3, 4, 5)].map((t) => {
    const part = f.formatToParts(t).find((p) => p.type === "era");
    return part ? part.value : "";
  });
  const zone = f.formatToParts(at(2006, 0, 5, 3, 4, 5)).find((p) => p.type === "timeZoneName")?.value;
  const r = f.resolvedOptions();
  const resolved = {};
  for (const k of ["hourCycle", "hour12", ...FIELDS, "dateStyle", "timeStyle"]) if (k in r) resolved[k] = r[k];
  const same = templates.every((t) => t === templates[0]);
  return {
    t: JSON.parse(templates[0]),
    tm: same ? null : templates.map((t) => JSON.parse(t)),
    m: months.some((m) => m && !/^[0-9]+$/.test(undigit(m))) ? months : null,
    w: weekdays.some((w) => w) ? weekdays : null,
    dp: periods.some((p) => p) ? periods : null,
    r: resolved,
    e: eras.some((e) => e) ? eras : null,
    // the zone's name (of UTC, the zone every row is measured in), where the pattern has one
    ...(zone ? { z: zone } : {}),
  };
}
export function rebuild(row, t, digits) {
  const d = new Date(t);
  const y = d.getUTCFullYear(), mo = d.getUTCMonth(), day = d.getUTCDate(), h = d.getUTCHours();
  const hc = row.r.hourCycle;
  const hour = { h12: h % 12 || 12, h11: h % 12, h23: h, h24: h || 24 }[hc] ?? h;
  const values = { year: y, month: mo + 1, day, hour, minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  const tpl = row.tm ? row.tm[mo] : row.t;
  const nd = (s) => s.replace(/[0-9]/g, (c) => digits[Number(c)]);
  return tpl.map((p) => {
    if (typeof p === "string") return p;
    const [name, width] = p;
    if (name === "weekday") return row.w[d.getUTCDay()];
    if (name === "dayPeriod") return row.dp[h];
    if (name === "era") return row.e[y > 0 ? 1 : 0];
    if (name === "timeZoneName") return row.z;
    if (name === "month" && width === "t") return row.m[mo];
    const n = values[name];
    if (n === undefined) return "?";
    if (name === "year" && width === 2) return nd(String(n % 100).padStart(2, "0"));
    return nd(width === 2 ? String(n).padStart(2, "0") : String(n));
  }).join("");
}
