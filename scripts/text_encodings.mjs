// Writes core/expressions/js/host/encodings.json: the TextDecoder labels node accepts and the
// encoding each names, measured with the node whose answers flowctx reproduces:
//   node scripts/text_encodings.mjs
// The candidates are the WHATWG Encoding Standard's labels (its encodings.json) and the older
// UTF-8 and UTF-16 aliases it has since dropped; a label node refuses is left out (flowctx then
// answers node's RangeError, naming the encoding where the standard gives the label one), the
// encodings that decode ASCII as it is are listed, and the script fails if node accepts a label's case or padding
// variant differently, which would mean the lookup is not the standard's.
import { writeFileSync } from "node:fs";

const CANDIDATES = {
  "utf-8": ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"],
  ibm866: ["866", "cp866", "csibm866", "ibm866"],
  "iso-8859-2": ["csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592", "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"],
  "iso-8859-3": ["csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593", "iso_8859-3", "iso_8859-3:1988", "l3", "latin3"],
  "iso-8859-4": ["csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594", "iso_8859-4", "iso_8859-4:1988", "l4", "latin4"],
  "iso-8859-5": ["csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5", "iso88595", "iso_8859-5", "iso_8859-5:1988"],
  "iso-8859-6": ["arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic", "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127", "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987"],
  "iso-8859-7": ["csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7", "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987", "sun_eu_greek"],
  "iso-8859-8": ["csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e", "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988", "visual"],
  "iso-8859-8-i": ["csiso88598i", "iso-8859-8-i", "logical"],
  "iso-8859-10": ["csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6", "latin6"],
  "iso-8859-13": ["iso-8859-13", "iso8859-13", "iso885913"],
  "iso-8859-14": ["iso-8859-14", "iso8859-14", "iso885914"],
  "iso-8859-15": ["csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15", "l9"],
  "iso-8859-16": ["iso-8859-16"],
  "koi8-r": ["cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"],
  "koi8-u": ["koi8-ru", "koi8-u"],
  macintosh: ["csmacintosh", "mac", "macintosh", "x-mac-roman"],
  "windows-874": ["dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"],
  "windows-1250": ["cp1250", "windows-1250", "x-cp1250"],
  "windows-1251": ["cp1251", "windows-1251", "x-cp1251"],
  "windows-1252": ["ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"],
  "windows-1253": ["cp1253", "windows-1253", "x-cp1253"],
  "windows-1254": ["cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5", "windows-1254", "x-cp1254"],
  "windows-1255": ["cp1255", "windows-1255", "x-cp1255"],
  "windows-1256": ["cp1256", "windows-1256", "x-cp1256"],
  "windows-1257": ["cp1257", "windows-1257", "x-cp1257"],
  "windows-1258": ["cp1258", "windows-1258", "x-cp1258"],
  "x-mac-cyrillic": ["x-mac-cyrillic", "x-mac-ukrainian"],
  gbk: ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"],
  gb18030: ["gb18030"],
  big5: ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"],
  "euc-jp": ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"],
  "iso-2022-jp": ["csiso2022jp", "iso-2022-jp"],
  shift_jis: ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"],
  "euc-kr": ["cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"],
  replacement: ["csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr"],
  "utf-16be": ["unicodefffe", "utf-16be"],
  "utf-16le": ["csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"],
  "x-user-defined": ["x-user-defined"],
};

function accepted(label) {
  try {
    return new TextDecoder(label).encoding;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function refusedAs(label) {
  try {
    new TextDecoder(label);
  } catch (error) {
    return /^The "(.*)" encoding is not supported$/.exec(error.message)[1];
  }
  return null;
}

const labels = {};
const refused = {};
for (const [name, list] of Object.entries(CANDIDATES)) {
  for (const label of list) {
    const got = accepted(label);
    for (const variant of [label.toUpperCase(), ` ${label}\t`]) {
      if (accepted(variant) !== got) throw new Error(`${JSON.stringify(variant)} differs from ${label}`);
    }
    if (got !== null) labels[label] = got;
    // a label the standard maps to an encoding node refuses: its RangeError names the encoding
    else if (refusedAs(label) !== label) refused[label] = refusedAs(label);
  }
}

// the encodings whose decoder gives the ASCII bytes (ESC aside) as they are, alone, together,
// streamed and not: flowctx answers those inputs and refuses the rest
const ascii = [];
const bytes = [...Array(128).keys()].filter((b) => b !== 0x1b);
const text = String.fromCharCode(...bytes);
for (const name of new Set(Object.values(labels))) {
  const plain = new TextDecoder(name).decode(Uint8Array.from(bytes)) === text;
  const streamed = new TextDecoder(name);
  const parts = bytes.map((b) => streamed.decode(Uint8Array.of(b), { stream: true })).join("");
  const alone = bytes.every((b) => new TextDecoder(name).decode(Uint8Array.of(b)) === String.fromCharCode(b));
  if (plain && alone && parts + streamed.decode() === text) ascii.push(name);
}
// the single-byte encodings as node decodes them: each byte's text (a string of 256), kept
// only where decoding any sequence is the bytes' texts one after the other (checked on random
// sequences, a byte order mark first, streamed and not), and where fatal refuses exactly the
// bytes decoded as U+FFFD
const SINGLE = ["ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6",
  "iso-8859-7", "iso-8859-8", "iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14",
  "iso-8859-15", "koi8-r", "koi8-u", "macintosh", "windows-874", "windows-1250", "windows-1251",
  "windows-1253", "windows-1254", "windows-1255", "windows-1256", "windows-1257",
  "windows-1258", "x-mac-cyrillic"];
let seed = 36;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const single = {};
for (const name of SINGLE) {
  const table = [...Array(256).keys()].map((b) => new TextDecoder(name).decode(Uint8Array.of(b)));
  if (table.some((t) => [...t].length !== 1)) continue;
  const samples = [[0xef, 0xbb, 0xbf, 0x41], [0xfe, 0xff, 0x41], [0xff, 0xfe, 0x41, 0]];
  for (let i = 0; i < 200; i++) samples.push([...Array(1 + (i % 9)).keys()].map(() => Math.floor(random() * 256)));
  const joins = samples.every((sample) => {
    const want = sample.map((b) => table[b]).join("");
    const streamed = new TextDecoder(name);
    const parts = sample.map((b) => streamed.decode(Uint8Array.of(b), { stream: true })).join("");
    return new TextDecoder(name).decode(Uint8Array.from(sample)) === want && parts + streamed.decode() === want;
  });
  const fatal = [...Array(256).keys()].every((b) => {
    let threw = false;
    try { new TextDecoder(name, { fatal: true }).decode(Uint8Array.of(b)); } catch { threw = true; }
    return threw === (table[b] === "\ufffd");
  });
  if (joins && fatal) single[name] = table.join("");
}

const out = {
  node: process.versions.node,
  icu: process.versions.icu,
  note: "TextDecoder labels node accepts (scripts/text_encodings.mjs); any other is a RangeError",
  labels,
  refused,
  ascii: ascii.sort(),
  single,
};
writeFileSync(
  new URL("../core/expressions/js/host/encodings.json", import.meta.url),
  JSON.stringify(out, null, 1) + "\n",
);
console.log(Object.keys(labels).length, "labels of", Object.values(CANDIDATES).flat().length);
