// Writes core/expressions/js/intl/tables/zones.json.gz: the time zones node's ICU knows, as
// Intl.DateTimeFormat's timeZone option resolves them, and each zone's UTC offsets from ICU's own
// tzdata (not the system's): its first offset, every transition up to a year from which a
// recurring rule (month, week of the month, weekday, local time, as POSIX TZ strings write them)
// gives every later one, and that rule. Run with the node whose answers flowctx reproduces:
//   node scripts/intl_zones.mjs
// The names tried are the system's zone files' and ICU's legacy three-letter ones; each is asked
// as written, in lower and in upper case (V8 title-cases a name before ICU reads it). A zone's
// offsets are found by a weekly scan from 1800 to 2160 (a change bisected to the second), plus
// the instants around every transition the system's tzdata lists (two changes within a week);
// the rule is fitted on the transitions after its first year and checked on 4,000 instants
// drawn up to the year 275760.
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { execFileSync } from "node:child_process";

const ROOT = "/usr/share/zoneinfo";
const names = new Set(Intl.supportedValuesOf("timeZone"));
(function walk(dir, prefix) {
  for (const e of readdirSync(dir)) {
    if (["posix", "right", "posixrules", "localtime"].includes(e) || e.includes(".")) continue;
    const p = `${dir}/${e}`;
    if (statSync(p).isDirectory()) walk(p, `${prefix}${e}/`);
    else if (/^[A-Z]/.test(e)) names.add(prefix + e);
  }
})(ROOT, "");
for (const n of ["ACT", "AET", "AGT", "ART", "AST", "BET", "BST", "CAT", "CNT", "CST", "CTT", "EAT", "ECT",
  "IET", "IST", "JST", "MIT", "NET", "NST", "PLT", "PNT", "PRT", "PST", "SST", "VST", "EST", "MST", "HST",
  "SystemV/AST4", "SystemV/AST4ADT", "SystemV/CST6", "SystemV/CST6CDT", "SystemV/EST5", "SystemV/EST5EDT",
  "SystemV/HST10", "SystemV/MST7", "SystemV/MST7MDT", "SystemV/PST8", "SystemV/PST8PDT", "SystemV/YST9",
  "SystemV/YST9YDT", "Canada/East-Saskatchewan", "US/Pacific-New", "Etc/Unknown", "Factory"]) names.add(n);

const resolve = (z) => {
  try { return new Intl.DateTimeFormat("en", { timeZone: z }).resolvedOptions().timeZone; } catch { return null; }
};
// each name's resolved spelling; a name accepted only in some of its case forms is listed apart
const resolved = {};
const caseSensitive = {};
for (const n of [...names].sort()) {
  const forms = [n, n.toLowerCase(), n.toUpperCase()].map(resolve);
  if (forms[0] === null && forms[1] === null && forms[2] === null) continue;
  if (forms[1] === forms[0] && forms[2] === forms[0]) resolved[n.toLowerCase()] = forms[0];
  else caseSensitive[n] = forms;
}

// --- offsets --------------------------------------------------------------------------------
const zones = [...new Set(Object.values(resolved).concat(Object.values(caseSensitive).flat()))]
  .filter((z) => z && z !== "UTC").sort();
const S = 1000, DAY = 86400 * S;
const YEAR = (y) => Date.UTC(y, 0, 1);
function offsetOf(z) {
  const f = new Intl.DateTimeFormat("en-US", { timeZone: z, hourCycle: "h23", era: "short", year: "numeric",
    month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  return (t) => {
    t = Math.floor(t / S) * S;
    const p = Object.fromEntries(f.formatToParts(t).map((x) => [x.type, x.value]));
    const y = p.era === "BC" || p.era === "B" ? 1 - Number(p.year) : Number(p.year);
    const d = new Date(0);
    d.setUTCFullYear(y, Number(p.month) - 1, Number(p.day));
    d.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
    return (d.getTime() - t) / S;
  };
}
// the system's transitions, as candidates only (two changes a week apart)
function candidates(z) {
  try {
    const out = execFileSync("python3", ["-c", `
import sys
from zoneinfo._zoneinfo import ZoneInfo
z = ZoneInfo(sys.argv[1])
print(" ".join(str(t) for t in (z._trans_utc or [])))`, z], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return out.trim().split(" ").filter(Boolean).map((s) => Number(s) * S);
  } catch { return []; }
}
function transitions(z, from, to, extra = []) {
  const off = offsetOf(z);
  const out = [];
  const bisect = (a, b, oa) => {  // a change between a and b (oa at a): its first second
    while (b - a > S) { const m = Math.floor((a + b) / 2 / S) * S; if (off(m) === oa) a = m; else b = m; }
    return b;
  };
  const points = new Set();
  for (let t = from; t < to; t += 7 * DAY) points.add(t);
  for (const c of extra) if (c > from && c < to) { points.add(c - S); points.add(c); points.add(c + 3600 * S); }
  const sorted = [...points].sort((a, b) => a - b);
  let prev = sorted[0], po = off(prev);
  for (const t of sorted.slice(1)) {
    const o = off(t);
    if (o !== po) {
      // every change inside (prev, t]: bisect from the left repeatedly
      let a = prev, oa = po;
      while (oa !== o || off(t) !== oa) {
        const c = bisect(a, t, oa);
        const oc = off(c);
        out.push([c / S, oc]);
        a = c; oa = oc;
        if (oc === o) break;
      }
    }
    prev = t; po = o;
  }
  return { first: off(from), changes: out };
}
// ---- the recurring rule: each change's local wall time (before it) as month/week/weekday + time
const dayOf = (y, m, w, dow) => {  // POSIX Mm.w.d: w 5 is the last
  if (w === 5) {
    const last = new Date(Date.UTC(y, m, 0));
    return Date.UTC(y, m - 1, last.getUTCDate() - ((last.getUTCDay() - dow + 7) % 7));
  }
  const first = new Date(Date.UTC(y, m - 1, 1)).getUTCDay();
  return Date.UTC(y, m - 1, 1 + ((dow - first + 7) % 7) + 7 * (w - 1));
};
function ruleFits(rule, changes, fromYear) {
  // rule: [[m, w, d, secs, offsetAfter] x2]; changes after fromYear
  const expected = ruleChanges(rule, fromYear, 2160);
  return JSON.stringify(expected) === JSON.stringify(changes.filter(([t]) => t >= YEAR(fromYear) / S && t < YEAR(2160) / S));
}
function ruleChanges(rule, y0, y1) {
  const out = [];
  const [a, b] = rule;
  for (let y = y0 - 1; y <= y1; y++) {
    for (const [m, w, d, secs, after] of [a, b]) {
      const before = after === a[4] ? b[4] : a[4];
      const t = (dayOf(y, m, w, d) / S) + secs - before;
      out.push([t, after]);
    }
  }
  return out.sort((x, y) => x[0] - y[0]).filter(([t]) => t >= YEAR(y0) / S && t < YEAR(y1) / S);
}
function fit(changes, fromYear) {
  const later = changes.filter(([t]) => t >= YEAR(fromYear) / S && t < YEAR(2160) / S);
  if (later.length === 0) return [];
  const offsets = [...new Set(later.map(([, o]) => o))];
  if (offsets.length !== 2) return null;
  const rule = [];
  for (const after of offsets) {
    const mine = later.filter(([, o]) => o === after);
    const before = offsets.find((o) => o !== after);
    let cands = null;
    for (const [t] of mine) {
      const wall = (t + before) * S, y = new Date(wall).getUTCFullYear();
      const here = [];
      for (let m = 1; m <= 12; m++) for (let w = 1; w <= 5; w++) for (let d = 0; d < 7; d++) {
        for (const yy of [y - 1, y, y + 1]) {
          const secs = (wall - dayOf(yy, m, w, d)) / S;
          if (Math.abs(secs) <= 167 * 3600) here.push(`${m},${w},${d},${secs}`);
        }
      }
      cands = cands === null ? new Set(here) : new Set(here.filter((c) => cands.has(c)));
    }
    if (!cands || cands.size === 0) return null;
    const [best] = [...cands].map((c) => c.split(",").map(Number)).sort((x, y) => Math.abs(x[3]) - Math.abs(y[3]));
    rule.push([...best, after]);
  }
  return ruleFits(rule, changes, fromYear) ? rule : null;
}

const data = {};
const started = Date.now();
for (const z of zones) {
  const { first, changes } = transitions(z, YEAR(1800), YEAR(2160), candidates(z));
  // the first year from which the rule (or a fixed offset) holds
  let keepTo = null, rule = null;
  for (let y = 2037; y < 2120; y++) {
    const r = fit(changes, y);
    if (r !== null) { keepTo = y; rule = r; break; }
  }
  if (rule === null) throw new Error(`no rule for ${z}`);
  const kept = changes.filter(([t]) => t < YEAR(keepTo) / S);
  // delta-encoded: seconds since the previous change, the offset after it
  let last = 0;
  const flat = [];
  for (const [t, o] of kept) { flat.push(t - last, o); last = t; }
  data[z] = [first, keepTo, rule, flat];
}
console.error(`scanned ${zones.length} zones in ${((Date.now() - started) / 1000).toFixed(0)} s`);

// --- the proof: 4,000 instants drawn over the whole range, against the table's reading -------
let seed = 7;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
function tableOffset(z, t) {
  const [first, keepTo, rule, flat] = data[z];
  const s = Math.floor(t / S);
  if (s >= YEAR(keepTo) / S && rule.length) {
    // the 400-year Gregorian cycle repeats every rule
    const cycle = 146097 * 86400;
    let ss = s;
    if (ss >= YEAR(2400) / S) ss -= Math.ceil((ss - YEAR(2400) / S) / cycle) * cycle;
    const y = new Date(ss * S).getUTCFullYear();
    const ch = ruleChanges(rule, y - 1, y + 2);
    let o = ch[0][1] === rule[0][4] ? rule[1][4] : rule[0][4];
    for (const [t2, o2] of ch) if (t2 <= ss) o = o2;
    return o;
  }
  let o = first, at = 0;
  for (let i = 0; i < flat.length; i += 2) { at += flat[i]; if (at <= s) o = flat[i + 1]; else break; }
  return o;
}
let bad = 0;
for (let i = 0; i < 4000; i++) {
  const z = zones[Math.floor(rnd() * zones.length)];
  const t = Math.floor(rnd() < 0.6 ? YEAR(1800) + rnd() * (YEAR(2160) - YEAR(1800)) : (rnd() * 2 - 1) * 8.64e15);
  if (offsetOf(z)(t) !== tableOffset(z, t)) { bad++; if (bad < 10) console.error("mismatch", z, t, offsetOf(z)(t), tableOffset(z, t)); }
}
if (bad) throw new Error(`${bad} of 4000 offsets differ`);

// the names as written that ICU itself knows (node's TZ is read as written, case and all)
const spellings = [...names].filter((n) => resolve(n) !== null).sort();
const out = { zoneNames: resolved, zoneNamesCased: caseSensitive, zoneSpellings: spellings, zoneOffsets: data };
const bytes = gzipSync(JSON.stringify(out), { level: 9 });
writeFileSync(new URL("../core/expressions/js/intl/tables/zones.json.gz", import.meta.url), bytes);
console.log(`wrote core/expressions/js/intl/tables/zones.json.gz: ${bytes.length} bytes, ${Object.keys(resolved).length} names, ${zones.length} zones`);
