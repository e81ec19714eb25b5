import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import v8 from 'node:v8';
import net, { type AddressInfo } from 'node:net';
import { createHttpServer, expressMessageClasses } from './http-server';
import { createTestRelay, type TestRelay } from '../test/testing/test-relay';

/** Sends raw bytes; resolves with everything the server sent once it closed the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1').on('data', (piece: string) => (text += piece));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
    socket.once('connect', () => socket.write(bytes));
    setTimeout(() => reject(new Error(`no close; received so far: ${text}`)), 3000).unref();
  });
}

/** V8's own answers (its natives syntax, switched on for these functions' compilation). */
function v8Native<A extends unknown[]>(parameters: string[], body: string): (...args: A) => boolean {
  v8.setFlagsFromString('--allow-natives-syntax');
  return new Function(...parameters, body) as (...args: A) => boolean;
}
/** Is the object's property storage fast (not a dictionary)? */
const hasFastProperties = v8Native<[object]>(['value'], 'return %HasFastProperties(value)');
/** Do both objects have one hidden class (V8's map)? */
const haveSameMap = v8Native<[object, object]>(['a', 'b'], 'return %HaveSameMap(a, b)');

const CASES: Array<[string, string, number, string]> = [
  ['a malformed request line', 'GARBAGE\r\n\r\n', 400, 'invalid_http'],
  ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'invalid_http'],
  ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, 'invalid_http'],
  ['oversized headers', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ['an invalid method', 'G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'invalid_http'],
  ['both Content-Length and chunked', 'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'invalid_http'],
  // Found by the fuzz suite: Node answered an empty 417, and left CONNECT without any answer.
  ['an Expect other than 100-continue', 'GET /v1/models HTTP/1.1\r\nHost: x\r\nExpect: bogus-expectation\r\n\r\n', 417, 'expectation_failed'],
  ['a CONNECT request', 'CONNECT /api/prices HTTP/1.1\r\nHost: x\r\n\r\n', 405, 'method_not_allowed'],
];

describe('issue 10 defect 11: errors without a body', () => {
  let relay: TestRelay;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    relay = await createTestRelay();
    server = createHttpServer(relay.app, { headersTimeoutMs: 5000, requestTimeoutMs: 10_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await relay.close();
  });

  it.each(CASES)('answers %s with its status and an OpenAI error body, then closes', async (_name, bytes, status, code) => {
    const text = await rawExchange(port, bytes);
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const headers = head.toLowerCase();
    expect(headers).toContain('content-type: application/json; charset=utf-8');
    expect(headers).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(headers).toContain('connection: close');
    expect(JSON.parse(body)).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code } });
  });

  it('still serves a well-formed request on a new connection', async () => {
    const text = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('issue 30: requests and responses made with Express prototypes', () => {
  it('hands Express a request and response whose prototypes are already its own, so its init changes none', async () => {
    const relay = await createTestRelay();
    const server = createHttpServer(relay.app, { headersTimeoutMs: 5000, requestTimeoutMs: 10_000 });
    const seen: boolean[] = [];
    const fast: boolean[] = [];
    // Runs before the app's own listener: what Node constructed, before Express touches it.
    server.prependListener('request', (req, res) => {
      seen.push(Object.getPrototypeOf(req) === relay.app.request, Object.getPrototypeOf(res) === relay.app.response);
      seen.push(res instanceof ServerResponse, req instanceof IncomingMessage);
      fast.push(hasFastProperties(req), hasFastProperties(res));
      // Two responses made alike share one map (a fresh map for each was ~4 KB a response).
      const { ServerResponse: Made } = expressMessageClasses(relay.app);
      if (Made) fast.push(haveSameMap(new Made(req), new Made(req)));
      res.once('finish', () => fast.push(hasFastProperties(req), hasFastProperties(res)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const text = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(seen).toEqual([true, true, true, true]);
      // V8 keeps both as fast objects from construction to the end of the answer: a response
      // made on an object sized for an empty constructor used to become a dictionary at once.
      expect(fast).toEqual([true, true, true, true, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await relay.close();
    }
  });
});

describe('issue 30: what a response keeps while it is open', () => {
  it('keeps its head as one flat string and its locals as a fast object with nothing inherited', async () => {
    const relay = await createTestRelay();
    const server = createHttpServer(relay.app, { headersTimeoutMs: 5000, requestTimeoutMs: 10_000 });
    const flat = Buffer.from('flat', 'latin1').toString('latin1');
    const rope = 'a rope of two'.repeat(2) + ' pieces of text'.repeat(2);
    const kept: Array<[string, boolean]> = [];
    server.prependListener('request', (_req, res: ServerResponse) => {
      res.once('finish', () => {
        const head = (res as unknown as { _header: string })._header;
        const locals = (res as unknown as { locals: Record<string, unknown> }).locals;
        kept.push(
          ['head is flat', haveSameMap(head as unknown as object, flat as unknown as object)],
          ['head is not a rope', !haveSameMap(head as unknown as object, rope as unknown as object)],
          ['head names the request id', head.includes(`x-request-id: ${String(locals['requestId'])}\r\n`)],
          ['locals are fast', hasFastProperties(locals)],
          ['locals inherit nothing', !('constructor' in locals) && !('toString' in locals)],
          ['headers sent', res.headersSent],
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const text = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
      expect(kept).toEqual(kept.map(([name]) => [name, true]));
      expect(kept).toHaveLength(6);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await relay.close();
    }
  });

  it('sends the head it was given, byte for byte, whichever form of writeHead is called', async () => {
    const relay = await createTestRelay();
    const server = createHttpServer(relay.app, { headersTimeoutMs: 5000, requestTimeoutMs: 10_000 });
    server.prependListener('request', (req, res: ServerResponse) => {
      if (req.url === '/reason') res.writeHead(299, 'Fine Indeed', { 'x-a': 'caf\u00e9' }).end('one');
      else if (req.url === '/headers') res.writeHead(201, [['x-b', '2'], ['x-b', '3']]).end('two');
      else if (req.url === '/implicit') {
        res.setHeader('x-c', '4');
        res.end('three');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const ask = async (path: string) =>
        (await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).replace(/\r\nDate: [^\r]+/, '\r\nDate: D');
      const tail = 'Date: D\r\nConnection: close\r\n';
      expect(await ask('/reason')).toBe(`HTTP/1.1 299 Fine Indeed\r\nx-a: caf\u00e9\r\n${tail}Transfer-Encoding: chunked\r\n\r\n3\r\none\r\n0\r\n\r\n`);
      expect(await ask('/headers')).toBe(`HTTP/1.1 201 Created\r\nx-b: 2\r\nx-b: 3\r\n${tail}Transfer-Encoding: chunked\r\n\r\n3\r\ntwo\r\n0\r\n\r\n`);
      expect(await ask('/implicit')).toBe(`HTTP/1.1 200 OK\r\nx-c: 4\r\n${tail}Content-Length: 5\r\n\r\nthree`);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await relay.close();
    }
  });
});
