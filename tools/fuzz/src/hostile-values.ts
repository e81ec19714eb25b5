import fc from 'fast-check';
import { arr, lit, nestedText, obj, str, type JsonNode } from './json-text';

/** Numbers JSON can spell that break naive arithmetic: huge, tiny, negative zero, past 2^53. */
export const EXTREME_NUMBER_LITERALS = [
  '1e300',
  '-1e300',
  '1e309', // JSON.parse → Infinity
  '-1e309',
  '-0',
  '0',
  '-1',
  '0.5',
  '1.0000000000000002',
  '5e-324',
  '1e-320',
  '9007199254740993', // 2^53 + 1
  '-9007199254740993',
  '18446744073709551616', // 2^64
  '2147483648',
  '4294967296',
  `1${'0'.repeat(400)}`,
  `-${'9'.repeat(400)}`,
  '1E+2',
  '123456789012345678901234567890.5',
] as const;

/** Strings that look like numbers, keys, paths or escapes to code that guesses. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e300',
  '-0',
  '0x10',
  '9007199254740993',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  'a\u0000b',
  '\ud800', // lone high surrogate
  '\udfff',
  '\u202e\u0645\u0631\u062d\u0628\u0627', // RTL override + Arabic
  '\ufeff',
  '😀👩‍👩‍👧‍👦',
  '%ff',
  '%',
  '../../../etc/passwd',
  "'; DROP TABLE tokens; --",
  '${jndi:ldap://x/a}',
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  'sk-' + 'A'.repeat(48),
  '2026-13-45T25:61:61Z',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
] as const;

/** Objects whose keys reach for Object.prototype if anything merges them naively. */
export const POLLUTION_NODES: readonly JsonNode[] = [
  obj([['__proto__', obj([['polluted', str('fuzz')]])]]),
  obj([['constructor', obj([['prototype', obj([['polluted', str('fuzz')]])]])]]),
  obj([['prototype', obj([['polluted', str('fuzz')]])]]),
  obj([
    ['__proto__', obj([['isAdmin', lit('true')], ['toString', str('x')]])],
    ['__proto__', lit('null')],
  ]),
  obj([['__proto__', arr([str('polluted')])]]),
];

export const pollutionKeyArb = fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf');

/**
 * One code point of any plane, lone surrogates and controls included. (fast-check's `binary`
 * unit indexes all of Unicode per arbitrary, a second each; this one costs nothing to build.)
 */
const anyCharArb: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x80, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);

/** A string of up to `maxBytes`, most of them short; long ones are one repeated unit (cheap to build). */
export const hostileStringArb = (maxBytes: number): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 7, arbitrary: fc.string({ unit: anyCharArb, maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('a', ' ', 'é', '汉', '\u0000', 'ab '), fc.constantFrom(...new Set([Math.min(1_000, maxBytes), Math.min(16_000, maxBytes), maxBytes])))
        .map(([unit, bytes]) => unit.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(unit))))),
    },
  );

export const numberLiteralArb: fc.Arbitrary<JsonNode> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EXTREME_NUMBER_LITERALS).map(lit) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => lit(JSON.stringify(value))) },
  { weight: 1, arbitrary: fc.integer().map((value) => lit(String(value))) },
);

/** Arrays or objects nested `depth` deep, written as text (a schema level is 37 bytes, so it stops at 10,000). */
export const deepNestingArb: fc.Arbitrary<JsonNode> = fc
  .tuple(fc.constantFrom(16, 200, 1_000, 4_600, 10_000, 30_000), fc.constantFrom('array', 'object', 'schema'))
  .map(([depth, shape]) => {
    if (shape === 'array') return lit(nestedText(depth, '[', ']'));
    if (shape === 'object') return lit(nestedText(depth, '{"a":', '}'));
    return lit(nestedText(Math.min(depth, 10_000), '{"type":"object","properties":{"p":', '}}', '{"type":"string"}'));
  });

/** Many small items: large to parse and walk, small on the wire. */
export const hugeArrayArb: fc.Arbitrary<JsonNode> = fc
  .tuple(fc.constantFrom(1_000, 5_000, 10_000), fc.constantFrom('0', 'null', '""', '{}', '[]', '{"role":"user","content":"x"}'))
  .map(([count, item]) => lit(`[${new Array<string>(count).fill(item).join(',')}]`));

export const scalarArb = (maxStringBytes: number): fc.Arbitrary<JsonNode> =>
  fc.oneof(
    { weight: 3, arbitrary: numberLiteralArb },
    { weight: 3, arbitrary: hostileStringArb(maxStringBytes).map(str) },
    { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null').map(lit) },
  );

/**
 * Any hostile JSON value: wrong-typed scalars, small random structures with hostile keys,
 * pollution objects, deep nesting and huge arrays. `maxStringBytes` bounds the long strings.
 */
export const hostileValueArb = (maxStringBytes = 64 * 1024): fc.Arbitrary<JsonNode> => {
  const { value } = fc.letrec<{ value: JsonNode }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 6, arbitrary: scalarArb(maxStringBytes) },
      { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }).map(arr) },
      {
        weight: 2,
        arbitrary: fc
          .array(fc.tuple(fc.oneof(pollutionKeyArb, hostileStringArb(64)), tie('value')), { maxLength: 4 })
          .map((entries) => obj(entries)),
      },
      { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_NODES) },
      { weight: 1, arbitrary: deepNestingArb },
      { weight: 1, arbitrary: hugeArrayArb },
    ),
  }));
  return value;
};

/** A place in a JSON body: object keys and array indexes, outermost first. */
export type PathStep = string | number;

/**
 * One to three edits of a valid body: a field path (a money field one time in `fieldWeight + 1`)
 * and the hostile value or number literal put there. What every request family's "field" cases
 * are made of.
 */
export const fieldEditsArb = (
  fieldPaths: readonly PathStep[][],
  moneyPaths: readonly PathStep[][],
  maxStringBytes: number,
  fieldWeight = 5,
): fc.Arbitrary<Array<[PathStep[], JsonNode]>> =>
  fc.array(
    fc.tuple(
      fc.oneof({ weight: fieldWeight, arbitrary: fc.constantFrom(...fieldPaths) }, { weight: 1, arbitrary: fc.constantFrom(...moneyPaths) }),
      fc.oneof({ weight: 3, arbitrary: hostileValueArb(maxStringBytes) }, { weight: 1, arbitrary: numberLiteralArb }),
    ),
    { minLength: 1, maxLength: 3 },
  );
