// Writes core/expressions/js/intl/tables/aliases.json.gz: the aliases ICU replaces when V8
// canonicalizes a tag, as node's Intl.getCanonicalLocales gives them: every two- and three-letter
// language that becomes another (eng en, cmn zh, arb ar; sh sr-Latn, prs fa-AF: a script or a
// region the tag lacks filled in), every four-letter script (Qaai Zinh) and every two-letter or
// three-digit region (DD DE, 840 US). A region that stood for several countries (SU, 172, 810,
// CS...) becomes the one the language's likely subtags name among its candidates, else its
// first: each such region's candidates, the first one und's, are what it became beside every
// language probed. Run with the node flowctx reproduces:
//   node scripts/intl_aliases.mjs
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const canonical = (tag) => { try { return Intl.getCanonicalLocales(tag)[0]; } catch { return null; } };
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const languages = {};
for (const a of LOWER) for (const b of LOWER) for (const code of [a + b, ...[...LOWER].map((c) => a + b + c)]) {
  const found = canonical(code);
  if (found !== null && found !== code) languages[code] = found;
}
const scripts = {};
for (const a of UPPER) for (const b of LOWER) for (const c of LOWER) for (const d of LOWER) {
  const code = a + b + c + d;
  const found = canonical(`und-${code}`);
  if (found !== null && found !== `und-${code}`) scripts[code] = found.slice(4);
}
// the languages probed beside each region: every two-letter one node knows (its own, not an alias)
const probes = [...LOWER].flatMap((a) => [...LOWER].map((b) => a + b))
  .filter((code) => !(code in languages) && new Intl.Locale(code).maximize().region !== undefined);
const regionCodes = [...UPPER].flatMap((a) => [...UPPER].map((b) => a + b))
  .concat(Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0")));
const regions = {};
for (const code of regionCodes) {
  const found = canonical(`und-${code}`);
  if (found === null || found === `und-${code}`) continue;
  const first = found.slice(4);
  const candidates = [first];
  for (const language of probes) {
    const region = canonical(`${language}-${code}`).split("-").at(-1);
    if (!candidates.includes(region)) candidates.push(region);
  }
  regions[code] = candidates.length > 1 ? candidates : first;
}
const data = { languageAliases: languages, scriptAliases: scripts, regionAliases: regions };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("../core/expressions/js/intl/tables/aliases.json.gz", import.meta.url), bytes);
console.log(`wrote core/expressions/js/intl/tables/aliases.json.gz: ${bytes.length} bytes; ` +
  `${Object.keys(languages).length} languages, ${Object.keys(scripts).length} scripts, ${Object.keys(regions).length} regions`);
