/** What JSON writes as an object member: not undefined, functions or symbols. */
const isWritten = (value: unknown) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

interface Frame {
  close: ']' | '}';
  /** Object entries, or array items under an undefined key. */
  items: Array<[string | undefined, unknown]>;
  next: number;
}

/**
 * `JSON.stringify` for parsed JSON, with an explicit stack instead of recursion: a tool schema
 * nested thousands of levels makes the native one throw RangeError. Same text for plain JSON
 * data; `toJSON` is ignored and an object met twice (a cycle) is written as `null`.
 */
export function stringifyWithoutRecursion(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const seen = new Set<object>();
  const write = (value: unknown): void => {
    if (value === null || typeof value !== 'object') {
      out.push(JSON.stringify(value) ?? 'null');
    } else if (seen.has(value)) {
      out.push('null');
    } else if (Array.isArray(value)) {
      seen.add(value);
      out.push('[');
      stack.push({ close: ']', items: value.map((item: unknown) => [undefined, item]), next: 0 });
    } else {
      seen.add(value);
      out.push('{');
      stack.push({ close: '}', items: Object.entries(value).filter(([, item]) => isWritten(item)), next: 0 });
    }
  };
  write(root);
  for (let frame = stack.at(-1); frame; frame = stack.at(-1)) {
    const entry = frame.items[frame.next];
    if (!entry) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    if (frame.next++ > 0) out.push(',');
    if (entry[0] !== undefined) out.push(JSON.stringify(entry[0]), ':');
    write(entry[1]);
  }
  return out.join('');
}
