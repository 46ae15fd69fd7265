// Feeds conditions to MemberJunction's published SafeExpressionEvaluator, one batch per process.
// Usage: node mj_oracle.mjs /path/to/dist/SafeExpressionEvaluator.js < cases.jsonl
// Each input line: {"expr": <string or any>, "scope": <object>}; JSON cannot carry every
// JavaScript value, so {"$js": "NaN" | "Infinity" | "-Infinity" | "undefined"} stands for one.
// Each output line: {"success": bool, "value": bool | null, "error": string | null}.
// With "probe": true the case is run a second time with the condition's value handed to a
// recorder in the scope (the same pasting context as the engine's Boolean(...)), and the line
// also carries "exact": {typeof, string, json, negzero} of that value, each the text node gives
// (or "throws: <message>"), so values are compared exactly, not only as booleans.
import { pathToFileURL } from "node:url";
import { createInterface } from "node:readline";

const moduleFile = process.argv[2];
const { SafeExpressionEvaluator } = await import(pathToFileURL(moduleFile).href);
const evaluator = new SafeExpressionEvaluator();

const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, undefined: undefined };
function revive(_key, value) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$js" && value.$js in SPECIAL) return SPECIAL[value.$js];
  }
  return value;
}

// A class instance: cloneValue copies its own properties as they are, so the arrow survives.
class Recorder {
  constructor() {
    this.seen = [];
    this.put = (v) => {
      this.seen.push(v);
      return true;
    };
  }
}
const RECORDER = "__fxProbe";

function attempt(fn) {
  try {
    const v = fn();
    return v === undefined ? "undefined" : String(v);
  } catch (e) {
    return "throws: " + String(e && e.message);
  }
}

function probe(expr, scope) {
  const recorder = new Recorder();
  const result = evaluator.evaluate(`${RECORDER}.put(${expr})`, { ...scope, [RECORDER]: recorder });
  if (!result.success || recorder.seen.length !== 1) return null;
  const v = recorder.seen[0];
  return {
    typeof: typeof v,
    string: attempt(() => String(v)),
    json: attempt(() => JSON.stringify(v)),
    negzero: Object.is(v, -0),
  };
}

// The clock, pinned the way flowctx pins it: with "now" (epoch ms) on a line, `new Date()`,
// `Date()` and `Date.now()` read that instant for that case; every other use of Date (with
// arguments, Date.parse, Date.UTC, the prototype) is node's own. The condition's function
// looks `Date` up on the global object when it runs, so swapping the global is enough.
const RealDate = Date;
function pinDate(ms) {
  const now = { now() { return ms; } }.now;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length ? args : [ms], newTarget);
    },
    apply() {
      return new RealDate(ms).toString();
    },
    get(target, prop, receiver) {
      return prop === "now" ? now : Reflect.get(target, prop, receiver);
    },
  });
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let out;
  let parsed = null;
  try {
    parsed = JSON.parse(line, revive);
    if (typeof parsed.now === "number") pinDate(parsed.now);
    else globalThis.Date = RealDate;
    const { expr, scope } = parsed;
    const result = evaluator.evaluate(expr, scope ?? {});
    out = {
      success: result.success === true,
      value: result.success ? result.value : null,
      error: result.success ? null : String(result.error),
    };
  } catch (e) {
    out = { success: false, value: null, error: "harness: " + String(e && e.message) };
  }
  if (out.success && parsed && parsed.probe) out.exact = probe(parsed.expr, parsed.scope ?? {});
  process.stdout.write(JSON.stringify(out) + "\n");
}
