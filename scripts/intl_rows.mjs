// Shared by the scripts that measure Intl's tables per locale: a locale's parent (its tag
// without the last subtag), and the rows kept only where they differ from the nearest
// parent's that has a row (flowctx's reader falls back the same way).

export const parentOf = (tag) => (tag.includes("-") ? tag.slice(0, tag.lastIndexOf("-")) : null);

export function nearestParent(tag, rows) {
  let p = parentOf(tag);
  while (p && !(p in rows)) p = parentOf(p);
  return p;
}

export function prunedRows(rows, locales) {
  const out = {};
  for (const tag of locales) {
    const p = nearestParent(tag, rows);
    if (p && JSON.stringify(rows[p]) === JSON.stringify(rows[tag])) continue;
    out[tag] = rows[tag];
  }
  return out;
}

// A pool of the values rows share, each kept once (-1 for none), and the rows themselves, each
// kept once as a list of pool indices: ``row(values)`` gives a row's index. A table's own pool
// and rows may be given, to add rows to them.
export function rowPool(pool = [], rows = []) {
  const index = new Map(pool.map((v, i) => [JSON.stringify(v), i]));
  const rowIndex = new Map(rows.map((v, i) => [JSON.stringify(v), i]));
  const ref = (v) => {
    if (v === null || v === undefined) return -1;
    const k = JSON.stringify(v);
    if (!index.has(k)) { index.set(k, pool.length); pool.push(v); }
    return index.get(k);
  };
  const row = (values) => {
    const r = JSON.stringify(values.map(ref));
    if (!rowIndex.has(r)) { rowIndex.set(r, rows.length); rows.push(JSON.parse(r)); }
    return rowIndex.get(r);
  };
  return { pool, rows, row };
}

// Each locale's list over the keys (row indices, -1 for none) with null where it is its nearest
// parent's, and only the locales whose list differs from their parent's somewhere.
export function parentPruned(indexed) {
  const get = (tag, at) => {
    for (let t = tag; t; t = parentOf(t)) if (t in indexed) return indexed[t][at];
    return -1;
  };
  const tags = {};
  for (const tag of Object.keys(indexed)) {
    const p = parentOf(tag);
    const list = indexed[tag].map((v, at) => (p && get(p, at) === v ? null : v));
    if (list.some((v) => v !== null)) tags[tag] = list;
  }
  return tags;
}
