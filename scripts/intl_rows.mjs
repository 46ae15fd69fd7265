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
