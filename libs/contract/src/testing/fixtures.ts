/**
 * Test-only access to the recorded fixtures in the repository's `test-fixtures/` (SOURCES.md
 * there gives each file's origin, licence and sha256). The one place that knows where they live;
 * read at run time, never imported.
 *
 *   readSseEvents(fixturePath('openai', 'chat-stream-text.sse'))   → ['{"id":…}', …, '[DONE]']
 *   readSseMessages(fixturePath('anthropic', 'stream-….sse'))       → [{ event: 'message_start', data: '{…}' }, …]
 *   readCassette(fixturePath('openai', 'cassette-chat-…yaml'))      → VCR interactions
 *
 * Not exported from the package: it pulls in js-yaml and reads the file system.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createParser } from 'eventsource-parser';
import yaml from 'js-yaml';

/** libs/contract/src/testing → repository root → `test-fixtures/`. */
const fixturesRoot = resolve(__dirname, '../../../..', 'test-fixtures');

export function fixturePath(...segments: string[]): string {
  return join(fixturesRoot, ...segments);
}

/** File names (not paths) in a fixture folder, sorted, e.g. `listFixtures('openai')`. */
export function listFixtures(folder: string): string[] {
  return readdirSync(fixturePath(folder)).sort();
}

export function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** `*.stream.jsonl`: one JSON value per non-empty line. */
export function readJsonLines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** One SSE event: its `event:` name (Anthropic sends one; OpenAI does not) and its `data`. */
export interface SseMessage {
  event: string | undefined;
  data: string;
}

/** Every event in raw SSE text, in order (`[DONE]` included), by a real SSE parser. */
export function parseSseMessages(text: string): SseMessage[] {
  const messages: SseMessage[] = [];
  const parser = createParser({ onEvent: ({ event, data }) => messages.push({ event, data }) });
  parser.feed(text);
  // Flush an event whose blank-line terminator the recording lost.
  parser.reset({ consume: true });
  return messages;
}

/** The `data` of every event in raw SSE text, in order (`[DONE]` included). */
export function parseSseData(text: string): string[] {
  return parseSseMessages(text).map((message) => message.data);
}

export function readSseMessages(file: string): SseMessage[] {
  return parseSseMessages(readFileSync(file, 'utf8'));
}

export function readSseEvents(file: string): string[] {
  return parseSseData(readFileSync(file, 'utf8'));
}

type CassetteHeaders = Record<string, string[] | string>;
type CassetteBody = string | Uint8Array | { string?: string | Uint8Array | null } | null | undefined;

/** One VCR.py interaction, as pytest-recording / pydantic-ai store it. */
export interface CassetteInteraction {
  request: {
    method: string;
    uri: string;
    headers?: CassetteHeaders;
    /** Raw body (a JSON string); absent when `parsed_body` is used. */
    body?: CassetteBody;
    /** pydantic-ai: the JSON body parsed as YAML. */
    parsed_body?: unknown;
  };
  response: {
    status: { code: number; message?: string };
    headers?: CassetteHeaders;
    /** `body.string` holds the raw body: JSON, SSE text, or `!!binary` (gzip) bytes. */
    body?: CassetteBody;
    parsed_body?: unknown;
  };
}

export function readCassette(file: string): CassetteInteraction[] {
  const cassette = yaml.load(readFileSync(file, 'utf8')) as { interactions?: CassetteInteraction[] };
  if (!Array.isArray(cassette?.interactions)) throw new Error(`${file}: no interactions`);
  return cassette.interactions;
}

export function headerOf(headers: CassetteHeaders | undefined, name: string): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function rawText(body: CassetteBody): string | undefined {
  const raw = body !== null && typeof body === 'object' && !(body instanceof Uint8Array) ? body.string : body;
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'string') return raw;
  const bytes = Buffer.from(raw);
  const isGzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return (isGzip ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The request's JSON body, from `parsed_body` or the raw `body`. */
export function cassetteRequestJson(interaction: CassetteInteraction): unknown {
  const { parsed_body: parsed, body } = interaction.request;
  if (parsed !== undefined) return parsed;
  const text = rawText(body);
  return text === undefined ? undefined : JSON.parse(text);
}

export type CassetteResponseBody =
  | { kind: 'json'; json: unknown }
  | { kind: 'sse'; events: string[]; messages: SseMessage[] };

/** The response body: parsed JSON, or the `data` of each SSE event for `text/event-stream`. */
export function cassetteResponseBody(interaction: CassetteInteraction): CassetteResponseBody {
  const { parsed_body: parsed, body, headers } = interaction.response;
  if (parsed !== undefined) return { kind: 'json', json: parsed };
  const text = rawText(body) ?? '';
  const isSse =
    headerOf(headers, 'content-type')?.startsWith('text/event-stream') || /^(data|event):/.test(text.trimStart());
  if (!isSse) return { kind: 'json', json: JSON.parse(text) };
  const messages = parseSseMessages(text);
  return { kind: 'sse', events: messages.map((message) => message.data), messages };
}
