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
