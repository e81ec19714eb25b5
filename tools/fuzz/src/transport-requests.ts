import fc from 'fast-check';
import { bodyTransportArb } from './body-transport';
import { authArb, type FuzzCase, type FuzzContext, type KeyKind } from './fuzz-context';

/** Texts that are not JSON, nearly JSON, or JSON of the wrong kind. */
const INVALID_JSON_TEXTS: readonly string[] = [
  '',
  ' ',
  '{',
  '}',
  '[',
  '{"model":',
  '{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]',
  '{"model":"gpt-4o",}',
  "{'model':'gpt-4o'}",
  '{model:"gpt-4o"}',
  '{"model":"gpt-4o"} trailing',
  '{"model":"gpt-4o"}{"model":"gpt-4o"}',
  '/* comment */ {"model":"gpt-4o"}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":-Infinity}',
  '{"a":undefined}',
  '{"a":01}',
  '{"a":1.}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":0x10}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\t"}',
  '{"a":"\u0000"}',
  '{"a":"unterminated}',
  'null',
  'true',
  '0',
  '-0',
  '1e300',
  '"a string"',
  '[]',
  '[{"model":"gpt-4o"}]',
  '\ufeff{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}',
  '\ufeff\ufeff{}',
  'model=gpt-4o&messages=hi',
  '<?xml version="1.0"?><a/>',
  '{"__proto__":{"polluted":"fuzz"},"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}',
];

const invalidJsonBodyArb: fc.Arbitrary<{ label: string; body: Buffer }> = fc.oneof(
  fc.constantFrom(...INVALID_JSON_TEXTS).map((text) => ({ label: 'invalid-json', body: Buffer.from(text, 'utf8') })),
  fc.constantFrom(...INVALID_JSON_TEXTS).map((text) => ({ label: 'utf16-json', body: Buffer.from(`\ufeff${text}`, 'utf16le') })),
  fc.uint8Array({ maxLength: 256 }).map((bytes) => ({ label: 'random-bytes', body: Buffer.from(bytes) })),
  fc.integer({ min: 1, max: 60 }).map((cut) => {
    const text = '{"model":"gpt-4o","messages":[{"role":"user","content":"Hello there, relay"}],"stream":true}';
    return { label: 'truncated-json', body: Buffer.from(text.slice(0, Math.floor((text.length * cut) / 61)), 'utf8') };
  }),
);

/** Header sets beside the body's: what proxies, scanners and broken clients send. */
const ODD_HEADERS: ReadonlyArray<Array<[string, string]>> = [
  [['Expect', '100-continue']],
  [['Expect', 'bogus-expectation']],
  [
    ['Connection', 'Upgrade'],
    ['Upgrade', 'websocket'],
  ],
  [['Upgrade', 'h2c']],
  [['Connection', 'keep-alive, close, Upgrade']],
  [['X-Forwarded-For', 'not-an-ip, 999.999.999.999, ::ffff:1.2.3.4, ' + 'x'.repeat(2_000)]],
  [['X-Forwarded-For', '127.0.0.1'], ['X-Forwarded-For', '10.0.0.1']],
  [['X-Request-Id', 'r'.repeat(10_000)]],
  [['X-Request-Id', '\u00ff\u00fe\u0001id']],
  [['X-Request-Id', '']],
  [['Accept', 'text/event-stream']],
  [['Accept', '*/*;q=NaN, application/json;q=1e300']],
  [['Accept-Encoding', 'gzip;q=-1, br;q=NaN, *;q=0']],
  [['Accept-Charset', 'utf-16']],
  [['Host', 'evil.example'], ['Host', 'other.example']],
  [['Host', '']],
  [['Host', '[::1']],
  [['Big', 'h'.repeat(20_000)]],
  Array.from({ length: 300 }, (_, index): [string, string] => [`X-Many-${index}`, String(index)]),
  [['X-Folded', 'a\r\n  folded continuation']],
  [['Bad Header', 'x']],
  [['X-Ctl', 'a\u0001b']],
  [['Transfer-Encoding', 'gzip']],
  [['Content-Length', '5'], ['Content-Length', '6']],
  [['Range', 'bytes=0-1,2-3'], ['If-None-Match', '*']],
  [['Cookie', '__proto__=polluted; constructor=x']],
  [['Origin', 'null'], ['Access-Control-Request-Method', 'DELETE']],
];

const oddHeadersArb = fc.constantFrom(...ODD_HEADERS);

const TARGETS = ['/v1/chat/completions', '/api/tokens', '/api/accounts', '/api/assistants', '/api/channels', '/api/tokens/batch', '/api/prices', '/healthz', '/v1/models'];

/** Invalid bodies on every JSON route, odd headers, odd methods and HTTP versions. */
export function transportCaseArb(context: FuzzContext): fc.Arbitrary<FuzzCase> {
  const keys = fc.constantFrom<KeyKind>('admin', 'account', 'token', 'token', 'none', 'malformed');
  const invalidBody = fc
    .tuple(invalidJsonBodyArb, fc.constantFrom(...TARGETS), fc.constantFrom('POST', 'POST', 'PUT', 'PATCH'), authArb(context, keys), bodyTransportArb())
    .map(([{ label, body }, target, method, auth, transport]) => {
      const encoded = transport(body);
      return { family: `transport:${label} [${encoded.variant}]`, request: { method, target, headers: [...auth, ...encoded.headers], body: encoded.body } };
    });
  const oddHeaders = fc
    .tuple(oddHeadersArb, fc.constantFrom(...TARGETS), authArb(context, keys), fc.boolean())
    .map(([headers, target, auth, withBody]) => {
      const body = withBody ? Buffer.from('{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}') : undefined;
      const bodyHeaders: Array<[string, string]> = body ? [['Content-Type', 'application/json'], ['Content-Length', String(body.length)]] : [];
      return {
        family: `transport:header ${headers[0]?.[0] ?? ''}`,
        request: { method: body ? 'POST' : 'GET', target, headers: [...auth, ...bodyHeaders, ...headers], body },
      };
    });
  const oddLine = fc
    .tuple(
      fc.constantFrom('get', 'FOO', 'POST ', 'G\u00e9T', 'CONNECT', 'DELETE', 'OPTIONS', 'TRACE', 'HEAD', 'PRI'),
      fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1 extra', 'http/1.1'),
      fc.constantFrom(...TARGETS, '*', ' /healthz', '/healthz\u0000', '/v1/models\u00ff'),
      authArb(context, keys),
    )
    .map(([method, version, target, auth]) => ({ family: `transport:line ${method.trim()} ${version}`, request: { method, target, version, headers: auth } }));
  return fc.oneof({ weight: 5, arbitrary: invalidBody }, { weight: 3, arbitrary: oddHeaders }, { weight: 2, arbitrary: oddLine });
}
