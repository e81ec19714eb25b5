import type { FuzzContext } from './fuzz-context';

export interface StillServing {
  health: number;
  chat: number;
  content: string | undefined;
}

/** After a run: `/healthz`, and a plain chat with the fuzz token (the simulator echoes it). */
export async function stillServing(url: string, context: FuzzContext): Promise<StillServing> {
  const health = await fetch(`${url}/healthz`);
  const chat = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${context.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: context.model, messages: [{ role: 'user', content: 'still there?' }] }),
  });
  const answer = (await chat.json().catch(() => ({}))) as { choices?: Array<{ message?: { content?: string } }> };
  return { health: health.status, chat: chat.status, content: answer.choices?.[0]?.message?.content };
}

/** What {@link stillServing} answers from a healthy relay. */
export const SERVING: StillServing = { health: 200, chat: 200, content: 'You said: still there?' };
