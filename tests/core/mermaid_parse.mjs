// Parses each Mermaid diagram given on stdin (a JSON list of strings) with the real mermaid
// package, as a Markdown host's renderer would, and prints one JSON answer per diagram.
// mermaid reads a DOM for sanitising labels: jsdom provides one.
import { createRequire } from "node:module";
import path from "node:path";

const root = process.argv[2];
const require = createRequire(path.join(root, "package.json"));
const { JSDOM } = require("jsdom");
const dom = new JSDOM("<!doctype html><html><body></body></html>");
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const mermaid = (await import(require.resolve("mermaid"))).default;

let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = [];
for (const text of JSON.parse(input)) {
  try {
    const result = await mermaid.parse(text);
    answers.push({ ok: true, type: result.diagramType });
  } catch (error) {
    answers.push({ ok: false, error: String(error?.message ?? error) });
  }
}
console.log(JSON.stringify(answers));
