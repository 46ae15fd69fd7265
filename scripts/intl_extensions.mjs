// Writes core/expressions/js/intl/tables/extensions.json.gz: which values of the -u- keywords
// that choose data each locale has, as node's ICU resolves them: for every locale Collator
// resolves to (tables/locales.json.gz) the collations (-u-co-, the collation option) it takes,
// and where the resolved locale shows them; and Intl.supportedValuesOf's lists.
//   node scripts/intl_extensions.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const locales = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales;

// each collation: the locales that take it (every locale takes emoji and eor: listed as "*").
// Each is measured in a node of its own: what ICU answers for zh-u-co-stroke can depend on the
// collators a process made before
if (process.argv[2] === "--collation") {
  const co = process.argv[3];
  const taking = locales.collator.filter((tag) => new Intl.Collator(`${tag}-u-co-${co}`).resolvedOptions().collation === co);
  process.stdout.write(JSON.stringify(taking));
  process.exit(0);
}
const collations = {};
for (const co of Intl.supportedValuesOf("collation")) {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--collation", co], { encoding: "utf8" });
  const taking = JSON.parse(run.stdout);
  collations[co] = taking.length === locales.collator.length ? "*" : taking;
}
// the locales whose resolved locale does not show a collation the option chose (ICU's alias
// locales: zh-TW, sr-RS...), though it shows one their -u-co- chose
const collationHidden = locales.collator.filter((tag) => new Intl.Collator(tag, { collation: "eor" }).resolvedOptions().locale === tag);
// the locales whose standard collation has a name of its own (zh's pinyin): Collator reports
// it as "default"
const collationDefaults = {};
if (process.argv[2] !== "--collation") {
  for (const tag of locales.collator) for (const co of Intl.supportedValuesOf("collation")) {
    const r = new Intl.Collator(`${tag}-u-co-${co}`).resolvedOptions();
    if (r.collation === "default" && r.locale.endsWith(`-u-co-${co}`)) collationDefaults[tag] = co;
  }
}
// the locales whose search collation is the root's (de's is not: ä is a letter of its own),
// compared over Latin, Greek, Cyrillic and the words people sort, at every sensitivity
const pool = [];
for (let c = 0x20; c < 0x530; c++) if (c < 0x7f || c > 0x9f) pool.push(String.fromCharCode(c));
pool.push("ss", "ae", "aa", "ch", "ll", "cs", "dz", "a1", "a10", "a-b", "a b", "1.5", "1.10");
const searchAsRoot = process.argv[2] === "--collation" ? [] : locales.collator.filter((tag) =>
  ["variant", "base", "accent", "case"].every((sensitivity) => {
    const a = new Intl.Collator("und", { usage: "search", sensitivity });
    const b = new Intl.Collator(tag, { usage: "search", sensitivity });
    return pool.every((x) => pool.every((y) => Math.sign(a.compare(x, y)) === Math.sign(b.compare(x, y))));
  }));
// the characters the emoji collation moves (emoji among themselves, after the symbols), as
// runs: the emoji and pictographs, sorted with a third of the BMP by the root's order, that are
// out of the longest run the emoji collation keeps in that order (every other character sorts
// as in the root: checked over pairs of random characters)
const root = new Intl.Collator("en");
const emojiOrder = new Intl.Collator("en-u-co-emoji"); // und drops its -u-co-
const items = new Set();
for (let c = 0x20; c < 0x10000; c += c < 0x80 ? 1 : 3) if (c < 0xd800 || c >= 0xe000) items.add(c);
for (let c = 0x20; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c < 0xe000) continue;
  if (/\p{Emoji}|\p{Extended_Pictographic}/u.test(String.fromCodePoint(c))) items.add(c);
}
const inRoot = [...items].sort((x, y) => root.compare(String.fromCodePoint(x), String.fromCodePoint(y)) || x - y);
const rank = new Map([...inRoot].sort((x, y) => emojiOrder.compare(String.fromCodePoint(x), String.fromCodePoint(y)) || x - y).map((c, i) => [c, i]));
// the longest increasing run of emoji ranks over the root's order (patience sorting)
const seq = inRoot.map((c) => rank.get(c));
const tails = [], tailAt = [], prev = new Array(seq.length).fill(-1);
seq.forEach((v, i) => {
  let lo = 0, hi = tails.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < v) lo = mid + 1; else hi = mid; }
  tails[lo] = v; tailAt[lo] = i; prev[i] = lo > 0 ? tailAt[lo - 1] : -1;
});
const kept = new Set();
for (let i = tailAt[tails.length - 1]; i >= 0; i = prev[i]) kept.add(inRoot[i]);
const movedCps = inRoot.filter((c) => !kept.has(c)).sort((x, y) => x - y);
const moved = [];
for (const c of movedCps) {
  const last = moved[moved.length - 1];
  if (last && last[0] + last[1] === c) last[1]++;
  else moved.push([c, 1]);
}
// Intl.supportedValuesOf's lists
const supportedValues = Object.fromEntries(["calendar", "collation", "currency", "numberingSystem", "timeZone", "unit"]
  .map((k) => [k, Intl.supportedValuesOf(k)]));
const out = { collations, collationHidden, collationDefaults, searchAsRoot, supportedValues,
  emojiMoved: moved.flat() };
writeFileSync(new URL("extensions.json.gz", tables), gzipSync(JSON.stringify(out), { level: 9 }));
console.log(Object.entries(collations).map(([k, v]) => `${k} ${v === "*" ? "all" : v.length}`).join(", "));
