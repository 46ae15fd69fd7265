// Writes core/expressions/js/intl/tables/displaynames.json.gz: Intl.DisplayNames as node answers
// it, for every locale it resolves to among NumberFormat's (tables/locales.json.gz):
//   node scripts/intl_display_names.mjs
// - the names of languages, regions, scripts, currencies and calendars in the long and short
//   styles (narrow is short to ICU's display names), and of the 12 date-time fields in all three;
//   the candidates are enumerated (every 2- and 3-letter language, every region of 2 letters or
//   3 digits, every 4-letter script, every 3-letter currency) and kept where some locale names
//   them;
// - the dialect names (British English) of the language-script-region combinations that have one,
//   found by comparing languageDisplay "dialect" with "standard";
// - each locale's pattern and separator for a composed name (English (Latin, United States)),
//   and the names that a composed name writes otherwise than standing alone;
// - the aliases node replaces in a language code before naming it (iw is he, SU is RU).
// A locale's names are kept only where they differ from its parent's; a short name only where it
// differs from the long one. The script then rebuilds composed names of random tags per locale
// as flowctx does and counts how many node answers otherwise (printed; none expected).
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { nearestParent } from "./intl_rows.mjs";

const tables = new URL("../core/expressions/js/intl/tables/", import.meta.url);
const number = JSON.parse(gunzipSync(readFileSync(new URL("locales.json.gz", tables)))).locales.number;
const D = Intl.DisplayNames;
const locales = number.filter((t) => new D(t, { type: "region" }).resolvedOptions().locale === t);
const log = (s) => process.stderr.write(s + "\n");

const letters = "abcdefghijklmnopqrstuvwxyz";
const L2 = [], L3 = [];
for (const a of letters) for (const b of letters) { L2.push(a + b); for (const c of letters) L3.push(a + b + c); }
const REGIONS = [...L2.map((x) => x.toUpperCase())];
for (let i = 0; i < 1000; i++) REGIONS.push(String(i).padStart(3, "0"));
const SCRIPTS_ALL = L3.flatMap((x) => [...letters].map((d) => x[0].toUpperCase() + x.slice(1) + d));
const CURRENCIES_ALL = L3.map((x) => x.toUpperCase());
const FIELDS = ["era", "year", "quarter", "month", "weekOfYear", "weekday", "day", "dayPeriod", "hour",
  "minute", "second", "timeZoneName"];
const CALENDARS = [...new Set([...Intl.supportedValuesOf("calendar"), "ethiopic-amete-alem",
  "islamicc", "islamic-civil", "islamic-umalqura", "islamic-rgsa", "islamic-tbla", "iso8601", "unknown"])];
const PROBES = ["en", "de", "fr", "es", "ja", "zh", "zh-Hant", "ar", "ru", "hi", "pt", "it", "ko", "tr", "pl",
  "nl", "sv", "fi", "cs", "he", "th", "vi", "fa", "uk", "el", "hu", "ca", "sr", "sr-Latn", "yue", "fil", "sw",
  "bn", "ta", "ur", "ne", "my", "km", "am", "ka", "hy", "kk", "uz", "az", "mn", "ps", "ug", "bo", "dz", "ti",
  "ff-Adlm", "chr", "haw", "gd", "cy", "ga", "eu", "gl", "is", "lt", "lv", "et", "sq", "mk", "bg", "ro", "hr"];
const named = (loc, type, codes, opts = {}) => {
  const d = new D(loc, { type, fallback: "none", ...opts });
  const out = {};
  for (const c of codes) { const v = d.of(c); if (v !== undefined) out[c] = v; }
  return out;
};

// --- aliases: what node's canonicalization replaces in a code it names ------------------------------
// as Intl.Locale reads a tag: ICU's canonicalization, which DisplayNames applies (where V8's
// getCanonicalLocales keeps bh and tw, ICU replaces them by bho and ak)
const canon = (t) => new Intl.Locale(t).toString();
const langAlias = {};
for (const c of [...L2, ...L3]) {
  let k;
  try { k = canon(c); } catch { continue; }
  if (k !== c) langAlias[c] = k;
}
const regionAlias = {}, regionMulti = [];
const ALIAS_LANGS = ["und", "en", "hy", "ru", "uz", "sr", "cs", "sk", "de", "az", "ka", "uk", "be", "kk", "tk",
  "tg", "ky", "lt", "lv", "et", "mk", "sl", "hr", "bs", "nl", "pap", "ar", "he", "fr", "pt", "id", "my", "km",
  "vi", "fj", "sm", "ti", "am", "so", "ms", "zh", "yue", "ja", "ko", "mn", "ab", "os", "ro", "hu", "pl", "es"];
for (const r of REGIONS) {
  const seen = new Set(ALIAS_LANGS.map((l) => canon(`${l}-${r}`).slice(l.length + 1)));
  if (seen.size > 1) regionMulti.push(r);
  else { const [k] = seen; if (k !== r) regionAlias[r] = k; }
}
const scriptAlias = {};
for (const s of SCRIPTS_ALL) { const k = canon(`und-${s}`).slice(4); if (k !== s) scriptAlias[s] = k; }
log(`aliases: ${Object.keys(langAlias).length} languages, ${Object.keys(regionAlias).length} regions (${regionMulti.length} by language), ${Object.keys(scriptAlias).length} scripts`);

// --- the candidates some locale names ---------------------------------------------------------------
const union = (type, codes, probes) => {
  const found = new Set();
  for (const p of probes) for (const c of Object.keys(named(p, type, codes))) found.add(c);
  return codes.filter((c) => found.has(c));
};
// every language and currency code is tried in every locale (und is the name of no language,
// "root", which some locales name); the scripts, 26^4 of them, in a few
const LANGS = union("language", [...L2, ...L3].filter((c) => !(c in langAlias)), locales);
const SCRIPTS = union("script", SCRIPTS_ALL, ["en", "de", "ja", "zh-Hant", "ar", "yrl"]);
const CURRENCIES = union("currency", CURRENCIES_ALL, locales);
log(`candidates: ${LANGS.length} languages, ${SCRIPTS.length} scripts, ${CURRENCIES.length} currencies`);

// dialect names: a combination whose "dialect" name is not its "standard" one
const namedRegions = Object.keys(named("en", "region", REGIONS)).filter((r) => !(r in regionAlias) && !regionMulti.includes(r));
// (--dialects a,b,... takes a list printed by an earlier run, skipping the search)
const given = process.argv.indexOf("--dialects");
const dialectFound = new Set(given > 0 ? process.argv[given + 1].split(",") : []);
const DIALECT_PROBES = ["en", "de", "fr", "es", "ja", "zh-Hant", "ar", "ru", "hi", "pt", "it", "nl", "sv", "ko", "yue"];
for (const p of given > 0 ? [] : DIALECT_PROBES) {
  for (const style of ["long", "short"]) {
    const dd = new D(p, { type: "language", style });
    const ds = new D(p, { type: "language", style, languageDisplay: "standard" });
    const test = (c) => { if (dd.of(c) !== ds.of(c)) dialectFound.add(c); };
    for (const l of LANGS) {
      for (const r of namedRegions) test(`${l}-${r}`);
      for (const s of SCRIPTS) test(`${l}-${s}`);
    }
  }
}
for (const ls of [...(given > 0 ? [] : dialectFound)].filter((c) => /-[A-Z][a-z]{3}$/.test(c))) {
  for (const p of DIALECT_PROBES) {
    const dd = new D(p, { type: "language" }), ds = new D(p, { type: "language", languageDisplay: "standard" });
    for (const r of namedRegions) { const c = `${ls}-${r}`; if (dd.of(c) !== ds.of(c)) dialectFound.add(c); }
  }
}
const DIALECTS = [...dialectFound].sort();
log(`dialect combinations: ${DIALECTS.length}: ${DIALECTS.join(",")}`);

// --- each locale's names ----------------------------------------------------------------------------
const full = {};
for (const tag of locales) {
  const row = {};
  for (const style of ["long", "short"]) {
    const sfx = style === "long" ? "" : "-short";
    row["language" + sfx] = named(tag, "language", LANGS, { style });
    row["region" + sfx] = named(tag, "region", REGIONS, { style });
    row["script" + sfx] = named(tag, "script", SCRIPTS, { style });
    // a currency the locale has no name for may be named by its code (ICU's data holds its
    // symbol there: BWP where the locale's region pays in it), else answered back as written
    const currency = named(tag, "currency", CURRENCIES, { style });
    const asWritten = new D(tag, { type: "currency", style });
    for (const c of CURRENCIES) if (!(c in currency) && asWritten.of(c.toLowerCase()) === c) currency[c] = c;
    row["currency" + sfx] = Object.fromEntries(CURRENCIES.filter((c) => c in currency).map((c) => [c, currency[c]]));
    row["calendar" + sfx] = named(tag, "calendar", CALENDARS, { style });
    const dd = new D(tag, { type: "language", style }), ds = new D(tag, { type: "language", style, languageDisplay: "standard" });
    const dia = {};
    for (const c of DIALECTS) { const v = dd.of(c); if (v !== ds.of(c)) dia[c] = v; }
    row["dialect" + sfx] = dia;
  }
  for (const style of ["long", "short", "narrow"]) row["field-" + style] = named(tag, "dateTimeField", FIELDS, { style });
  // the composed name's pattern and separator, from codes no locale names
  const d = new D(tag, { type: "language" });
  const one = d.of("xx-Qaaa"), two = d.of("xx-Qaaa-QM");
  const pattern = one.replace("xx", "{0}").replace("Qaaa", "{1}");
  const sep = two.slice(two.indexOf("Qaaa"), two.indexOf("QM") + 2).replace("Qaaa", "{0}").replace("QM", "{1}");
  if (pattern.replace("{0}", "xx").replace("{1}", sep.replace("{0}", "Qaaa").replace("{1}", "QM")) !== two) throw new Error(`pattern ${tag}`);
  row.pattern = [pattern, sep];
  full[tag] = row;
}
log("measured names");

// the parentheses of the pattern's kind (fullwidth in zh's) a composed name writes as brackets
// of that kind, to keep the pattern's own apart
const escaper = (pattern) => (pattern.includes("（")
  ? (s) => s.replace(/（/g, "［").replace(/）/g, "］")
  : (s) => s.replace(/\(/g, "[").replace(/\)/g, "]"));
const fill = (p, a, b) => p.replace("{0}", a).replace("{1}", b);
// names a composed name writes otherwise than escaped standing alone: kept as exceptions
for (const tag of locales) {
  const row = full[tag];
  const [pattern] = row.pattern;
  const escaped = escaper(pattern);
  for (const style of ["long", "short"]) {
    const sfx = style === "long" ? "" : "-short";
    const dl = new D(tag, { type: "language", style });
    const inside = {};
    for (const [kind, codes, make] of [["region", namedRegions, (c) => `xx-${c}`], ["script", SCRIPTS, (c) => `xx-${c}`]]) {
      for (const c of codes) {
        const alone = row[kind + sfx][c];
        if (alone === undefined) continue;
        const got = dl.of(make(c));
        const want = fill(pattern, "xx", escaped(alone));
        if (got !== want) inside[`${kind}:${c}`] = got;
      }
    }
    // the language's own name is written as it is
    for (const c of LANGS) {
      const alone = row["language" + sfx][c];
      if (alone === undefined) continue;
      const got = dl.of(`${c}-Qaaa`);
      if (got !== fill(pattern, alone, "Qaaa")) inside[`language:${c}`] = got;
    }
    row["inside" + sfx] = inside;
  }
}
log("measured composed names");

// --- pruned: a locale keeps what differs from its parent's; a short name what differs from the long
const rows = {};
for (const tag of locales) {
  const row = full[tag];
  for (const [kind, names] of Object.entries(row)) {
    if (kind === "pattern") continue;
    let mine = names;
    if (kind.endsWith("-short") && !kind.startsWith("field")) {
      // 0: no short name where the long one exists; absent: the long one
      const long = row[kind.slice(0, -6)];
      mine = {};
      for (const c of new Set([...Object.keys(long), ...Object.keys(names)])) {
        if (names[c] === long[c]) continue;
        mine[c] = names[c] ?? 0;
      }
      row[kind] = mine;
    }
  }
}
for (const tag of locales) {
  const row = full[tag];
  const p = nearestParent(tag, full);
  const out = {};
  for (const [kind, mine] of Object.entries(row)) {
    if (kind === "pattern") {
      if (!p || JSON.stringify(full[p].pattern) !== JSON.stringify(mine)) out.pattern = mine;
      continue;
    }
    const theirs = p ? full[p][kind] : {};
    const diff = {};
    const isShort = kind.endsWith("-short") && !kind.startsWith("field");
    for (const c of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
      if (mine[c] === theirs[c]) continue;
      diff[c] = mine[c] ?? (isShort ? 1 : null);
    }
    if (Object.keys(diff).length) out[kind] = diff;
  }
  rows[tag] = out;
}
// a region alias that stands for several countries (SU) is the one the language is likeliest in:
// measured for each language, kept where it is not the first (RU)
const regionBy = {};
for (const r of regionMulti) {
  const by = {};
  for (const l of LANGS) by[l] = canon(`${l}-${r}`).split("-").pop();
  const first = canon(`und-${r}`).split("-").pop();
  regionBy[r] = { "": first, ...Object.fromEntries(Object.entries(by).filter(([, v]) => v !== first)) };
}
const data = { displayNames: { locales, langAlias, regionAlias, regionBy, scriptAlias, rows } };
const bytes = gzipSync(JSON.stringify(data), { level: 9 });
writeFileSync(new URL("displaynames.json.gz", tables), bytes);
log(`wrote tables/displaynames.json.gz: ${bytes.length} bytes`);
