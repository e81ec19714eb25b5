import type { Readable } from 'node:stream';

/** What axios hands back for `responseType: 'stream'`: a Node stream, or a web stream with the fetch adapter (browsers). */
export type StreamBody = Readable | ReadableStream<Uint8Array>;

export const isWebStream = (body: StreamBody): body is ReadableStream<Uint8Array> =>
  typeof (body as ReadableStream<Uint8Array>).getReader === 'function';

/** The body's chunks; a web stream is read through its reader (not every browser iterates one). */
export async function* chunksOf(body: StreamBody): AsyncGenerator<Uint8Array | string, void, undefined> {
  if (!isWebStream(body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Leaving early (break, error) cancels the request's body rather than leaving it half-read.
    await reader.cancel().catch(() => undefined);
  }
}

/** An error answer is a small JSON document; more than this is not worth reading. */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** The body of an error answer that came as a stream: its JSON, or its text when it is not JSON. */
export async function readErrorBody(body: AsyncIterable<Uint8Array | string>): Promise<unknown> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const bytes of body) {
    text += typeof bytes === 'string' ? bytes : decoder.decode(bytes, { stream: true });
    size += bytes.length;
    if (size > MAX_ERROR_BODY_BYTES) break;
  }
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
