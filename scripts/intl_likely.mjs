// Writes core/expressions/js/intl/tables/likely.json.gz: the likely subtags Intl.Locale's
// maximize and minimize add and remove (UTS #35's algorithm over CLDR's likelySubtags, from the
// cldr-core package of node's CLDR version), with the tags where node's ICU answers otherwise
// kept as they are, found by comparing node's maximize and minimize with the algorithm's over
// every language CLDR lists, alone and with each script and region node's locales use.
//   CLDR_CORE=<folder>/node_modules/cldr-core node scripts/intl_likely.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { join } from "node:path";

const root = process.env.CLDR_CORE;
if (!root) throw new Error("set CLDR_CORE to the cldr-core package folder");
const likely = JSON.parse(readFileSync(join(root, "supplemental/likelySubtags.json"))).supplemental.likelySubtags;
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;

// the algorithm, as core/expressions/js/intl/locale.py runs it
function parts(tag) {
  const [language, ...rest] = tag.split("-");
  let script = "", region = "";
  for (const p of rest) {
    if (p.length === 4) script = p;
    else if (p.length === 2 || (p.length === 3 && /^\d+$/.test(p))) region = p;
  }
  return [language, script, region];
}
function maximize(language, script, region) {
  const tries = [];
  if (language !== "und") {
    if (script && region) tries.push(`${language}-${script}-${region}`);
    if (region) tries.push(`${language}-${region}`);
    if (script) tries.push(`${language}-${script}`);
    tries.push(language);
  }
  if (script && region) tries.push(`und-${script}-${region}`);
  if (script) tries.push(`und-${script}`); // the script before the region, as ICU
  if (region) tries.push(`und-${region}`);
  if (language === "und") tries.push("und"); // an unknown language gains nothing from it
  for (const t of tries) {
    const found = likely[t];
    if (found) {
      const [l, s, r] = parts(found);
      return [language === "und" ? l : language, script || s, region || r];
    }
  }
  return [language, script, region];
}
function minimize(language, script, region) {
  const full = maximize(language, script, region);
  const [fullLanguage, fullScript, fullRegion] = full;
  for (const [s, r] of [["", ""], ["", fullRegion], [fullScript, ""]]) {
    if (maximize(fullLanguage, s, r).join("-") === full.join("-")) return [fullLanguage, s, r];
  }
  return full;
}
const show = ([l, s, r]) => [l, s, r].filter((x) => x).join("-");

const scripts = new Set(), regions = new Set();
for (const t of locales) { const [, s, r] = parts(t); if (s) scripts.add(s); if (r) regions.add(r); }
const languages = new Set(Object.keys(likely).map((k) => k.split("-")[0]).filter((l) => l !== "und"));
const samples = new Set(locales);
for (const l of languages) {
  samples.add(l);
  for (const s of scripts) samples.add(`${l}-${s}`);
  for (const r of regions) samples.add(`${l}-${r}`);
}
for (const s of scripts) for (const r of regions) samples.add(`und-${s}-${r}`);
for (const r of regions) samples.add(`und-${r}`);
for (const s of scripts) samples.add(`und-${s}`);
const exceptions = {};
let checked = 0;
for (const tag of samples) {
  let loc;
  try { loc = new Intl.Locale(tag); } catch { continue; }
  const canon = loc.toString();
  const p = parts(canon);
  const nodeMax = loc.maximize().toString(), nodeMin = loc.minimize().toString();
  const ourMax = show(maximize(...p)), ourMin = show(minimize(...p));
  checked++;
  if (nodeMax !== ourMax || nodeMin !== ourMin) exceptions[canon] = [nodeMax, nodeMin];
}
const out = { likely, likelyExceptions: exceptions };
const bytes = gzipSync(JSON.stringify(out), { level: 9 });
writeFileSync(new URL("likely.json.gz", tables), bytes);
console.log(`${checked} tags checked, ${Object.keys(exceptions).length} exceptions, ${bytes.length} bytes`);
