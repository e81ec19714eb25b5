import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelayError } from '@chat-relay/wire';
import { fetchModelsDevJson } from './fetch-models-dev';

async function serve(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api.json`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const failure = async (promise: Promise<unknown>): Promise<RelayError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('it did not fail');
};

describe('fetchModelsDevJson', () => {
  it('stops reading past the size cap, whether or not the length was declared', async () => {
    const declared = await serve((_req, res) => res.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000)));
    const chunked = await serve((_req, res) => {
      res.writeHead(200);
      res.write('['.padEnd(3000, ' '));
      res.end(' '.repeat(3000) + ']');
    });
    try {
      expect(await failure(fetchModelsDevJson(declared.url, { timeoutMs: 2000, maxBytes: 4000 }))).toMatchObject({ status: 502, code: 'catalogue_too_large' });
      expect(await failure(fetchModelsDevJson(chunked.url, { timeoutMs: 2000, maxBytes: 4000 }))).toMatchObject({ status: 502, code: 'catalogue_too_large' });
      expect(await fetchModelsDevJson(chunked.url, { timeoutMs: 2000, maxBytes: 10_000 })).toEqual([]);
    } finally {
      await declared.close();
      await chunked.close();
    }
  });

  it('gives up after its time limit, and refuses an answer that is not JSON', async () => {
    const silent = await serve(() => undefined);
    const text = await serve((_req, res) => res.writeHead(200).end('<html>'));
    try {
      const late = await failure(fetchModelsDevJson(silent.url, { timeoutMs: 200, maxBytes: 1000 }));
      expect(late).toMatchObject({ status: 504, code: 'catalogue_fetch_timeout' });
      expect(late.message).toMatch(/within 200 ms/);
      expect(await failure(fetchModelsDevJson(text.url, { timeoutMs: 2000, maxBytes: 1000 }))).toMatchObject({ code: 'catalogue_unreadable' });
    } finally {
      await silent.close();
      await text.close();
    }
  });
});
