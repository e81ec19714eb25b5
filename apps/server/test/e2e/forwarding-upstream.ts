import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RawCall } from './recording-upstream';

export interface ForwardingUpstream {
  /** `http://127.0.0.1:<port>/v1`, a channel's base URL: requests go on to the target with the same path. */
  baseUrl: string;
  /** Every request as it arrived, raw body bytes included. */
  calls: RawCall[];
  close(): Promise<void>;
}

/**
 * An HTTP hop on 127.0.0.1, port 0, in front of a server (the simulator): it keeps each
 * request's raw bytes — what "byte for byte" means, since the simulator keeps only a parse —
 * and forwards it unchanged, piping the answer back as it comes.
 */
export async function startForwardingUpstream(targetOrigin: string): Promise<ForwardingUpstream> {
  const target = new URL(targetOrigin);
  const calls: RawCall[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const call: RawCall = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      calls.push(call);
      const onward = http.request(
        { host: target.hostname, port: target.port, method: call.method, path: call.url, headers: { ...req.headers, host: target.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      onward.on('error', () => res.destroy());
      onward.end(call.body);
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
