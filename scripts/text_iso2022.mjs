// Writes core/expressions/js/host/iso2022jp.json.gz: how node's TextDecoder (ICU's converter)
// decodes ISO-2022-JP, measured with the node whose answers flowctx reproduces:
//   node scripts/text_iso2022.mjs [cases.json]
// The decoder is a state machine switched by escape sequences. Measured here: every escape
// sequence node knows (those that switch the state and to what, those it knows but refuses:
// one error for all their bytes; any other ESC is one error alone, the bytes after it read
// anew) and the JIS X 0208 pairs (94 x 94, the text each pair makes, "\ufffd" for an error).
// With a file name, it also writes random byte texts biased towards escapes, pairs, line
// breaks and bytes past ASCII, with node's answers (whole, `fatal`'s TypeError, streamed in two
// calls), for scripts/text_iso2022_check.py to compare flowctx's model with.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const ESC = 0x1b;
const dec = (bytes, options) => new TextDecoder("iso-2022-jp", options).decode(new Uint8Array(bytes));

// what a probe decodes to in each state the decoder can be switched to
const PROBE = [0x5c, 0x7e, 0x30, 0x21];
const STATES = {};
for (const [state, escape] of [["ascii", [ESC, 0x28, 0x42]], ["roman", [ESC, 0x28, 0x4a]],
  ["katakana", [ESC, 0x28, 0x49]], ["jis0208", [ESC, 0x24, 0x42]]]) {
  STATES[dec([...escape, ...PROBE])] = state;
}
if (Object.keys(STATES).length !== 4) throw new Error("the states' probes are not distinct");

// the escape sequences: walked from ESC byte by byte. A streamed call that outputs nothing and
// leaves an error for the flush ends inside a sequence; one that outputs nothing and leaves no
// error switched the state (found by the probe); one U+FFFD alone is a known sequence node
// refuses; U+FFFD and the bytes after ESC read anew is an ESC unknown with what follows it.
const escapes = {};
const walk = (tail) => {
  for (let b = 0; b < 256; b++) {
    const seq = [ESC, ...tail, b];
    const d = new TextDecoder("iso-2022-jp");
    const out = d.decode(new Uint8Array(seq), { stream: true });
    const flushed = d.decode();
    const key = seq.slice(1).map((x) => x.toString(16).padStart(2, "0")).join("");
    if (out === "" && flushed === "\ufffd") {
      escapes[key] = "prefix";
      walk([...tail, b]);
    } else if (out === "" && flushed === "") {
      const state = STATES[dec([...seq, ...PROBE])];
      if (!state) throw new Error(`escape ${key}: no state`);
      escapes[key] = state;
    } else if (out === "\ufffd" && flushed === "") {
      escapes[key] = "refused";
    } else if (out + flushed !== "\ufffd" + dec(seq.slice(1))) {
      throw new Error(`escape ${key}: ${JSON.stringify(out)}`);
    }
  }
};
walk([]);

// the JIS X 0208 pairs, each lead and trail byte from 0x21 to 0x7E
let pairs = "";
for (let lead = 0x21; lead <= 0x7e; lead++) {
  for (let trail = 0x21; trail <= 0x7e; trail++) {
    const text = dec([ESC, 0x24, 0x42, lead, trail]);
    if (text.length !== 1) throw new Error(`pair ${lead} ${trail}: ${JSON.stringify(text)}`);
    pairs += text;
  }
}
const data = { node: process.versions.node, icu: process.versions.icu, escapes, jis0208: pairs };
writeFileSync(
  new URL("../core/expressions/js/host/iso2022jp.json.gz", import.meta.url),
  gzipSync(JSON.stringify(data), { level: 9 }),
);
console.log(Object.keys(escapes).length, "escape sequences and prefixes,",
  [...pairs].filter((c) => c !== "\ufffd").length, "pairs");

if (process.argv[2]) {
  let seed = 2022;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const known = Object.keys(escapes).map((k) => k.match(/../g).map((h) => parseInt(h, 16)));
  // the known switches and the bytes each state reads: [escape, low, high, bytes a character]
  const WELL_FORMED = [[[0x28, 0x42], 0x20, 0x7e, 1], [[0x28, 0x4a], 0x20, 0x7e, 1],
    [[0x28, 0x49], 0x21, 0x5f, 1], [[0x24, 0x42], 0x30, 0x4f, 2], [[0x24, 0x40], 0x30, 0x4f, 2]];
  const cases = [];
  for (let n = 0; n < 40000; n++) {
    const bytes = [];
    const parts = 1 + Math.floor(random() * 8);
    // one text in four well formed: switches, each followed by what its state reads
    const wellFormed = random() < 0.25;
    for (let k = 0; k < parts; k++) {
      if (wellFormed) {
        const [escape, low, high, width] = pick(WELL_FORMED);
        bytes.push(ESC, ...escape);
        for (let m = (1 + Math.floor(random() * 3)) * width; m > 0; m--)
          bytes.push(low + Math.floor(random() * (high - low + 1)));
        if (random() < 0.2) bytes.push(pick([0x0a, 0x0d]));
        continue;
      }
      const r = random();
      if (r < 0.3) bytes.push(ESC, ...pick(known)); // a known escape or its start
      else if (r < 0.35) bytes.push(ESC, Math.floor(random() * 256));
      else if (r < 0.45) bytes.push(ESC, 0x24, pick([0x40, 0x42]), 0x30 + Math.floor(random() * 0x20),
        0x21 + Math.floor(random() * 94));
      else if (r < 0.6) bytes.push(0x21 + Math.floor(random() * 94), 0x21 + Math.floor(random() * 94));
      else if (r < 0.7) bytes.push(pick([0x0a, 0x0d, 0x0e, 0x0f, 0x20, 0x5c, 0x7e, 0x7f, 0x00, ESC]));
      else if (r < 0.8) bytes.push(0x80 + Math.floor(random() * 0x80));
      else bytes.push(Math.floor(random() * 0x80));
    }
    const whole = dec(bytes);
    let fatal = null;
    try {
      fatal = dec(bytes, { fatal: true });
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      fatal = { error: e.message };
    }
    const cut = Math.floor(random() * (bytes.length + 1));
    const s = new TextDecoder("iso-2022-jp");
    const first = s.decode(new Uint8Array(bytes.slice(0, cut)), { stream: true });
    const second = s.decode(new Uint8Array(bytes.slice(cut)));
    const again = s.decode(new Uint8Array(bytes)); // the decoder is new again after a flush
    // fatal and streamed: the first call's error leaves the state for the second
    const f = new TextDecoder("iso-2022-jp", { fatal: true });
    const fatalStream = [bytes.slice(0, cut), bytes.slice(cut)].map((part, k) => {
      try {
        return f.decode(new Uint8Array(part), { stream: k === 0 });
      } catch (e) {
        return { error: e.message };
      }
    });
    cases.push({ bytes, whole, fatal, cut, first, second, again, fatalStream });
  }
  writeFileSync(process.argv[2], JSON.stringify(cases));
  console.log(cases.length, "cases written");
}
