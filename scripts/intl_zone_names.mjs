// Writes core/expressions/js/intl/tables/zonenames.json.xz and zonenames-{style}.json.xz: the
// names node's ICU gives a time zone other than UTC in the styles timeZoneName short, long,
// shortGeneric and longGeneric (and which of them timeStyle full and long print), in every
// locale whose GMT formats tables/zoneparts has. Run with the node flowctx reproduces:
//   node scripts/intl_zone_names.mjs
// ICU names a zone by the metazone in effect at the instant (its standard or daylight name, the
// generic one, or the standard one where no daylight time is near), else by its location or the
// GMT format, and the generic names by a partial location where the metazone's reference zone in
// the locale's region has another offset: which of these depends on the instant and the region.
// So each zone's time line is cut where the names change in a few probe locales (scanned from
// 1790 to 2050, or a year after the zone's own rule starts, and from 9998 to 10002, around every
// offset change and 184 days either side of it, and around the changes of the zones that share
// an English name with it, its metazone's reference zone among them, bisected to the
// millisecond; en-GB, es and en-AU among the probes for their short names, which ICU reads as
// partial locations even where no daylight time is near), each segment read
// at its start, middle and end in one locale of every region that shares an English name with
// the zone (the system's zone.tab names the zones' countries) and cut where one changes; each
// distinct set of names is a class of the zone. Before 1790 the first class holds; between the
// scans and after them the class of the zone's offset (and of whether the wall time comes again
// after a change back); where that says too little (the reference zone keeps daylight time on
// other days), the zone is scanned 31 years longer and an instant is read at the same time of a
// scanned year alike ("shift": January 1st's weekday, its and its neighbours' leap days). Every
// locale's names are measured once per class (at the middle of its last segment), a name that is
// the GMT format of the instant's offset kept as "-"; each style's lists keep "" for the parent
// locale's name, "=" for the locale's own name of the key's reference (an earlier key whose name
// most locales share), "+" for the pool's next name (the pool in the order the lists name them).
// 20,000 random instants, zones, locales and styles check the tables against node.
// ZONES=a,b limits a --segments run to some zones (to try it); --encode FILE re-writes the tables
// from what a run with KEEP=FILE measured.
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { spawn, execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const STYLES = ["short", "long", "shortGeneric", "longGeneric"];
const OFFSET_STYLE = { short: "shortOffset", shortGeneric: "shortOffset", long: "longOffset", longGeneric: "longOffset" };
// (en-GB, es and en-AU write short metazone names whose standard and generic are one: ICU reads
// the metazone's reference zone for them in more instants than en's names show)
const PROBES = ["en", "en-CA", "ja", "fr", "en-GB", "es", "en-AU"];
const S = 1000, DAY = 86400 * S, RANGE = 184 * DAY;
const YEAR = (y) => { const d = new Date(0); d.setUTCFullYear(y, 0, 1); return d.getTime(); };
const A0 = YEAR(1790), A1 = YEAR(2050), B0 = YEAR(9998), B1 = YEAR(10002);
const MAX = 8.64e15;
// a gap's key: the offset (seconds), "f" after it where the wall time comes again after a change
function foldKey(off, t) {
  const o = off(t), later = off(t + 6 * 3600 * S);
  return later < o && off(t + (o - later) * S) === later ? `${o}f` : `${o}`;
}

const formatters = new Map();
function namer(tag, zone, style) {
  const key = `${tag}|${zone}|${style}`;
  let f = formatters.get(key);
  if (!f) { f = new Intl.DateTimeFormat(tag, { timeZone: zone, timeZoneName: style }); formatters.set(key, f); }
  return (t) => f.formatToParts(t).find((p) => p.type === "timeZoneName").value;
}
// a zone's name in a style at an instant, "-" where it is the GMT format of its offset
function nameAt(tag, zone, style, t) {
  const v = namer(tag, zone, style)(t);
  return v === namer(tag, zone, OFFSET_STYLE[style])(t) ? "-" : v;
}
const offsetCache = new Map();
const offsetOf = (zone) => { if (!offsetCache.has(zone)) offsetCache.set(zone, offsetAt(zone)); return offsetCache.get(zone); };
const offsetAt = (zone) => {
  const f = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", era: "short", year: "numeric",
    month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
  return (t) => {
    const s = Math.floor(t / S) * S;
    const p = Object.fromEntries(f.formatToParts(s).map((x) => [x.type, x.value]));
    const y = p.era === "BC" || p.era === "B" ? 1 - Number(p.year) : Number(p.year);
    const d = new Date(0);
    d.setUTCFullYear(y, Number(p.month) - 1, Number(p.day));
    d.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
    return (d.getTime() - s) / S;
  };
};

// --- the recurring rules (as scripts/intl_zones.mjs writes them) --------------------------------
const dayOf = (y, m, w, dow) => {
  const at = (yy, mm, dd) => { const d = new Date(0); d.setUTCFullYear(yy, mm, dd); return d; };
  if (w === 5) {
    const last = at(y, m, 0);
    return at(y, m - 1, last.getUTCDate() - ((last.getUTCDay() - dow + 7) % 7)).getTime();
  }
  const first = at(y, m - 1, 1).getUTCDay();
  return at(y, m - 1, 1 + ((dow - first + 7) % 7) + 7 * (w - 1)).getTime();
};
function ruleChanges(rule, y0, y1) {
  const out = [];
  if (!rule.length) return out;
  const [a, b] = rule;
  for (let y = y0; y <= y1; y++) for (const [m, w, d, secs, after] of [a, b]) {
    const before = after === a[4] ? b[4] : a[4];
    out.push(dayOf(y, m, w, d) + (secs - before) * S);
  }
  return out;
}
function changesOf(zone, offsets) {
  const [, keepTo, rule, flat] = offsets[zone];
  const out = [];
  let at = 0;
  for (let i = 0; i < flat.length; i += 2) { at += flat[i]; out.push(at * S); }
  return out.concat(ruleChanges(rule, keepTo, Math.max(2050, keepTo + 1) + 1), ruleChanges(rule, 9997, 10002));
}

// --- one zone's classes and segments ------------------------------------------------------------
// the first instant in (a, b] where f is not fa (f changes once there, or this finds one change)
function bisect(f, a, b, fa) {
  let lo = a, hi = b;
  while (hi - lo > 1) { const m = Math.floor((lo + hi) / 2); if (f(m) === fa) lo = m; else hi = m; }
  return hi;
}
function segmentsOf(zone, offsets, shift = false) {
  const end = Math.max(2050, offsets[zone][1] + 1) + (shift ? 31 : 0), A1 = YEAR(end);
  const sig = (t) => PROBES.map((tag) => STYLES.map((s) => nameAt(tag, zone, s, t)).join("\u0001")).join("\u0002");
  const changes = changesOf(zone, offsets);
  const candidates = [];
  for (const c of changes) candidates.push(c, c + RANGE, c - RANGE + 1, c - RANGE);
  // the changes of the zones that share an English name with it (its metazone's reference zone
  // among them: ICU reads that zone's offset at the same wall time, so the generic names may
  // change between the two zones' changes, for hours only), where the two zones' offsets differ
  // on either side of it
  const offZ = offsetOf(zone), kin = new Set();
  for (const other of kinOf(zone)) {
    if (other === zone) continue;
    const offK = offsetOf(other);
    for (const c of changesOf(other, offsets)) {
      if (c < YEAR(1970) || c >= A1 || (offK(c) === offZ(c) && offK(c - 1) === offZ(c - 1))) continue;
      for (const d of [0, -3600 * S, 3600 * S]) kin.add(c + d);
    }
  }
  const kinPoints = [...kin].sort((a, b) => a - b);
  candidates.push(...kinPoints);
  candidates.push(YEAR(1970), Date.UTC(9999, 11, 31, 23, 59), YEAR(10000));
  const points = new Set();
  for (let y = 1790; y < 1900; y++) points.add(YEAR(y));
  for (let y = 1900; y < end; y++) for (let m = 0; m < 12; m++) points.add(Date.UTC(y, m, 1));
  for (let y = 9998; y < 10002; y++) for (let m = 0; m < 12; m++) { const d = new Date(0); d.setUTCFullYear(y, m, 1); points.add(d.getTime()); }
  for (const c of candidates) if ((c >= A0 && c < A1) || (c >= B0 && c < B1)) points.add(c);
  const sorted = [...points].sort((a, b) => a - b);
  const cands = [...new Set(candidates)].sort((a, b) => a - b);
  const out = [];  // [start, the probes' names]
  const scan = (from, to) => {
    const pts = sorted.filter((t) => t >= from && t < to);
    let a = pts[0], sa = sig(a);
    out.push([a, sa]);
    for (const b of pts.slice(1)) {
      const sb = sig(b);
      while (sa !== sb) {
        // the first instant in (a, b] whose names are not a's: a candidate, else bisected
        let first = null;
        for (const c of cands) {
          if (c <= a || c > b) continue;
          if (sig(c - 1) === sa && sig(c) !== sa) { first = c; break; }
          if (sig(c) !== sa) break;
        }
        if (first === null) first = bisect(sig, a, b, sa);
        a = first; sa = sig(a);
        out.push([a, sa]);
      }
      a = b;
    }
  };
  scan(A0, A1);
  const partA = out.length;
  scan(B0, B1);
  // the generic names' partial locations follow the metazone's reference zone in the locale's
  // region: each segment is read in one locale of every region at its start, middle and end (and
  // at the changes of the zones that share its English name), and cut where one of them changes
  // (no metazone before 1970: nothing to cut there)
  const names = (tags, t) => t < YEAR(1970) ? "" : tags.map((tag) => `${namer(tag, zone, "longGeneric")(t)}\u0001${namer(tag, zone, "shortGeneric")(t)}`).join("\u0002");
  const REGIONS = regionsOf(zone);
  const rsig = (t) => names(REGIONS, t);
  const cut = [];  // [start, names, in the first range]
  out.forEach(([start, s], i) => {
    const first = i < partA;
    const end = i + 1 < out.length && i + 1 !== partA ? out[i + 1][0] : first ? A1 : B1;
    let a = start, ra = rsig(a);
    cut.push([a, `${s}\u0003${ra}`, first]);
    const inside = kinPoints.filter((t) => t > start && t < end);
    for (const b of [...new Set([...inside, Math.floor((start + end) / 2), end - 1])].sort((x, y) => x - y)) {
      if (b <= a) continue;
      const rb = rsig(b);
      while (ra !== rb) {
        // bisected in the regions that differ only
        const x = ra.split("\u0002"), y = rb.split("\u0002");
        const some = REGIONS.filter((_, k) => x[k] !== y[k]);
        const f = (t) => names(some, t);
        a = bisect(f, a, b, f(a)); ra = rsig(a);
        cut.push([a, `${s}\u0003${ra}`, first]);
      }
      a = b;
    }
  });
  // a class's names are measured in the middle of its last segment (the latest offsets, not a
  // historical one's)
  const classes = new Map(), reps = [];
  const classOf = (s, t) => { if (!classes.has(s)) { classes.set(s, reps.length); reps.push(t); } return classes.get(s); };
  for (let i = cut.length - 1; i >= 0; i--) {
    const [start, s, first] = cut[i];
    const end = i + 1 < cut.length && cut[i + 1][2] === first ? cut[i + 1][0] : first ? A1 : B1;
    classOf(s, Math.floor((start + end) / 2));
  }
  const parts = [[], []];
  for (const [start, s, first] of cut) {
    const list = parts[first ? 0 : 1], c = classes.get(s);
    if (!list.length || list[list.length - 1][1] !== c) list.push([start, c]);
  }
  // between the ranges and after them: the class of the zone's offset there, and of whether the
  // instant's wall time comes again after a change back (ICU compares the metazone's reference
  // zone's offset at that wall time, which it reads after the change: a partial location name)
  const off = offsetAt(zone);
  const tail = (from, to) => {
    const map = {};
    const pts = new Set();
    for (let t = from; t < to; t += 5 * DAY) pts.add(t);
    for (const c of changes) if (c > from && c < to) for (const d of [-1, -S, -1800 * S, -3600 * S, 0, S, -RANGE, RANGE]) pts.add(c + d);
    for (const t of [...pts].filter((t) => t >= from && t < to)) {
      const k = foldKey(off, t), c = classOf(`${sig(t)}\u0003${rsig(t)}`, t);
      if (k in map && map[k] !== c) return null;
      map[k] = c;
    }
    return map;
  };
  // (where the metazone's reference zone keeps daylight time on other days than the zone, the
  // offset says too little: the zone is scanned 31 years longer, and an instant in the gap is
  // read at the same time of a scanned year whose January 1st is the same weekday and whose
  // year, the one before and the one after are leap years alike: "shift")
  const gapA = shift ? "shift" : tail(YEAR(end - 2), A1), gapB = tail(YEAR(10001), B1);
  if (!gapA && !shift) return segmentsOf(zone, offsets, true);
  if (!gapB) console.error(`${zone}: no class by offset after 10002`);
  return { segments: parts, gaps: [gapA, gapB], reps, end };

}

// --- a locale's names for every class of every zone ---------------------------------------------
function namesOf(tag, segs) {
  const out = {};
  for (const style of STYLES) {
    out[style] = [];
    for (const [zone, s] of Object.entries(segs)) for (const t of s.reps) out[style].push(nameAt(tag, zone, style, t));
  }
  // which style timeStyle full and long print: the one whose names match everywhere
  const probe = [["America/Los_Angeles", 0], ["America/Los_Angeles", 1.5e12], ["Europe/Berlin", 1.5e12],
    ["Asia/Tokyo", 0], ["Asia/Calcutta", 1e12], ["Etc/GMT+5", 0], ["Europe/London", 1.5e12], ["Australia/Sydney", 1e12],
    ["Europe/Berlin", -3e12], ["America/Phoenix", 1e12]];
  out.timeStyle = {};
  for (const ts of ["full", "long"]) {
    const styles = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"].filter((style) =>
      probe.every(([zone, t]) => {
        const p = new Intl.DateTimeFormat(tag, { timeZone: zone, timeStyle: ts }).formatToParts(t).find((x) => x.type === "timeZoneName");
        return p && p.value === namer(tag, zone, style)(t);
      }));
    out.timeStyle[ts] = styles.length ? styles[0] : null;
  }
  return out;
}

function child(args) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ["--max-old-space-size=4096", fileURLToPath(import.meta.url), ...args]);
    // (the chunks joined before they are read as UTF-8: a character may span two)
    const chunks = [];
    p.stdout.on("data", (b) => { chunks.push(b); });
    p.stderr.on("data", (b) => process.stderr.write(b));
    p.on("close", (code) => resolve({ code, out: Buffer.concat(chunks).toString("utf8") }));
  });
}
const reply = (v) => { process.stdout.write(JSON.stringify(v), () => process.exit(0)); };

const offsets = read("zones.json.gz").zoneOffsets;
// node reports Etc/GMT0, Etc/GMT+0, Etc/GMT-0, Etc/Greenwich and Greenwich as UTC, but ICU names
// them as its zone Etc/GMT (the metazone GMT), not as UTC: measured as one more zone, at UTC's
// offset
offsets["Etc/GMT0"] = [0, 1970, [], []];
const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);
// one locale of each region (as likely subtags make it)
const REGION_LOCALE = (() => {
  const seen = new Map();
  for (const tag of read("locales.json.gz").locales.date) {
    let region;
    try { region = new Intl.Locale(tag).maximize().region; } catch { continue; }
    if (region && !seen.has(region)) seen.set(region, tag);
  }
  return seen;
})();
// the regions whose reference zone for a zone's metazone may be another than the world's: the
// countries (the system's zone.tab) of the zones that share an English specific name with it at
// some instant, the zone's own among them
function regionsOf(zone) {
  if (!regionsOf.cache) {
    const countries = new Map();
    for (const line of readFileSync("/usr/share/zoneinfo/zone.tab", "utf8").split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const [cc, , name] = line.split("\t");
      let z;
      try { z = new Intl.DateTimeFormat("en", { timeZone: name }).resolvedOptions().timeZone; } catch { continue; }
      if (!countries.has(z)) countries.set(z, new Set());
      countries.get(z).add(cc);
    }
    const at = [];
    for (const y of [1971, 1975, 1980, 1985, 1990, 1995, 2000, 2005, 2010, 2015, 2020, 2024]) at.push(Date.UTC(y, 0, 15), Date.UTC(y, 6, 15));
    const byName = new Map(), namesOf = new Map();
    for (const z of ALL_ZONES) {
      const mine = new Set(at.map((t) => nameAt("en", z, "long", t)).filter((v) => v !== "-"));
      namesOf.set(z, mine);
      for (const n of mine) { if (!byName.has(n)) byName.set(n, new Set()); byName.get(n).add(z); }
    }
    regionsOf.cache = new Map();
    kinOf.cache = new Map();
    for (const z of ALL_ZONES) {
      const ccs = new Set(countries.get(z) || []);
      const kin = new Set();
      for (const n of namesOf.get(z)) for (const other of byName.get(n)) { kin.add(other); for (const cc of countries.get(other) || []) ccs.add(cc); }
      regionsOf.cache.set(z, [...ccs].sort().map((cc) => REGION_LOCALE.get(cc)).filter(Boolean));
      kinOf.cache.set(z, [...kin].sort());
    }
  }
  return regionsOf.cache.get(zone);
}
// the zones that share an English specific name with a zone at some instant (itself among them)
function kinOf(zone) {
  regionsOf(zone);
  return kinOf.cache.get(zone);
}
const ALL_ZONES = Object.keys(offsets).sort();
const ZONES = (process.env.ZONES ? process.env.ZONES.split(",") : Object.keys(offsets)).sort();
if (process.argv[2] === "--segments") {
  const [i, n] = process.argv[3].split("/").map(Number);
  const out = {};
  for (const zone of ZONES.filter((_, k) => k % n === i)) out[zone] = segmentsOf(zone, offsets);
  reply(out);
  await new Promise(() => {});
}
if (process.argv[2] === "--names") {
  const segs = JSON.parse(readFileSync(process.argv[4], "utf8"));
  reply(Object.fromEntries(process.argv[3].split(",").map((tag) => {
    const m = namesOf(tag, segs);
    formatters.clear();
    return [tag, m];
  })));
  await new Promise(() => {});
}

// --- the segments, in two children (or, with --encode FILE, what an earlier run measured) -----
const started = Date.now();
let ordered, measured;
if (process.argv[2] === "--encode") {
  ({ ordered, measured } = JSON.parse(readFileSync(process.argv[3], "utf8")));
  // a run before the chunks were joined whole kept a character split between two as U+FFFD:
  // those names are measured again
  const at = [];
  for (const z of ZONES) ordered[z].reps.forEach((t) => at.push([z, t]));
  let repaired = 0;
  for (const [tag, m] of Object.entries(measured)) for (const style of STYLES) {
    m[style].forEach((v, i) => {
      if (!v.includes("\uFFFD")) return;
      m[style][i] = nameAt(tag, at[i][0], style, at[i][1]);
      repaired++;
    });
  }
  if (repaired) console.error(`measured again: ${repaired} names a split character spoilt`);
  // zones an earlier run left without a gap's class: scanned again, their names measured again
  const again = ZONES.filter((z) => ordered[z].gaps[0] === null);
  if (again.length) {
    const before = {};
    let k = 0;
    for (const z of ZONES) { before[z] = [k, ordered[z].reps.length]; k += ordered[z].reps.length; }
    const fresh = Object.fromEntries(again.map((z) => [z, segmentsOf(z, offsets, true)]));
    const file = `${mkdtempSync(`${tmpdir()}/zonenames-`)}/segments.json`;
    writeFileSync(file, JSON.stringify(fresh));
    const tags = Object.keys(measured);
    let next = 0;
    const worker = async () => {
      while (next < tags.length) {
        const tag = tags[next++];
        const { code, out } = await child(["--names", tag, file]);
        if (code !== 0) throw new Error(`names of ${tag}`);
        const m = JSON.parse(out)[tag];
        for (const style of STYLES) {
          let at = 0;
          const pieces = {};
          for (const z of again) { pieces[z] = m[style].slice(at, at + fresh[z].reps.length); at += fresh[z].reps.length; }
          const list = [];
          for (const z of ZONES) {
            const [from, n] = before[z];
            list.push(...(z in pieces ? pieces[z] : measured[tag][style].slice(from, from + n)));
          }
          measured[tag][style] = list;
        }
      }
    };
    await Promise.all([worker(), worker()]);
    Object.assign(ordered, fresh);
    console.error(`scanned again: ${again.join(" ")}`);
    if (process.env.KEEP) writeFileSync(process.env.KEEP, JSON.stringify({ ordered, measured }));
  }
} else {
  const segs = {};
  for (const { code, out } of await Promise.all([child(["--segments", "0/2"]), child(["--segments", "1/2"])])) {
    if (code !== 0) throw new Error("a segment scan failed");
    Object.assign(segs, JSON.parse(out));
  }
  ordered = Object.fromEntries(ZONES.map((z) => [z, segs[z]]));
  console.error(`segments: ${ZONES.length} zones in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const segFile = `${mkdtempSync(`${tmpdir()}/zonenames-`)}/segments.json`;
  writeFileSync(segFile, JSON.stringify(ordered));

  // --- every locale's names, two at a time ------------------------------------------------------
  const gmt = read("zoneparts.json.gz").zoneGmt;
  const refusedParts = new Set(read("zoneparts.json.gz").zonePartsRefused);
  const hasGmt = (tag) => { for (let t = tag; t; t = parentOf(t)) { if (refusedParts.has(t)) return false; if (t in gmt) return true; } return false; };
  const locales = read("locales.json.gz").locales.date.filter(hasGmt);
  measured = {};
  const failed = [];
  let next = 0;
  const worker = async () => {  // twenty locales a child
    while (next < locales.length) {
      const batch = locales.slice(next, next + 20);
      next += 20;
      const { code, out } = await child(["--names", batch.join(","), segFile]);
      if (code !== 0) { failed.push(...batch); continue; }
      Object.assign(measured, JSON.parse(out));
    }
  };
  await Promise.all([worker(), worker()]);
  console.error(`names: ${Object.keys(measured).length} locales in ${((Date.now() - started) / 1000).toFixed(0)} s; failed ${failed.join(" ") || "none"}`);
  if (process.env.KEEP) writeFileSync(process.env.KEEP, JSON.stringify({ ordered, measured }));
}
const classCount = ZONES.reduce((n, z) => n + ordered[z].reps.length, 0);

// --- the tables -------------------------------------------------------------------------------
// a zone's segments: [delta-encoded starts, classes] for each scanned range; the gaps' classes by
// offset (seconds); each zone's first key (its classes' keys follow)
const zoneData = {};
let key = 0;
for (const z of ZONES) {
  const { segments, gaps, reps, end } = ordered[z];
  const enc = segments.map((list) => {
    let last = 0;
    const flat = [];
    for (const [t, c] of list) { flat.push(t - last, c); last = t; }
    return flat;
  });
  zoneData[z] = [key, enc, gaps, end];
  key += reps.length;
}
const nearest = (tag, pick) => { for (let t = parentOf(tag); t; t = parentOf(t)) if (t in measured) return pick(measured[t]); return null; };
// the styles timeStyle full and long print: the most common pair, and each locale's where it is
// not its parent's (or, at the root, the common pair)
const pairs = Object.values(measured).map((m) => JSON.stringify(m.timeStyle));
const common = pairs.sort((x, y) => pairs.filter((p) => p === y).length - pairs.filter((p) => p === x).length)[0];
const timeStyles = {};
for (const [tag, m] of Object.entries(measured)) {
  const inherited = JSON.stringify(nearest(tag, (p) => p.timeStyle) ?? JSON.parse(common));
  if (inherited !== JSON.stringify(m.timeStyle)) timeStyles[tag] = m.timeStyle;
}
const meta = { zoneNameZones: zoneData, zoneNameTimeStyles: timeStyles, zoneNameTimeStyle: JSON.parse(common),
  zoneNameLocales: Object.keys(measured).sort(), zoneNameRanges: [A0, B0, B1] };
// xz, not gzip: the names compress a third smaller (Python reads both)
const xz = (value) => execFileSync("xz", ["-9e", "-c"], { input: JSON.stringify(value), maxBuffer: 1 << 28 });
const metaBytes = xz(meta);
writeFileSync(new URL("zonenames.json.xz", tables), metaBytes);
const sizes = [`zonenames.json.xz ${metaBytes.length}`];
// each style's names: a locale's list over the keys (every class of every zone) holds "" where
// the name is its parent's, "=" where it is its own name of the key's reference (an earlier key
// whose name most locales share: the same metazone's in another zone or class), "-" for the GMT
// format, else a name of the pool (base 36)
function decode(table, tag, cache = new Map()) {
  if (cache.has(tag)) return cache.get(tag);
  let parent = null;
  for (let t = parentOf(tag); t && parent === null; t = parentOf(t)) if (t in table.tags) parent = decode(table, t, cache);
  if (!(tag in table.tags)) { cache.set(tag, parent); return parent; }
  const [start, text] = table.tags[tag].split("|");
  let next = parseInt(start, 36);
  const out = [];
  text.split(",").forEach((v, i) => {
    out.push(v === "" ? parent[i] : v === "=" ? out[table.ref[i]] : v === "-" ? "-" : v === "+" ? table.pool[next++] : table.pool[parseInt(v, 36)]);
  });
  cache.set(tag, out);
  return out;
}
const styleTables = {};
const tagsSorted = Object.keys(measured).sort((x, y) => x.split("-").length - y.split("-").length || (x < y ? -1 : 1));
for (const style of STYLES) {
  const K = measured.en[style].length;
  // the reference of each key: among the earlier keys of the same English name, the one whose
  // names agree in the most locales (at least half of them)
  const byName = new Map(), ref = [];
  const all = Object.values(measured).map((m) => m[style]);
  for (let i = 0; i < K; i++) {
    const name = measured.en[style][i];
    const earlier = byName.get(name) || [];
    let best = -1, most = all.length / 2;
    for (const j of earlier.slice(-40)) {
      let n = 0;
      for (const v of all) if (v[i] === v[j]) n++;
      if (n > most) { most = n; best = j; }
    }
    ref.push(best);
    earlier.push(i);
    byName.set(name, earlier);
  }
  // the pool in the order the lists first name its names (a language's together, "+": the next
  // one), each list led by the pool's length before it
  const pool = [], index = new Map();
  const table = { pool, ref: ref.map((j) => (j < 0 ? "" : j.toString(36))).join(","), tags: {} };
  const refs = ref;
  for (const tag of tagsSorted) {
    const own = measured[tag][style];
    let parent = null;
    for (let t = parentOf(tag); t && parent === null; t = parentOf(t)) if (t in measured) parent = measured[t][style];
    if (parent && own.every((v, i) => parent[i] === v)) continue;
    const start = pool.length;
    const list = own.map((v, i) => {
      if (parent && parent[i] === v) return "";
      if (refs[i] >= 0 && own[refs[i]] === v) return "=";
      if (v === "-") return "-";
      if (index.has(v)) return index.get(v);
      index.set(v, pool.length.toString(36));
      pool.push(v);
      return "+";
    });
    table.tags[tag] = `${start.toString(36)}|${list.join(",")}`;
  }
  const bytes = xz({ [`zoneNames-${style}`]: table });
  writeFileSync(new URL(`zonenames-${style}.json.xz`, tables), bytes);
  sizes.push(`zonenames-${style}.json.xz ${bytes.length}`);
  styleTables[style] = { ...table, ref: refs };
}
console.log(`wrote ${sizes.join(", ")}; ${Object.keys(measured).length} locales, ${ZONES.length} zones, ${classCount} classes`);

// --- the check: random instants, zones, locales, styles, read back from the tables --------------
function classAt(zone, t) {
  const [, enc, gaps, end] = zoneData[zone];
  const A1 = YEAR(end);
  const inRange = (list, t) => { let at = 0, c = null; for (let i = 0; i < list.length; i += 2) { at += list[i]; if (at <= t) c = list[i + 1]; else break; } return c; };
  if (t < A1) return inRange(enc[0], Math.max(t, A0));
  if (t < B0 && gaps[0] === "shift") { const u = shifted(t, end); return u === null ? undefined : inRange(enc[0], u); }
  if (t < B0) return gaps[0] ? gaps[0][foldKey(offsetAt(zone), t)] : undefined;
  if (t < B1) return inRange(enc[1], t);
  return gaps[1] ? gaps[1][foldKey(offsetAt(zone), t)] : undefined;
}
// the instant at the same time of a year before ``end`` alike (January 1st's weekday, leap years)
function shifted(t, end) {
  const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const like = (y) => `${new Date(YEAR(y)).getUTCDay()}${leap(y - 1)}${leap(y)}${leap(y + 1)}`;
  const y = new Date(t).getUTCFullYear(), want = like(y);
  for (let z = end - 2; z >= end - 30; z--) if (like(z) === want) return t - (YEAR(y) - YEAR(z));
  return null;  // (a zone scanned past 2100, which no other year is like: refused)
}
const decoded = Object.fromEntries(STYLES.map((s) => [s, new Map()]));
function tableName(tag, zone, style, t) {
  const c = classAt(zone, t);
  if (c === undefined) return "refused";
  const k = zoneData[zone][0] + c;
  const v = decode(styleTables[style], tag, decoded[style])[k];
  return v === "-" ? namer(tag, zone, OFFSET_STYLE[style])(t) : v;
}
let seed = 31;
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
let bad = 0, refused = 0;
const tags = Object.keys(measured);
for (let i = 0; i < 20000; i++) {
  const tag = tags[Math.floor(rnd() * tags.length)], zone = ZONES[Math.floor(rnd() * ZONES.length)];
  const style = STYLES[Math.floor(rnd() * 4)];
  const r = rnd();
  const t = Math.floor(r < 0.5 ? YEAR(1900) + rnd() * (YEAR(2060) - YEAR(1900)) : r < 0.8 ? A0 + rnd() * (YEAR(2200) - A0)
    : (rnd() * 2 - 1) * MAX);
  const want = namer(tag, zone, style)(t), got = tableName(tag, zone, style, t);
  if (got === "refused") { refused++; continue; }
  if (want !== got) { bad++; if (bad < 20) console.error("mismatch", tag, zone, style, t, JSON.stringify(want), JSON.stringify(got)); }
}
console.log(`check: ${bad} of 20000 names differ, ${refused} refused`);
if (bad) process.exitCode = 1;
