/**
 * Nesting depth of JSON bodies. V8 parses any depth, but everything after the parse that
 * recurses — JSON.stringify, schema converters, the tokenizer — throws a RangeError a few
 * thousand levels down (issue 10, defect 2), so the relay refuses deep bodies at the edge.
 *
 * 128 levels, serde_json's default recursion limit: a chat request reaches a tool's JSON Schema
 * 5 levels down and every schema level costs 2 (`properties` → the property), so a schema
 * nested 60 levels still fits — real ones stop near 20–30 — while the recursive code after it
 * keeps a margin of more than 10× before the stack runs out.
 */
export const MAX_JSON_DEPTH = 128;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the JSON text in `bytes` opens more than `limit` arrays/objects inside one another.
 * One linear pass; strings are skipped with the native `indexOf`, so the cost goes with the
 * structure, not with the length of the text in it. Invalid JSON gives some answer; JSON.parse
 * then has the last word on it.
 */
export function exceedsJsonDepth(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  // Each level needs an opening and a closing byte.
  if (bytes.length <= 2 * limit) return false;
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let depth = 0;
  for (let i = 0; i < buffer.length; i++) {
    const byte = buffer[i];
    if (byte === QUOTE) {
      i = closingQuote(buffer, i);
      if (i < 0) return false;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** The index of the quote closing the string opened at `open`, or -1. */
function closingQuote(buffer: Buffer, open: number): number {
  for (let at = buffer.indexOf(QUOTE, open + 1); at !== -1; at = buffer.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (buffer[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/**
 * The path to the first value nested deeper than `limit` in an already parsed value, e.g.
 * `['tools', 0, 'function', 'parameters', …]`; undefined when none is. Iterative, so depth
 * cannot hurt it; visits each value at most once.
 */
export function pathBeyondDepth(value: unknown, limit = MAX_JSON_DEPTH): Array<string | number> | undefined {
  interface Frame {
    value: unknown;
    depth: number;
    key: string | number | null;
    parent: Frame | null;
  }
  const stack: Frame[] = [{ value, depth: 0, key: null, parent: null }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (typeof frame.value !== 'object' || frame.value === null) continue;
    const depth = frame.depth + 1;
    if (depth > limit) return pathOf(frame);
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [index, item])
      : Object.entries(frame.value);
    // Reversed, so the first key is explored first and the path named is the first one found.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string | number, unknown];
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth, key, parent: frame });
    }
  }
  return undefined;
}

function pathOf(frame: { key: string | number | null; parent: unknown }): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: { key: string | number | null; parent: unknown } | null = frame; at; at = at.parent as typeof frame | null) {
    if (at.key !== null) path.push(at.key);
  }
  return path.reverse();
}

/** `tools[0].function.parameters.properties.a…`: the first segments of a path, as a JS accessor. */
export function describeJsonPath(path: ReadonlyArray<string | number>, shown = 8): string {
  let text = '';
  for (const segment of path.slice(0, shown)) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += /^[A-Za-z_$][\w$]*$/.test(segment) ? `${text ? '.' : ''}${segment}` : `[${JSON.stringify(segment.slice(0, 40))}]`;
  }
  if (path.length > shown) text += '…';
  return text === '' ? '(root)' : text;
}
