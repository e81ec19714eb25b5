import zlib from 'node:zlib';
import fc from 'fast-check';

/** How a body travels: its headers (content type, encoding, length) and its bytes. */
export interface EncodedBody {
  variant: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

const BOMB_BYTES = 4 * 1024 * 1024;
/** Brotli's default quality (11) takes a second per MB; the relay must only inflate it. */
const FAST_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
let bombs: Record<string, Buffer> | undefined;

/** A few MB of zeros, compressed once per process: ~4 KB on the wire each. */
function bomb(kind: 'gzip-nul' | 'gzip-digits' | 'deflate' | 'br'): Buffer {
  bombs ??= {
    'gzip-nul': zlib.gzipSync(Buffer.alloc(BOMB_BYTES)),
    'gzip-digits': zlib.gzipSync(Buffer.alloc(BOMB_BYTES, '0')),
    deflate: zlib.deflateSync(Buffer.alloc(BOMB_BYTES)),
    br: zlib.brotliCompressSync(Buffer.alloc(BOMB_BYTES), FAST_BROTLI),
  };
  return bombs[kind] as Buffer;
}

const json = (body: Buffer, extra: Array<[string, string]> = [], type = 'application/json'): Array<[string, string]> => [
  ['Content-Type', type],
  ['Content-Length', String(body.length)],
  ...extra,
];

/** Bytes that are not UTF-8, put inside the first string value when there is one. */
const INVALID_UTF8 = [
  Buffer.from([0xff]),
  Buffer.from([0xc0, 0xaf]), // overlong '/'
  Buffer.from([0xed, 0xa0, 0x80]), // an encoded surrogate
  Buffer.from([0xe2, 0x82]), // truncated sequence
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]),
  Buffer.from([0x80, 0x80, 0x80]),
];

function withInvalidUtf8(body: Buffer, which: number): Buffer {
  const bad = INVALID_UTF8[which % INVALID_UTF8.length] as Buffer;
  const anchor = body.indexOf('"content":"');
  const at = anchor >= 0 ? anchor + '"content":"'.length : Math.floor(body.length / 2);
  return Buffer.concat([body.subarray(0, at), bad, body.subarray(at)]);
}

/** At most ~1,000 chunks, however small `size` asks them to be. */
function chunked(body: Buffer, requested: number): Buffer {
  const size = Math.max(requested, Math.ceil(body.length / 1_000));
  const parts: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += size) {
    const chunk = body.subarray(offset, offset + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

type Encoder = (body: Buffer, pick: number) => EncodedBody;

/** Each way of sending a body; the first few are what clients really send. */
const ENCODERS: Record<string, Encoder> = {
  plain: (body) => ({ variant: 'plain', headers: json(body), body }),
  'charset-utf8': (body) => ({ variant: 'charset-utf8', headers: json(body, [], 'application/json; charset=utf-8'), body }),
  'invalid-utf8': (body, pick) => {
    const bad = withInvalidUtf8(body, pick);
    return { variant: 'invalid-utf8', headers: json(bad), body: bad };
  },
  'content-type-lie': (body, pick) => {
    const types = [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json; charset=bogus',
      'application/vnd.fuzz+json',
      'application/json, text/html',
      'APPLICATION/JSON',
      'application/json;charset="utf-8"',
      'application/json; boundary=;;;',
      '',
      '*/*',
    ];
    return { variant: 'content-type-lie', headers: json(body, [], types[pick % types.length]), body };
  },
  'no-content-type': (body) => ({ variant: 'no-content-type', headers: [['Content-Length', String(body.length)]], body }),
  'duplicate-content-type': (body) => ({
    variant: 'duplicate-content-type',
    headers: [...json(body), ['Content-Type', 'text/plain']],
    body,
  }),
  gzip: (body) => {
    const packed = zlib.gzipSync(body);
    return { variant: 'gzip', headers: json(packed, [['Content-Encoding', 'gzip']]), body: packed };
  },
  deflate: (body) => {
    const packed = zlib.deflateSync(body);
    return { variant: 'deflate', headers: json(packed, [['Content-Encoding', 'deflate']]), body: packed };
  },
  br: (body) => {
    const packed = zlib.brotliCompressSync(body, FAST_BROTLI);
    return { variant: 'br', headers: json(packed, [['Content-Encoding', 'br']]), body: packed };
  },
  'encoding-lie': (body, pick) => {
    const labels = ['gzip', 'deflate', 'br', 'gzip, gzip', 'x-compress', 'compress', 'zstd', 'identity, gzip', 'GZIP'];
    const truncated = zlib.gzipSync(body).subarray(0, 12);
    const sent = pick % 2 === 0 ? body : truncated;
    return { variant: 'encoding-lie', headers: json(sent, [['Content-Encoding', labels[pick % labels.length] as string]]), body: sent };
  },
  bomb: (_body, pick) => {
    const kinds = ['gzip-nul', 'gzip-digits', 'deflate', 'br'] as const;
    const kind = kinds[pick % kinds.length] ?? 'gzip-nul';
    const packed = bomb(kind);
    const label = kind.startsWith('gzip') ? 'gzip' : kind;
    return { variant: `bomb-${kind}`, headers: json(packed, [['Content-Encoding', label]]), body: packed };
  },
  chunked: (body, pick) => ({
    variant: 'chunked',
    headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']],
    body: chunked(body, 1 + (pick % 4096)),
  }),
  'chunked-and-length': (body) => ({
    variant: 'chunked-and-length',
    headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked'], ['Content-Length', String(body.length)]],
    body: chunked(body, 64),
  }),
  'bad-chunk': (body) => ({
    variant: 'bad-chunk',
    headers: [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']],
    body: Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]),
  }),
  'length-lie': (body, pick) => {
    // Declared lengths the server can answer at once: never more bytes than sent, unless past any limit.
    const lies = ['99999999999999999999', '1000000000', '-1', 'abc', '1e3', ` ${body.length}`, '0x10', String(Math.floor(body.length / 2)), '0'];
    const lie = lies[pick % lies.length] as string;
    return { variant: 'length-lie', headers: [['Content-Type', 'application/json'], ['Content-Length', lie]], body };
  },
  'duplicate-length': (body, pick) => ({
    variant: 'duplicate-length',
    headers: [
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
      ['Content-Length', String(pick % 2 === 0 ? body.length : body.length + 1)],
    ],
    body,
  }),
};

type EncoderName = keyof typeof ENCODERS;

const WEIGHTS: Array<[EncoderName, number]> = [
  ['plain', 40],
  ['charset-utf8', 4],
  ['invalid-utf8', 6],
  ['content-type-lie', 4],
  ['no-content-type', 2],
  ['duplicate-content-type', 1],
  ['gzip', 3],
  ['deflate', 2],
  ['br', 2],
  ['encoding-lie', 3],
  ['bomb', 2],
  ['chunked', 3],
  ['chunked-and-length', 1],
  ['bad-chunk', 1],
  ['length-lie', 3],
  ['duplicate-length', 1],
];

/** A way of sending a body (only plain JSON when `plainOnly`). */
export const bodyTransportArb = (plainOnly = false): fc.Arbitrary<(body: Buffer) => EncodedBody> =>
  fc
    .tuple(
      plainOnly ? fc.constant<EncoderName>('plain') : fc.oneof(...WEIGHTS.map(([name, weight]) => ({ weight, arbitrary: fc.constant(name) }))),
      fc.nat(1_000),
    )
    .map(([name, pick]) => (body: Buffer) => (ENCODERS[name] as Encoder)(body, pick));
