// Writes core/expressions/js/intl/tables/variants.json.gz: where the root collation puts the
// letters that differ from their base letter at the second level only (ø after o, đ after d)
// among the accents: for each, its weight among the accents' ranks (rootorder.json's marks, in
// node's order: ø is 16.5, between ǒ's caron and ō's macron), as node's root collation answers. Its input is the letters and their base letters as flowctx's generated
// order knows them:
//   python scripts/root_variant_pairs.py > /tmp/pairs.json && node scripts/root_variants.mjs /tmp/pairs.json
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const { pairs, marks } = JSON.parse(readFileSync(process.argv[2]));
const col = new Intl.Collator("und", { sensitivity: "accent" });
const out = {};
// the letter's weight among the accents' ranks (1, 2...): an accent's own where it is that
// base with that accent (〲 is 〱 with its voicing mark), else half-way before the first
// accent it sorts before
for (const [letter, base] of pairs) {
  for (let i = 0; i < marks.length; i++) {
    const order = col.compare(letter, base + String.fromCodePoint(marks[i]));
    if (order <= 0) {
      out[letter] = order === 0 ? i + 1 : i + 0.5;
      break;
    }
  }
}
const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
writeFileSync(new URL("variants.json.gz", tables), gzipSync(JSON.stringify({ variantAccents: out }), { level: 9 }));
console.log(`${Object.keys(out).length} letters placed among the accents`);
