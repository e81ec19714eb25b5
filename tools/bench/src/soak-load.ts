import { model, shortUserText } from './workloads';

/** The kinds of request a soak mixes, in the proportions of {@link SOAK_MIX}. */
export type SoakKind = 'non-stream' | 'stream' | 'aborted-stream' | 'error';

/** One cycle of 20 requests: mostly real traffic, callers that walk away, a few caller errors. */
export const SOAK_MIX: readonly SoakKind[] = [
  ...Array<SoakKind>(8).fill('non-stream'),
  ...Array<SoakKind>(6).fill('stream'),
  ...Array<SoakKind>(4).fill('aborted-stream'),
  ...Array<SoakKind>(2).fill('error'),
];

export interface SoakCounts {
  done: number;
  failed: number;
}

export type SoakTally = Record<SoakKind, SoakCounts>;

export const emptyTally = (): SoakTally => ({
  'non-stream': { done: 0, failed: 0 },
  stream: { done: 0, failed: 0 },
  'aborted-stream': { done: 0, failed: 0 },
  error: { done: 0, failed: 0 },
});

/** Thirty words at 20 ms a token: a stream that is still running when its caller walks away. */
const slowText = `${Array.from({ length: 30 }, (_, index) => `soak${index}`).join(' ')} [sim:latency=20]`;

/** Caller errors the relay refuses itself (the channel stays healthy): bad JSON, a bad field, a model the token may not use. */
const ERROR_BODIES: readonly string[] = [
  '{"model":"gpt-4o","messages":[',
  JSON.stringify({ model, messages: [{ role: 'user', content: shortUserText }], max_tokens: 'many' }),
  JSON.stringify({ model: 'not-allowed-model', messages: [{ role: 'user', content: shortUserText }] }),
];

export interface SoakTarget {
  url: string;
  headers: Record<string, string>;
}

const post = (target: SoakTarget, body: string, signal?: AbortSignal) =>
  fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json', ...target.headers }, body, signal });

/** Sends one request of `kind`; true when the relay answered as it should. */
export async function soakRequest(target: SoakTarget, kind: SoakKind, sequence: number): Promise<boolean> {
  switch (kind) {
    case 'non-stream': {
      const response = await post(target, JSON.stringify({ model, messages: [{ role: 'user', content: shortUserText }] }));
      const text = await response.text();
      return response.status === 200 && text.includes('You said:');
    }
    case 'stream': {
      const response = await post(target, JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: shortUserText }] }));
      const text = await response.text();
      return response.status === 200 && text.includes('data: [DONE]');
    }
    case 'aborted-stream': {
      const controller = new AbortController();
      const response = await post(target, JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: slowText }] }), controller.signal);
      if (response.status !== 200 || !response.body) return false;
      const reader = response.body.getReader();
      const first = await reader.read();
      controller.abort();
      await reader.cancel().catch(() => undefined);
      return !first.done;
    }
    case 'error': {
      const response = await post(target, ERROR_BODIES[sequence % ERROR_BODIES.length] as string);
      const payload = (await response.json().catch(() => undefined)) as { error?: { message?: unknown } } | undefined;
      return response.status >= 400 && response.status < 500 && typeof payload?.error?.message === 'string';
    }
  }
}

/** `connections` callers in a loop over {@link SOAK_MIX} until `until` (ms since epoch). */
export async function runSoakLoad(target: SoakTarget, connections: number, until: number): Promise<SoakTally> {
  const tally = emptyTally();
  let sequence = 0;
  const caller = async () => {
    while (Date.now() < until) {
      const index = sequence++;
      const kind = SOAK_MIX[index % SOAK_MIX.length] as SoakKind;
      const ok = await soakRequest(target, kind, Math.floor(index / SOAK_MIX.length)).catch(() => false);
      tally[kind].done += 1;
      if (!ok) tally[kind].failed += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, caller));
  return tally;
}
