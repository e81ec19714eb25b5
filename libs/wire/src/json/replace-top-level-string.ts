/**
 * The JSON text `raw` (an object) with the string value of its top-level `key` replaced by
 * `value`, every other byte as it was — so a forwarded request differs from the caller's in that
 * value alone. Undefined when `raw` has no such top-level string (the caller then re-serialises).
 * Where a key repeats, the last one is replaced: it is the one JSON.parse keeps.
 */
export function replaceTopLevelString(raw: Buffer, key: string, value: string): Buffer | undefined {
  const text = raw.toString('utf8');
  let depth = 0;
  let found: { start: number; end: number } | undefined;
  let pendingKey: string | undefined;
  let expectingKey = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') {
      const end = stringEnd(text, index);
      if (end < 0) return undefined;
      if (depth === 1) {
        if (expectingKey) {
          pendingKey = JSON.parse(text.slice(index, end + 1)) as string;
          expectingKey = false;
        } else if (pendingKey === key) {
          found = { start: index, end: end + 1 };
          pendingKey = undefined;
        }
      }
      index = end;
    } else if (char === '{' || char === '[') {
      depth += 1;
      if (depth === 1 && char === '{') expectingKey = true;
      if (depth === 2) pendingKey = undefined;
    } else if (char === '}' || char === ']') {
      depth -= 1;
    } else if (char === ',' && depth === 1) {
      expectingKey = true;
      pendingKey = undefined;
    } else if (depth === 1 && char !== ':' && !/\s/.test(char ?? '')) {
      pendingKey = undefined; // a number, true, false or null: not a string value
    }
  }
  if (!found) return undefined;
  return Buffer.concat([Buffer.from(text.slice(0, found.start)), Buffer.from(JSON.stringify(value)), Buffer.from(text.slice(found.end))]);
}

/** Index of the closing quote of the string opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (char === '"') return index;
  }
  return -1;
}
