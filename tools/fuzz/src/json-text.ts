/**
 * JSON as a tree we serialise ourselves, so a body can hold what `JSON.stringify` never writes:
 * number literals like `-0`, `1e300` or 400 digits, duplicate keys and own `__proto__` keys.
 */
export type JsonNode =
  | { kind: 'literal'; text: string }
  | { kind: 'string'; value: string }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'object'; entries: Array<[string, JsonNode]> };

export const lit = (text: string): JsonNode => ({ kind: 'literal', text });
export const str = (value: string): JsonNode => ({ kind: 'string', value });
export const arr = (items: JsonNode[]): JsonNode => ({ kind: 'array', items });
export const obj = (entries: Array<[string, JsonNode]>): JsonNode => ({ kind: 'object', entries });

/** A plain JSON value (what `JSON.parse` returns) as a tree. */
export function fromValue(value: unknown): JsonNode {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return lit(JSON.stringify(value));
  if (typeof value === 'string') return str(value);
  if (Array.isArray(value)) return arr(value.map(fromValue));
  return obj(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, fromValue(item)]));
}

/** The entry `key` of an object node replaced (or added), the others kept in order. */
export function withEntry(node: JsonNode, key: string, value: JsonNode): JsonNode {
  if (node.kind !== 'object') return node;
  const entries = node.entries.filter(([name]) => name !== key);
  return obj([...entries, [key, value]]);
}

/** `item` appended to the array at `key` (a new array when there is none). */
export function appendTo(base: JsonNode, key: string, item: JsonNode): JsonNode {
  const current = base.kind === 'object' ? base.entries.find(([name]) => name === key)?.[1] : undefined;
  return withEntry(base, key, arr([...(current?.kind === 'array' ? current.items : []), item]));
}

/** `root` without the value at `path` (unchanged when there is none). */
export function dropPath(root: JsonNode, path: ReadonlyArray<string | number>): JsonNode {
  const [step, ...rest] = path;
  if (step === undefined) return root;
  if (typeof step === 'number') {
    if (root.kind !== 'array' || step >= root.items.length) return root;
    return arr(rest.length === 0 ? root.items.filter((_, index) => index !== step) : root.items.map((item, index) => (index === step ? dropPath(item, rest) : item)));
  }
  if (root.kind !== 'object') return root;
  return obj(rest.length === 0 ? root.entries.filter(([key]) => key !== step) : root.entries.map(([key, item]): [string, JsonNode] => [key, key === step ? dropPath(item, rest) : item]));
}

/** Lone surrogates come out as `\ud800` escapes (well-formed JSON.stringify): valid JSON, invalid UTF-16. */
const quote = (value: string): string => JSON.stringify(value);

/** Iterative, so a tree nested 100,000 levels deep serialises without a stack overflow. */
export function serialize(root: JsonNode): string {
  const out: string[] = [];
  const stack: Array<JsonNode | string> = [root];
  while (stack.length > 0) {
    const item = stack.pop() as JsonNode | string;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case 'literal':
        out.push(item.text);
        break;
      case 'string':
        out.push(quote(item.value));
        break;
      case 'array': {
        out.push('[');
        stack.push(']');
        for (let index = item.items.length - 1; index >= 0; index--) {
          stack.push(item.items[index] as JsonNode);
          if (index > 0) stack.push(',');
        }
        break;
      }
      case 'object': {
        out.push('{');
        stack.push('}');
        for (let index = item.entries.length - 1; index >= 0; index--) {
          const [key, value] = item.entries[index] as [string, JsonNode];
          stack.push(value);
          stack.push(`${quote(key)}:`);
          if (index > 0) stack.push(',');
        }
        break;
      }
    }
  }
  return out.join('');
}

/** `depth` levels of `open…close` around `inner`, as text (cheaper than a tree that deep). */
export const nestedText = (depth: number, open: string, close: string, inner = '1'): string =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
