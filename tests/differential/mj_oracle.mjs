// Feeds conditions to MemberJunction's published SafeExpressionEvaluator, one batch per process.
// Usage: node mj_oracle.mjs /path/to/dist/SafeExpressionEvaluator.js < cases.jsonl
// Each input line: {"expr": <string or any>, "scope": <object>}; JSON cannot carry every
// JavaScript value, so {"$js": "NaN" | "Infinity" | "-Infinity" | "undefined"} stands for one.
// Each output line: {"success": bool, "value": bool | null, "error": string | null}.
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

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let out;
  try {
    const { expr, scope } = JSON.parse(line, revive);
    const result = evaluator.evaluate(expr, scope ?? {});
    out = {
      success: result.success === true,
      value: result.success ? result.value : null,
      error: result.success ? null : String(result.error),
    };
  } catch (e) {
    out = { success: false, value: null, error: "harness: " + String(e && e.message) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
