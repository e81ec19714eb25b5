// Test-only: calls to the simulator's Videos API, each answer checked against OpenAI's description.
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { VideoSchema, type Video } from '@chat-relay/contract';
import { expectSpecValid } from '../../responses/testing/openai-spec-check';
import { callOpenAi, testKey } from '../../sim-test-client';
import type { UpstreamSim } from '../../sim-types';

export function checkedVideo(json: unknown): Video {
  expectSpecValid('VideoResource', json);
  return VideoSchema.parse(json);
}

export async function createVideo(sim: UpstreamSim, body: Record<string, unknown>): Promise<Video> {
  const response = await callOpenAi(sim, 'POST', '/videos', { body });
  expect(response.status).toBe(200);
  return checkedVideo(await response.json());
}

export async function retrieveVideo(sim: UpstreamSim, id: string): Promise<Video> {
  const response = await callOpenAi(sim, 'GET', `/videos/${id}`);
  expect(response.status).toBe(200);
  return checkedVideo(await response.json());
}

/** Polls until `done` holds (or 3 s pass), returning every state seen. */
export async function pollVideoUntil(sim: UpstreamSim, id: string, done: (video: Video) => boolean): Promise<Video[]> {
  const seen: Video[] = [];
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const video = await retrieveVideo(sim, id);
    seen.push(video);
    if (done(video)) return seen;
    await sleep(20);
  }
  throw new Error(`video ${id} still ${seen.at(-1)?.status ?? 'unseen'}`);
}

export interface Download {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as the socket delivered it. */
  chunks: Buffer[];
  /** Set when the connection broke before the body ended. */
  error: Error | undefined;
}

/** A GET read with node:http, so the test sees the chunks and a broken connection. */
export function download(url: string, key = testKey): Promise<Download> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${key}` } }, (response) => {
      const chunks: Buffer[] = [];
      const answer = (error: Error | undefined): void =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, chunks, error });
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => answer(undefined));
      response.on('error', (error) => answer(error));
    }).on('error', reject);
  });
}
