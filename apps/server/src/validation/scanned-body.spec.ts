import { JsonContainerScanner } from './json-container-scanner';
import { exceedsJsonDepth } from './json-depth';
import { parseScannedBody, scannedBody } from './scanned-body';

/** Scans `text` fed in pieces of `piece` bytes (every boundary a piece can fall on), as a body arrives. */
function scan(text: string | Buffer, piece = Number.POSITIVE_INFINITY): JsonContainerScanner {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const scanner = new JsonContainerScanner();
  for (let at = 0; at < bytes.length; at += Math.min(piece, bytes.length)) scanner.feed(bytes.subarray(at, Math.min(at + piece, bytes.length)));
  scanner.finish();
  return scanner;
}

async function parseInSlices(text: string, piece?: number): Promise<unknown> {
  const scanner = scan(text, piece);
  if (scanner.failure) throw new SyntaxError(`scan failed at ${scanner.failure.at}`);
  return parseScannedBody(scannedBody(Buffer.from(text), scanner));
}

/** Large enough to be split again (256 KiB) and batched (64 KiB), with every kind of value inside. */
function largeRequest(): string {
  const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_${i}`, { type: 'string', description: `Ünïcode "quoted" \\ back\nslash ${i} 🎉` }])) };
  const tools = Array.from({ length: 600 }, (_, i) => ({ type: 'function', function: { name: `tool_${i}`, parameters: schema } }));
  const messages = Array.from({ length: 50 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} `.repeat(500) }));
  return JSON.stringify({ model: 'gpt-4o', stream: true, temperature: 0.5, n: null, stop: [], tools, messages, big: 'x'.repeat(400_000), nested: { a: [[[{ b: -1.5e-3 }]]] } });
}

describe('scanning a JSON body and parsing it in slices', () => {
  it.each([
    ['an object', '{"a":1,"b":"two","c":[true,false,null],"d":{"e":-0.5e10}}'],
    ['an array', '[1, "x", {"y": [2]}, [], {}]'],
    ['whitespace everywhere', ' \n\t{ "a" :\r\n [ 1 , 2 ] , "b" : { } } \n'],
    ['escapes, quotes and backslashes in keys and values', String.raw`{"a\"b":"c\\","d\\\"":"\\\\","e":"\u00e9\ud83c\udf89\"}"}`],
    ['empty containers', '{}'],
    ['duplicate keys: the last value, at the first one’s place', '{"model":"a","x":1,"model":"b"}'],
    ['a key that escapes its name', '{"mod\\u0065l":"gpt-4o"}'],
    ['__proto__ as an own key, as JSON.parse makes it', '{"__proto__":{"polluted":true},"a":1}'],
  ])('%s: the same value JSON.parse makes, fed in any pieces', async (_name, text) => {
    for (const piece of [1, 2, 3, 7, Number.POSITIVE_INFINITY]) {
      const parsed = await parseInSlices(text, piece);
      expect(parsed).toEqual(JSON.parse(text));
      expect(Object.getPrototypeOf(parsed)).toBe(Object.getPrototypeOf(JSON.parse(text)));
      expect(Object.keys(parsed as object)).toEqual(Object.keys(JSON.parse(text) as object));
    }
  });

  it('a large request: split again and batched, the same value JSON.parse makes', async () => {
    const text = largeRequest();
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(await parseInSlices(text, 65_536)).toEqual(JSON.parse(text));
    expect(await parseInSlices(text, 1000)).toEqual(JSON.parse(text));
  });

  it('a large array of tiny values (token ids) is parsed in groups, not value by value', async () => {
    const text = JSON.stringify({ model: 'text-embedding-3-small', input: Array.from({ length: 64 }, (_, i) => Array.from({ length: 8000 }, (_, j) => (i * j) % 100_000)) });
    const scanner = scan(text, 65_536);
    const parsed = await parseScannedBody(scannedBody(Buffer.from(text), scanner));
    expect(parsed).toEqual(JSON.parse(text));
  });

  it('reads the top-level model as JSON.parse does: the last one, escapes decoded', () => {
    const text = '{"model":"gpt-4o-mini","messages":[{"model":"nested"}],"mod\\u0065l":"gpt-4o"}';
    expect(scannedBody(Buffer.from(text), scan(text)).model).toBe('gpt-4o');
    expect(scannedBody(Buffer.from('{"model":42}'), scan('{"model":42}')).model).toBe(42);
    expect(scannedBody(Buffer.from('{"messages":[]}'), scan('{"messages":[]}')).model).toBeUndefined();
  });

  it.each([
    ['a missing comma between members', '{"a":1 "b":2}'],
    ['a trailing comma', '{"a":1,}'],
    ['a missing colon', '{"a" 1}'],
    ['a bare word', '{"a":yes}'],
    ['nothing after the colon', '{"a":}'],
    ['text after the end', '{"a":1} x'],
    ['an unterminated string', '{"a":"b'],
    ['an unclosed object', '{"a":{"b":1}'],
    ['a mismatched bracket inside', '{"a":[1}, "b":2}'],
    ['a bad number inside', '{"a":[01]}'],
    ['an escaped quote that does not close', '{"a":"b\\"}'],
  ])('%s: refused, as JSON.parse refuses it', async (_name, text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    for (const piece of [1, 3, Number.POSITIVE_INFINITY]) await expect(parseInSlices(text, piece)).rejects.toThrow(SyntaxError);
  });

  it('nesting deeper than 128 levels is found wherever it is, even inside strings that look like brackets', () => {
    const deep = `{"a":"[[[[","b":${'['.repeat(130)}${']'.repeat(130)}}`;
    expect(scan(deep, 5).failure).toMatchObject({ kind: 'too_deep' });
    const fine = `{"a":"${'['.repeat(300)}","b":${'['.repeat(100)}${']'.repeat(100)}}`;
    expect(scan(fine, 5).failure).toBeUndefined();
  });

  it('draws the depth line where json-depth.ts draws it: 128 levels pass, 129 do not', () => {
    for (const levels of [127, 128, 129]) {
      const text = `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
      expect(scan(text, 3).failure?.kind === 'too_deep').toBe(exceedsJsonDepth(Buffer.from(text)));
      expect(exceedsJsonDepth(Buffer.from(text))).toBe(levels > 128);
    }
  });

  it('a string, number or literal at the top is no container: left for JSON.parse', () => {
    expect(scan('"text"').notContainer).toBe(true);
    expect(scan('42').notContainer).toBe(true);
  });
});
