// Writes core/expressions/js/intl/tables/unmeasured.json.gz: for each Intl service, the locales
// node resolves to that flowctx's tables do not have (tables/locales, relativeLocales,
// segmenterLocales): every two- and three-letter language node knows (not an alias), alone, with
// each region (two letters, three digits) and each script, and each language-script with each
// region, read back from resolvedOptions().locale. flowctx refuses a tag that reaches one of them
// before a locale it has, where it would otherwise answer with a parent's data (pcm's dates are
// not en-US's). Run with the node flowctx reproduces:
//   node scripts/intl_unmeasured.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const read = (file) => JSON.parse(gunzipSync(readFileSync(new URL(file, tables))));
const lists = read("locales.json.gz").locales;
const SERVICES = {
  number: [Intl.NumberFormat, new Set(lists.number)],
  plural: [Intl.PluralRules, new Set(lists.plural)],
  list: [Intl.ListFormat, new Set(lists.list)],
  date: [Intl.DateTimeFormat, new Set(lists.date)],
  collator: [Intl.Collator, new Set(lists.collator)],
  relative: [Intl.RelativeTimeFormat, new Set(read("relative.json.gz").relativeLocales)],
  segmenter: [Intl.Segmenter, new Set(read("segmenter.json.gz").segmenterLocales)],
};
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = LOWER.toUpperCase();
const aliases = read("aliases.json.gz").languageAliases;
const resolved = (Service, tag) => { try { return new Service(tag).resolvedOptions().locale; } catch { return null; } };
const languages = [...LOWER].flatMap((a) => [...LOWER].flatMap((b) => [a + b, ...[...LOWER].map((c) => a + b + c)]))
  .filter((code) => !(code in aliases) && Object.values(SERVICES).some(([S]) => resolved(S, code) === code));
const regions = [...UPPER].flatMap((a) => [...UPPER].map((b) => a + b))
  .concat(["001", "029", "150", "419"]);
const SCRIPTS = ["Arab", "Adlm", "Beng", "Cher", "Cyrl", "Deva", "Dsrt", "Ethi", "Geor", "Grek", "Gujr", "Guru",
  "Hans", "Hant", "Hebr", "Hmnp", "Jpan", "Khmr", "Knda", "Kore", "Laoo", "Latn", "Mlym", "Mong", "Mtei", "Mymr",
  "Nkoo", "Olck", "Orya", "Rohg", "Shaw", "Sinh", "Sund", "Syrc", "Taml", "Telu", "Tfng", "Thaa", "Thai", "Tibt",
  "Vaii", "Yiii"];
const unmeasured = {};
for (const [service, [Service, have]] of Object.entries(SERVICES)) {
  const found = new Set();
  for (const language of languages) {
    const bases = [language];
    for (const script of SCRIPTS) {
      const tag = `${language}-${script}`;
      if (resolved(Service, tag) === tag) bases.push(tag);
    }
    for (const base of bases) {
      for (const tag of [base, ...regions.map((r) => `${base}-${r}`)]) {
        const at = resolved(Service, tag);
        // (a tag no locale of the language serves resolves to the default, en-US: not its own)
        const own = at !== null && at.split("-")[0] === language;
        if (own && !have.has(at) && at !== "en-US-u-va-posix") found.add(at);
      }
    }
  }
  unmeasured[service] = [...found].sort();
}
const bytes = gzipSync(JSON.stringify({ unmeasuredLocales: unmeasured }), { level: 9 });
writeFileSync(new URL("unmeasured.json.gz", tables), bytes);
console.log(`wrote core/expressions/js/intl/tables/unmeasured.json.gz: ${bytes.length} bytes; ` +
  Object.entries(unmeasured).map(([s, v]) => `${s} ${v.length}`).join(", "));
