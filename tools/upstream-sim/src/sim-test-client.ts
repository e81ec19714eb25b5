// Helpers for the HTTP specs: a real fetch client and an SSE splitter (not exported by index.ts).
import type { UpstreamSim } from './sim-types';

export const testKey = 'sk-test-upstream-sim';

export function postChat(sim: UpstreamSim, body: unknown, init: { key?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = init.key ?? testKey;
  if (key) headers['authorization'] = `Bearer ${key}`;
  return fetch(`${sim.baseUrl}/chat/completions`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

/** Everything the server sent, and the error that ended the read when the stream broke. */
export async function readAll(response: Response): Promise<{ text: string; error: unknown }> {
  const decoder = new TextDecoder();
  let text = '';
  if (!response.body) return { text, error: undefined };
  try {
    for await (const part of response.body) text += decoder.decode(part, { stream: true });
    return { text, error: undefined };
  } catch (error) {
    return { text, error };
  }
}

/** The `data:` payloads of a complete or partial SSE body, in order. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((event) => event.length > 0)
    .map((event) => event.replace(/^data: /, ''));
}
