import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as it arrived: the raw body bytes, not a parse of them. */
export interface RawCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What the fake upstream answers: JSON (or an error) in one piece, SSE text event by event. */
export interface CannedAnswer {
  status?: number;
  contentType: 'application/json' | 'text/event-stream';
  body: string;
}

export interface RecordingUpstream {
  /** `http://127.0.0.1:<port>/v1`, a channel's base URL. */
  baseUrl: string;
  calls: RawCall[];
  close(): Promise<void>;
}

/** SSE text cut at its blank lines, each event with its terminator, so it goes out as a provider streams it. */
const sseFrames = (text: string): string[] => text.match(/[\s\S]*?(?:\r?\n\r?\n|$)/g)?.filter((frame) => frame !== '') ?? [];

/**
 * A provider stand-in on 127.0.0.1, port 0, for tests that need the exact bytes a channel
 * receives (the simulator parses them) or an answer recorded from a real provider: it keeps
 * every request's raw body and answers each with `answer(call, index)`.
 */
export async function startRecordingUpstream(answer: (call: RawCall, index: number) => CannedAnswer): Promise<RecordingUpstream> {
  const calls: RawCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call: RawCall = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      calls.push(call);
      const canned = answer(call, calls.length - 1);
      res.writeHead(canned.status ?? 200, { 'content-type': canned.contentType });
      if (canned.contentType === 'application/json') {
        res.end(canned.body);
        return;
      }
      const frames = sseFrames(canned.body);
      const writeNext = (index: number): void => {
        if (index >= frames.length) {
          res.end();
          return;
        }
        res.write(frames[index]);
        setImmediate(() => writeNext(index + 1));
      };
      writeNext(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
