import type { Mode } from './report';

/**
 * Nine words: the simulator answers "You said: <text>", streamed as a role chunk, one chunk per
 * word (11) and a finish chunk — the 13 chunks the benchmark asks for (checked at start-up).
 */
export const shortUserText = 'Please relay this short message through the benchmark now';
export const expectedStreamChunks = 13;

/**
 * A hundred words at 100 ms per token: each slow stream stays open about 10 s — longer than it
 * takes a 2-core machine to get all 2,000 started, so they are all open at once.
 */
export const slowUserText = Array.from({ length: 100 }, (_, index) => `word${index + 1}`).join(' ');
export const slowStreamMsPerToken = 100;

export const model = 'gpt-4o';

interface Message {
  role: 'user' | 'assistant';
  content: string;
}

function body(messages: readonly Message[], stream: boolean): string {
  return JSON.stringify(stream ? { model, stream: true, messages } : { model, messages });
}

/**
 * A conversation of alternating turns of filler text whose JSON is about `targetBytes`, ending
 * with the short user message (so the answer is the same size as in the other modes).
 */
export function buildConversation(targetBytes: number): string {
  const last: Message = { role: 'user', content: shortUserText };
  const sentence = 'The quick brown fox jumps over the lazy dog while the relay forwards every byte. ';
  const messages: Message[] = [];
  let size = body([last], false).length;
  for (let turn = 0; size < targetBytes; turn += 1) {
    const remaining = targetBytes - size;
    const content = sentence.repeat(Math.max(1, Math.min(12, Math.floor(remaining / sentence.length)))).trimEnd();
    const message: Message = { role: turn % 2 === 0 ? 'user' : 'assistant', content };
    messages.push(message);
    size += JSON.stringify(message).length + 1;
  }
  // Turns alternate and the last filler turn must be the assistant's before the final user turn.
  if (messages.at(-1)?.role === 'user') messages.pop();
  return body([...messages, last], false);
}

export interface Workload {
  mode: Mode;
  body: string;
  stream: boolean;
}

export function buildWorkloads(): Record<Mode, Workload> {
  const small = [{ role: 'user' as const, content: shortUserText }];
  return {
    'non-stream': { mode: 'non-stream', body: body(small, false), stream: false },
    stream: { mode: 'stream', body: body(small, true), stream: true },
    '64k': { mode: '64k', body: buildConversation(64 * 1024), stream: false },
  };
}

export function slowStreamBody(): string {
  return body([{ role: 'user', content: `${slowUserText} [sim:latency=${slowStreamMsPerToken}]` }], true);
}

/** Chunks in an SSE body: `data:` events other than `[DONE]`; and whether `[DONE]` ended it. */
export function countStreamChunks(sse: string): { chunks: number; done: boolean } {
  let chunks = 0;
  let done = false;
  for (const event of sse.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('\n');
    if (data === '') continue;
    if (data === '[DONE]') done = true;
    else chunks += 1;
  }
  return { chunks, done };
}
