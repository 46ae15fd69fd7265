// Writes core/expressions/js/intl/tables/localeinfo.json.gz: what node's Intl.Locale getters
// (calendars, collations, hourCycles, numberingSystems, textInfo, timeZones, weekInfo) answer
// without keywords. ICU takes most by the region (the tag's, else its likely one): measured
// for every region und-XX (two letters, and the numeric ones CLDR's likely subtags name), each
// kept where it differs from 001's. The hour cycle is the region's unless CLDR's time data names
// the language with it (fr-CA): those measured for every locale node has. Collations and the
// numbering system follow the locale's data (its nearest parent's): measured for every locale.
// The direction follows the locale's data: the right-to-left locales. And the numbering systems
// a -u-nu- may name (another makes the hour cycles an error).
//   node scripts/intl_locale_info.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (name) => JSON.parse(gunzipSync(readFileSync(new URL(name, tables))));
const sets = read("locales.json.gz").locales;
const likely = read("likely.json.gz");
// every locale node has, and every language CLDR's likely subtags name (ICU has data for more
// languages than Intl lists: nqo's digits)
const locales = [...new Set([...Object.values(sets).filter(Array.isArray).flat(),
  ...Object.keys(likely.likely).filter((t) => /^[a-z]{2,3}$/.test(t))])].sort();
const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const regions = [];
for (const a of letters) for (const b of letters) regions.push(a + b);
// the numeric regions (UN M.49's groupings)
regions.push("001", "002", "003", "005", "009", "011", "013", "014", "015", "017", "018", "019",
  "021", "029", "030", "034", "035", "039", "053", "054", "057", "061", "142", "143", "145", "150",
  "151", "154", "155", "202", "419");

// (the hour cycle through ja: und-ZZ takes en-US's where the region has no time data)
const byRegion = (r) => {
  const l = new Intl.Locale(`und-${r}`);
  return { calendars: l.calendars, hourCycles: new Intl.Locale(`ja-${r}`).hourCycles, timeZones: l.timeZones, weekInfo: l.weekInfo };
};
const world = byRegion("001");
const region = {};
for (const r of regions) {
  const row = byRegion(r);
  const own = {};
  for (const [k, v] of Object.entries(row)) if (JSON.stringify(v) !== JSON.stringify(world[k])) own[k] = v;
  if (Object.keys(own).length) region[r] = own;
}
const regionOf = (tag) => {
  const parts = new Intl.Locale(tag).maximize().baseName.split("-");
  return parts.find((p, i) => i && (/^[A-Z]{2}$/.test(p) || /^\d{3}$/.test(p))) || "";
};
// und with a region: its own where it is not the region's (und-ZZ's h12)
const undHours = {};
for (const r of regions) {
  const h = new Intl.Locale(`und-${r}`).hourCycles;
  if (JSON.stringify(h) !== JSON.stringify((region[r] || {}).hourCycles || world.hourCycles)) undHours[r] = h;
}
const hourOf = (r) => JSON.stringify((region[r] || {}).hourCycles || world.hourCycles);
// the hour cycles CLDR names with a language (fr-CA's h23 against CA's h12), collations and
// numbering systems of every locale node has
const hours = {};
const collations = {};
const numbering = {};
for (const tag of locales) {
  const l = new Intl.Locale(tag);
  const place = regionOf(tag);
  if (JSON.stringify(l.hourCycles) !== hourOf(place)) hours[tag] = l.hourCycles;
  collations[tag] = l.collations;
  numbering[tag] = l.numberingSystems;
}
// ICU's parent: the tag less its last subtag, but a language with a script other than its own
// falls to the root (bn-Hant is not bn's)
const parent = (tag) => {
  if (!tag.includes("-")) return "und";
  const parts = tag.split("-");
  if (parts.length === 2 && /^[A-Z][a-z]{3}$/.test(parts[1]) && new Intl.Locale(parts[0]).maximize().script !== parts[1]) return "und";
  return tag.slice(0, tag.lastIndexOf("-"));
};
const pruned = (rows) => {
  const out = {};
  for (const tag of Object.keys(rows)) {
    let p = parent(tag);
    while (p !== "und" && !(p in rows)) p = parent(p);
    const base = rows[p] ?? rows.und ?? new Intl.Locale("und")[rows === collations ? "collations" : "numberingSystems"];
    if (JSON.stringify(base) !== JSON.stringify(rows[tag]) || tag === "und") out[tag] = rows[tag];
  }
  return out;
};
collations.und = new Intl.Locale("und").collations;
numbering.und = new Intl.Locale("und").numberingSystems;
// right-to-left locales (the locale's layout data, its nearest parent's: az-Arab is az's ltr)
const rtl = locales.filter((tag) => new Intl.Locale(tag).textInfo.direction === "rtl");
// numbering systems a -u-nu- may name (ICU's, algorithmic ones too)
const candidates = [...Intl.supportedValuesOf("numberingSystem"), "armn", "armnlow", "cyrl", "ethi",
  "geor", "grek", "greklow", "hanidays", "hans", "hansfin", "hant", "hantfin", "hebr", "jpan",
  "jpanfin", "jpanyear", "roman", "romanlow", "taml", "native", "traditio", "finance", "foo"];
const nu = candidates.filter((n) => { try { new Intl.Locale(`en-u-nu-${n}`).hourCycles; return true; } catch { return false; } });
const out = { world, region, regions, undHours, hours, collations: pruned(collations), numbering: pruned(numbering), rtl, nu: [...new Set(nu)].sort() };
writeFileSync(new URL("localeinfo.json.gz", tables), gzipSync(JSON.stringify({ localeInfo: out }), { level: 9 }));
console.log(`${Object.keys(region).length} regions, ${Object.keys(hours).length} hour cycles by language, ${Object.keys(out.collations).length} collation rows, ${Object.keys(out.numbering).length} numbering rows, ${rtl.length} rtl locales, ${out.nu.length} numbering systems`);
