// Writes core/expressions/js/host/multibyte.json.gz: how node's TextDecoder (ICU's converters)
// decodes the double-byte legacy encodings and gb18030's and EUC-JP's longer sequences, measured with the node whose answers flowctx
// reproduces:
//   node scripts/text_multibyte.mjs
// For each encoding: what each byte alone decodes to (a lead byte alone is U+FFFD), and for
// each lead byte a row of 256 entries, one per following byte: the character the pair makes,
// "\u0000" where the pair is no character (the lead is decoded alone and the next byte read
// anew), "\u0001" where the pair is one error (one U+FFFD for both) or "\u0002" where a
// longer sequence starts (see LONGER). The script checks
// that decoding byte by byte with these tables gives node's answer on random texts, and its
// TypeError with `fatal` exactly where an error was met, and a streamed decode as the bytes
// decoded whole with a lead byte at a call's end kept for the next.
import { writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const ENCODINGS = ["gbk", "big5", "euc-kr", "shift_jis", "gb18030", "euc-jp"];

// The longer sequences: gb18030's four bytes (a lead, a digit, a lead, a digit) and EUC-JP's
// three (0x8F and two bytes from 0xA1 to 0xFE). Which first two bytes start one, the range of
// each further byte, and a sequence's index in its table.
const LONGER = {
  gb18030: {
    starts: (b, t) => b >= 0x81 && b <= 0xfe && t >= 0x30 && t <= 0x39,
    more: [[0x81, 0xfe], [0x30, 0x39]],
    index: (b, t, c, e) => ((b - 0x81) * 10 + (t - 0x30)) * 1260 + (c - 0x81) * 10 + (e - 0x30),
  },
  "euc-jp": {
    starts: (b, t) => b === 0x8f && t >= 0xa1 && t <= 0xfe,
    more: [[0xa1, 0xfe]],
    index: (b, t, c) => (t - 0xa1) * 94 + (c - 0xa1),
  },
};

// every sequence of a longer form, as runs [first index, last index, first code point] of
// consecutive code points; the sequences in no run are errors (one U+FFFD for all)
function measureLonger(encoding, spec) {
  const d = new TextDecoder(encoding);
  const runs = [];
  const visit = (prefix, level) => {
    if (level === spec.more.length) {
      const text = d.decode(new Uint8Array(prefix));
      const cps = [...text];
      if (cps.length !== 1 || text === "\ufffd") return;
      const index = spec.index(...prefix);
      const cp = text.codePointAt(0);
      const last = runs[runs.length - 1];
      if (last && last[1] === index - 1 && last[2] + (index - last[0]) === cp) last[1] = index;
      else runs.push([index, index, cp]);
      return;
    }
    const [low, high] = spec.more[level];
    for (let x = low; x <= high; x++) visit([...prefix, x], level + 1);
  };
  for (let b = 0x80; b < 256; b++)
    for (let t = 0; t < 256; t++) if (spec.starts(b, t)) visit([b, t], 0);
  return runs;
}

function measure(encoding) {
  const d = new TextDecoder(encoding);
  const dec = (a) => d.decode(new Uint8Array(a));
  const single = [];
  for (let b = 0; b < 256; b++) single.push(dec([b]));
  const rows = {};
  const longer = LONGER[encoding];
  for (let b = 0x80; b < 256; b++) {
    let row = "";
    let pairs = 0;
    for (let t = 0; t < 256; t++) {
      if (longer && longer.starts(b, t)) {
        row += "\u0002"; // a longer sequence starts
        pairs++;
        continue;
      }
      const alone = dec([b, t]);
      const after = dec([b, t, 0x41]);
      if (after !== alone + "A") {
        // the second byte began a character of its own with the A
        if (alone !== single[b] + single[t]) throw new Error(`${encoding} ${b} ${t}`);
        row += "\u0000";
      } else if ([...alone].length === 1 && alone !== "\ufffd") {
        row += alone;
        pairs++;
      } else if (alone === "\ufffd") {
        row += "\u0001";
        pairs++;
      } else if (alone === single[b] + single[t]) {
        row += "\u0000";
      } else {
        throw new Error(`${encoding}: no rule for ${b} ${t}`);
      }
    }
    if (pairs) rows[b] = row;
  }
  return longer ? { single, rows, longer: measureLonger(encoding, longer) } : { single, rows };
}

function longerAt(table, encoding, bytes, i) {
  // [text, bytes used] of the longer sequence at i, or null where a byte is out of its range;
  // "short" where the bytes end first
  const spec = LONGER[encoding];
  const need = 2 + spec.more.length;
  if (i + need > bytes.length) {
    for (let k = 2; i + k < bytes.length; k++) {
      const [low, high] = spec.more[k - 2];
      if (bytes[i + k] < low || bytes[i + k] > high) return null;
    }
    return "short";
  }
  const seq = bytes.slice(i, i + need);
  for (let k = 2; k < need; k++) {
    const [low, high] = spec.more[k - 2];
    if (seq[k] < low || seq[k] > high) return null;
  }
  const index = spec.index(...seq);
  for (const [first, last, cp] of table.longer)
    if (index >= first && index <= last) return [String.fromCodePoint(cp + index - first), need];
  return ["\ufffd", need];
}

// decoded byte by byte; `stream`: a lead byte at the end is kept for the next call.
// Returns [text, bytes kept, whether an error was met]
function decodeWith(table, bytes, stream = false, encoding = "") {
  let out = "";
  let error = false;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const row = table.rows[b];
    if (row && i + 1 < bytes.length) {
      const got = row[bytes[i + 1]];
      if (got === "\u0002") {
        const found = longerAt(table, encoding, bytes, i);
        if (found === "short") {
          // the bytes end inside a sequence: kept when streamed, one error for all if not
          if (stream) return [out, bytes.slice(i), error];
          out += "\ufffd";
          error = true;
          break;
        }
        if (found !== null) {
          out += found[0];
          error ||= found[0] === "\ufffd";
          i += found[1];
          continue;
        }
        out += "\ufffd"; // a byte out of range: the lead is one error, the rest read anew
        error = true;
        i += 1;
        continue;
      }
      if (got === "\u0001") {
        out += "\ufffd";
        error = true;
        i += 2;
        continue;
      }
      if (got !== "\u0000") {
        out += got;
        i += 2;
        continue;
      }
    } else if (row && stream) {
      return [out, [b], error];
    }
    out += table.single[b];
    error ||= table.single[b] === "\ufffd";
    i += 1;
  }
  return [out, [], error];
}

const data = { node: process.versions.node, icu: process.versions.icu, encodings: {} };
let seed = 36;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
for (const encoding of ENCODINGS) {
  const table = measure(encoding);
  const d = new TextDecoder(encoding);
  for (let n = 0; n < 20000; n++) {
    const bytes = [];
    const length = 1 + Math.floor(random() * 10);
    for (let k = 0; k < length; k++) {
      const r = random();
      // ASCII, bytes past it, and the digits and 0x8F that start the longer sequences
      if (r < 0.15) bytes.push(Math.floor(random() * 0x80));
      else if (r < 0.3) bytes.push(0x30 + Math.floor(random() * 10));
      else if (r < 0.35) bytes.push(0x8f);
      else bytes.push(0x80 + Math.floor(random() * 0x80));
    }
    const theirs = d.decode(new Uint8Array(bytes));
    const [ours, , error] = decodeWith(table, bytes, false, encoding);
    if (ours !== theirs) throw new Error(`${encoding} ${bytes}`);
    // fatal: a TypeError exactly where an error was met
    let threw = false;
    try {
      new TextDecoder(encoding, { fatal: true }).decode(new Uint8Array(bytes));
    } catch {
      threw = true;
    }
    if (threw !== error) throw new Error(`${encoding} fatal ${bytes}`);
    // streamed in two calls: the second continues the first's kept lead byte
    const cut = Math.floor(random() * (bytes.length + 1));
    const s = new TextDecoder(encoding);
    const streamed = s.decode(new Uint8Array(bytes.slice(0, cut)), { stream: true }) +
      s.decode(new Uint8Array(bytes.slice(cut)));
    const [first, kept] = decodeWith(table, bytes.slice(0, cut), true, encoding);
    const [second] = decodeWith(table, [...kept, ...bytes.slice(cut)], false, encoding);
    if (streamed !== first + second) throw new Error(`${encoding} stream ${bytes} at ${cut}`);
  }
  data.encodings[encoding] = table;
  console.log(encoding, Object.keys(table.rows).length, "lead bytes");
}
writeFileSync(
  new URL("../core/expressions/js/host/multibyte.json.gz", import.meta.url),
  gzipSync(JSON.stringify(data), { level: 9 }),
);
