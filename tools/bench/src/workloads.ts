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

/** The embeddings mode: a retrieval step indexing 16 chunks of a document, each ~200 characters. */
export const embeddingModel = 'text-embedding-3-small';
export const embeddingInputCount = 16;
export const embeddingInputChars = 200;

/** Text the embeddings inputs are cut from: prose, so the simulator hashes words as in real chunks. */
const ragCorpus =
  'The relay keeps one pool of upstream connections per channel and reuses them across callers. ' +
  'Each request is checked against the token policy, its model allow-list and address allow-list, ' +
  'then priced before it leaves, so a caller over quota is refused without an upstream call. ' +
  'Streams are forwarded chunk by chunk and charged for what was delivered when a caller goes away. ' +
  'Channels that fail open a circuit for a while, and the router picks another channel for the model.';

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

/**
 * `count` distinct passages of at most `chars` characters, cut at word boundaries from the corpus,
 * each starting a few words further on (wrapping round), as a chunker's overlapping windows do.
 */
export function buildEmbeddingInputs(count: number, chars: number): string[] {
  const words = ragCorpus.split(' ');
  return Array.from({ length: count }, (_, passage) => {
    let text = '';
    for (let offset = 0; ; offset += 1) {
      const word = words[(passage * 5 + offset) % words.length] ?? '';
      const next = text === '' ? word : `${text} ${word}`;
      if (next.length > chars) return text;
      text = next;
    }
  });
}

/** Which path of a target a workload is sent to. */
export type Endpoint = 'chat' | 'embeddings';

export interface Workload {
  mode: Mode;
  endpoint: Endpoint;
  body: string;
  stream: boolean;
}

export function buildWorkloads(): Record<Mode, Workload> {
  const small = [{ role: 'user' as const, content: shortUserText }];
  return {
    'non-stream': { mode: 'non-stream', endpoint: 'chat', body: body(small, false), stream: false },
    stream: { mode: 'stream', endpoint: 'chat', body: body(small, true), stream: true },
    '64k': { mode: '64k', endpoint: 'chat', body: buildConversation(64 * 1024), stream: false },
    embeddings: {
      mode: 'embeddings',
      endpoint: 'embeddings',
      body: JSON.stringify({
        model: embeddingModel,
        input: buildEmbeddingInputs(embeddingInputCount, embeddingInputChars),
        encoding_format: 'float',
      }),
      stream: false,
    },
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
