// Writes core/expressions/js/host/idna.json.gz: how node's URL parser maps each code point past
// ASCII in a host name (UTS #46 as node runs it), measured with the node whose answers flowctx
// reproduces:
//   node scripts/idna_table.mjs
// Each code point is put in a label after a letter ("a", or an Arabic or Devanagari one where
// the letter's own rules refuse it) and the host node answers is decoded back: what stands
// after the letter is the code point's mapping ("" where it is ignored); a code point no
// context accepts is disallowed. Ranges of code points that map to themselves, are ignored or
// are disallowed are kept as ranges; the others as [code point, mapping]. The code points kept
// that no label may start with (node's list of combining marks) are listed too.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import punycode from "node:punycode";

const PREFIXES = ["a", "\u0628", "\u0915\u094d"];

function host(text) {
  try {
    return new URL("http://" + text + "/").hostname;
  } catch {
    return null;
  }
}

function mapping(cp) {
  const ch = String.fromCodePoint(cp);
  for (const prefix of PREFIXES) {
    const got = host(prefix + ch);
    if (got === null) continue;
    // the labels decoded as they are (node's domainToUnicode checks them again)
    const shown = got
      .split(".")
      .map((label) => (label.startsWith("xn--") ? punycode.decode(label.slice(4)) : label))
      .join(".");
    if (!shown.startsWith(prefix)) continue;
    return shown.slice(prefix.length);
  }
  return null;
}

// The direction node gives a code point it keeps, read from how labels holding it fare under
// node's bidirectional rules (a label with R, AL or AN is checked: from an L, what stands
// before its last letter that is no NSM must be L, EN, ES, CS, ET, ON, BN or NSM; otherwise
// every letter must be R, AL, AN, EN, ES, CS, ET, ON, BN or NSM, EN and AN not both, the
// last that is no NSM R, AL, AN or EN): "L", "R" (R or AL), "AN", "EN", "NSM", "ON" (ES, CS,
// ET, ON or BN, which the rules treat alike) or "-" (none of these: every check fails).
// And the joiners' lists node holds: viramas (a joiner after one is valid), the letters that
// join to the left (L or D) and to the right (R or D) of U+200C.
const HEB = "\u05d0";
const directions = [];
const virama = [];
const joinsLeft = [];
const joinsRight = [];
function classify(cp, c) {
  const ok = (s) => host(s) !== null;
  let d;
  if (!ok("ab" + c + "b")) d = ok(HEB + "1" + c) ? "R" : "AN";
  else if (ok("a" + HEB + c)) d = "NSM";
  else {
    const rtl = ok(HEB + c + HEB);
    const ltr = ok("a" + c + HEB);
    if (rtl && ltr) d = ok(HEB + "\u0660" + c + HEB) ? (ok(HEB + c) ? "?" : "ON") : "EN";
    else if (ltr) d = "L";
    else d = rtl ? "?" : "-";
  }
  if (d === "?") throw new Error(`no direction fits U+${cp.toString(16)}`);
  if (d !== "L") directions.push([cp, d]);
  if (ok("x" + c + "\u200d")) virama.push(cp);
  // a letter between: U+200C right after a virama is valid whatever joins
  if (ok("x" + c + "x\u200c\u0628")) joinsLeft.push(cp);
  if (ok("\u0628\u200cx" + c)) joinsRight.push(cp);
}

const kinds = []; // [start, end, kind] with kind "v" valid, "i" ignored, "x" disallowed
const nostart = []; // code points kept that cannot start a label (node's combining marks)
const mapped = [];
let run = null;
for (let cp = 0x80; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const m = mapping(cp);
  let kind;
  if (m === null) kind = "x";
  else if (m === "") kind = "i";
  else if (m === String.fromCodePoint(cp)) {
    kind = "v";
    if (host(m) === null && host(m + "a") === null && host(m + "\u0628") === null) nostart.push(cp);
    classify(cp, m);
  }
  else {
    kind = "m";
    mapped.push([cp, m]);
  }
  if (run && run[2] === kind && run[1] === cp - 1) run[1] = cp;
  else if (run && run[2] === kind && run[1] === 0xd7ff && cp === 0xe000) run[1] = cp;
  else {
    if (run) kinds.push(run);
    run = [cp, cp, kind];
  }
}
kinds.push(run);
const ranges = kinds.filter((r) => r[2] !== "m" && r[2] !== "x");
// runs of one direction (most code points are L, left out)
const dirs = [];
for (const [cp, d] of directions) {
  const last = dirs[dirs.length - 1];
  if (last && last[2] === d && last[1] === cp - 1) last[1] = cp;
  else dirs.push([cp, cp, d]);
}
const data = {
  node: process.versions.node,
  ada: process.versions.ada,
  ranges,
  mapped,
  nostart,
  directions: dirs,
  virama,
  joinsLeft,
  joinsRight,
};
writeFileSync(
  new URL("../core/expressions/js/host/idna.json.gz", import.meta.url),
  gzipSync(JSON.stringify(data), { level: 9 }),
);
console.log(
  `${ranges.length} ranges, ${mapped.length} mapped, ${nostart.length} not first, ` +
    `${dirs.length} direction runs, ${virama.length} viramas, ` +
    `${joinsLeft.length}/${joinsRight.length} joining`,
);
