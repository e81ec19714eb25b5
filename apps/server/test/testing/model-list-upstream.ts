import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  headers: IncomingHttpHeaders;
}

/** An answer: JSON (serialised here) or raw text; `hang` never answers (a first-byte timeout). */
export type ListAnswer = { status?: number; json: unknown } | { status?: number; text: string } | { hang: true };

export interface ModelListUpstream {
  /** `http://127.0.0.1:<port>` with no version path: channels add theirs (`/v1`, `/v1beta`). */
  origin: string;
  requests: ListRequest[];
  close(): Promise<void>;
}

/**
 * A provider stand-in on 127.0.0.1, port 0, for the model list: it keeps every request (method,
 * URL, headers) and answers each with `answer(request, index)`.
 */
export async function startModelListUpstream(answer: (request: ListRequest, index: number) => ListAnswer): Promise<ModelListUpstream> {
  const requests: ListRequest[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
      requests.push(request);
      const canned = answer(request, requests.length - 1);
      if ('hang' in canned) return;
      const body = 'json' in canned ? JSON.stringify(canned.json) : canned.text;
      res.writeHead(canned.status ?? 200, { 'content-type': 'json' in canned ? 'application/json' : 'text/plain' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
