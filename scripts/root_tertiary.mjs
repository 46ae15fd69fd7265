// Writes core/expressions/js/intl/tables/tertiary.json.gz: the root collation's third level
// among a letter's forms that differ from it there only (a < ａ < ⓐ < A < Ａ < Ⓐ < ª = ᵃ < ₐ <
// ᴬ), as node's root collation sorts them: for every BMP character whose compatibility
// decomposition is one cased letter, and that letter's lower and upper case, its rank in its
// letter's group (forms that tie share one).
//   node scripts/root_tertiary.mjs
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const groups = new Map();
for (let cp = 0xa0; cp < 0x10000; cp++) {
  if (cp >= 0xd800 && cp < 0xe000) continue;
  const c = String.fromCharCode(cp);
  const d = c.normalize("NFKD");
  if (d === c || [...d].length !== 1) continue;
  const base = d.toLowerCase();
  if (!/^\p{L}$/u.test(base) || base.toUpperCase() === base) continue;
  if (!groups.has(base)) groups.set(base, new Set([base, base.toUpperCase()]));
  groups.get(base).add(c);
}
const col = new Intl.Collator("und");
const accent = new Intl.Collator("und", { sensitivity: "accent" });
const out = {};
for (const [base, set] of groups) {
  // (a form apart before the third level, ſ from s, is left out)
  const list = [...set].filter((c) => accent.compare(c, base) === 0).sort(col.compare);
  let rank = 0;
  list.forEach((c, i) => {
    if (i && col.compare(list[i - 1], c) < 0) rank++;
    out[c] = rank;
  });
}
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
writeFileSync(new URL("tertiary.json.gz", tables), gzipSync(JSON.stringify({ tertiaryRanks: out }), { level: 9 }));
console.log(`${Object.keys(out).length} forms of ${groups.size} letters`);
