/**
 * Small edits to a streamed chunk's JSON text — its top-level `model`, and the `"usage":null`
 * the relay asked for but the caller did not — without serialising the chunk again.
 *
 * Each edit is made on the text only when it is provably the top-level field: the parsed chunk
 * has that value, and the compact key-value text occurs exactly once. Inside a JSON string every
 * quote is escaped, so an unescaped `"model":"…"` can only be a key; occurring once, it is the
 * top-level one. Anything else (spaces after the colon, the same key nested) falls back to
 * editing the parsed object and serialising it, so the result is always right.
 */
export interface ChunkEdits {
  /** The name the caller sent, when it differs from the chunk's `model`. */
  model?: string;
  /** Remove the `usage` field (a `null` one on this path). */
  dropUsage?: boolean;
}

export function occursOnce(text: string, pattern: string): number {
  const first = text.indexOf(pattern);
  return first !== -1 && text.indexOf(pattern, first + 1) === -1 ? first : -1;
}

function replaceModel(text: string, from: string, to: string): string | undefined {
  const pattern = `"model":${JSON.stringify(from)}`;
  const at = occursOnce(text, pattern);
  if (at === -1) return undefined;
  return `${text.slice(0, at)}"model":${JSON.stringify(to)}${text.slice(at + pattern.length)}`;
}

const NULL_USAGE = '"usage":null';

/** Where OpenAI puts it: the last field. One scan then proves it is the only one. */
const TRAILING_NULL_USAGE = `,${NULL_USAGE}}`;

function removeNullUsage(text: string): string | undefined {
  if (text.endsWith(TRAILING_NULL_USAGE)) {
    const at = text.length - TRAILING_NULL_USAGE.length;
    if (text.indexOf(NULL_USAGE) === at + 1) return `${text.slice(0, at)}}`;
  }
  const at = occursOnce(text, NULL_USAGE);
  if (at === -1) return undefined;
  const end = at + NULL_USAGE.length;
  // Take the comma on one side with it: `{…,"usage":null}` or `{"usage":null,…}`.
  if (text[at - 1] === ',') return text.slice(0, at - 1) + text.slice(end);
  if (text[end] === ',') return text.slice(0, at) + text.slice(end + 1);
  if (text[at - 1] === '{' && text[end] === '}') return text.slice(0, at) + text.slice(end);
  return undefined;
}

/** `text` (the chunk as received, parsed into `chunk`) with `edits` applied. */
export function editChunkText(text: string, chunk: Record<string, unknown>, edits: ChunkEdits): string {
  let out: string | undefined = text;
  const model = chunk['model'];
  const renaming = edits.model !== undefined && edits.model !== model;
  if (renaming) out = typeof model === 'string' ? replaceModel(out, model, edits.model as string) : undefined;
  const dropping = edits.dropUsage === true && 'usage' in chunk;
  if (dropping && out !== undefined) out = chunk['usage'] === null ? removeNullUsage(out) : undefined;
  if (out !== undefined) return out;

  if (renaming) chunk['model'] = edits.model;
  if (dropping) delete chunk['usage'];
  return JSON.stringify(chunk);
}
