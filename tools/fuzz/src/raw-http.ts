import net from 'node:net';

/** One HTTP/1.1 request as bytes on the wire: nothing normalised, any method, header or body. */
export interface RawRequest {
  method: string;
  /** The request target exactly as sent (`/api/tokens/%ff?q=…`). */
  target: string;
  /** In order, duplicates allowed; the sender adds `Host` (first) unless one is given. */
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Buffer;
  /** `HTTP/1.1` unless another version line is wanted. */
  version?: string;
  /** Close the socket once the response headers are in (a caller that walks away). */
  abortAfterHeaders?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The response ended because we aborted, not because the server finished it. */
  aborted: boolean;
}

/** What came back: a response, the socket closed with none, or nothing before the deadline. */
export type RawOutcome = { kind: 'response'; response: RawResponse } | { kind: 'closed'; bytes: number } | { kind: 'timeout' };

export function encodeRequest(request: RawRequest, host: string): Buffer {
  const headers = request.headers.some(([name]) => name.toLowerCase() === 'host')
    ? request.headers
    : [['Host', host] as const, ...request.headers];
  const head = `${request.method} ${request.target} ${request.version ?? 'HTTP/1.1'}\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  // latin1 keeps each char a byte, so a header may carry any octet the generator chose.
  return Buffer.concat([Buffer.from(head, 'latin1'), request.body ?? Buffer.alloc(0)]);
}

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

function parseHead(data: Buffer): Head | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, bodyStart: end + 4 };
}

/** The decoded chunked body once its last chunk is in, else undefined. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return undefined;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

/** The body so far when the response is complete (framing by status, length or chunks). */
function completeBody(head: Head, body: Buffer, method: string): Buffer | undefined {
  if (method === 'HEAD' || head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) {
    return Buffer.alloc(0);
  }
  if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) return dechunk(body);
  const length = head.headers['content-length'];
  if (length !== undefined) return body.length >= Number(length) ? body.subarray(0, Number(length)) : undefined;
  return undefined;
}

/** Where raw requests go: plain HTTP only, since the bytes are written to the socket as generated. */
export interface RawTarget {
  host: string;
  port: number;
}

/** The host and port of an `http://` URL; throws on any other scheme. */
export function rawTargetOf(url: string): RawTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:') throw new Error(`${url}: the fuzzer writes raw HTTP/1.1 and needs an http:// URL`);
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port ? Number(parsed.port) : 80 };
}

/** Sends one raw request on a fresh connection and reads one response. */
export function sendRaw(target: RawTarget, request: RawRequest, timeoutMs: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(target.port, target.host);
    let data: Buffer = Buffer.alloc(0);
    let head: Head | undefined;
    let settled = false;
    const settle = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
    const respond = (body: Buffer, aborted: boolean) =>
      head && settle({ kind: 'response', response: { status: head.status, headers: head.headers, body, aborted } });
    socket.on('data', (chunk: Buffer) => {
      data = data.length === 0 ? chunk : Buffer.concat([data, chunk]);
      head ??= parseHead(data);
      // An interim answer (100 Continue) is followed by the real one.
      while (head && head.status >= 100 && head.status < 200 && head.status !== 101) {
        data = data.subarray(head.bodyStart);
        head = parseHead(data);
      }
      if (!head) return;
      const raw = data.subarray(head.bodyStart);
      if (request.abortAfterHeaders) return respond(raw, true);
      const body = completeBody(head, raw, request.method);
      if (body) respond(body, false);
    });
    const finish = () => {
      if (!head) return settle({ kind: 'closed', bytes: data.length });
      const raw = data.subarray(head.bodyStart);
      const chunked = /chunked/i.test(head.headers['transfer-encoding'] ?? '');
      respond(chunked ? (dechunk(raw) ?? raw) : raw, false);
    };
    socket.on('end', finish);
    socket.on('close', finish);
    // A reset after a complete answer is fine (the server may close without reading our body).
    socket.on('error', () => undefined);
    socket.write(encodeRequest(request, `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`));
  });
}
