import { RerankResponseSchema } from '@chat-relay/contract';
import { crc32, embeddingFromBase64, type UpstreamSim, type UpstreamSimOptions } from '@chat-relay/upstream-sim';
import { createParser } from 'eventsource-parser';
import type OpenAI from 'openai';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { specErrors } from './openai-spec';
import { usageRowsFor } from './usage-rows-for';

/**
 * Test-only: the relay's endpoints beside chat driven by real client libraries. Every answer the
 * relay sends them is kept raw (before the library parses it), so each can be checked against
 * OpenAI's description and found again in the usage log by its `x-request-id`.
 */

/** One answer of the relay as it went over the wire. */
export interface EndpointExchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  requestId: string | null;
  /** The whole body, read from a clone so the library still reads its own copy. */
  text: Promise<string>;
}

export interface EndpointsE2e extends E2eRelay {
  sim: UpstreamSim;
  /** Everything the relay answered to {@link EndpointsE2e.capture}'s fetch since the last {@link EndpointsE2e.forget}. */
  exchanges: EndpointExchange[];
  /** A fetch that records into {@link EndpointsE2e.exchanges}; give it to any library. */
  capture: typeof fetch;
  /** The official SDK on the relay, its traffic captured. */
  sdk(): OpenAI;
  /** Empties the exchanges and the simulator's records (and its image store). */
  forget(): void;
}

/** A relay and one simulator (no channel yet: each spec adds the ones it routes to). */
export async function startEndpointsRelay(simOptions: UpstreamSimOptions = {}): Promise<EndpointsE2e> {
  const e2e = await startE2eRelay();
  const sim = await e2e.startSim(simOptions);
  const exchanges: EndpointExchange[] = [];
  const capture: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    // Only the relay's answers: the SDK also fetches a `data:` URL to probe its FormData support.
    if (url.origin !== e2e.url) return response;
    exchanges.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      requestId: response.headers.get('x-request-id'),
      text: response.clone().text(),
    });
    return response;
  };
  return {
    ...e2e,
    sim,
    exchanges,
    capture,
    sdk: () => e2e.client({ fetch: capture }),
    forget: () => {
      exchanges.length = 0;
      sim.reset();
    },
  };
}

/** The usage rows of every captured exchange, in their order (undefined where none was written). */
export function usageRowsOfExchanges(e2e: EndpointsE2e, exchanges = e2e.exchanges): Promise<Array<StoredUsageLogEntry | undefined>> {
  return usageRowsFor(
    e2e,
    exchanges.map((exchange) => exchange.requestId),
  );
}

/** What a usage row says about one call, for `toEqual` against what the call should have written. */
export const rowSummary = (row: StoredUsageLogEntry | undefined) =>
  row && { endpoint: row.endpoint, requestedModel: row.requestedModel, status: row.status, units: row.units, stream: row.stream };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An embeddings answer as the description has it: OpenAI describes `embedding` as numbers only,
 * so a base64 vector is checked as the float32 numbers it encodes (what the SDKs decode it to).
 */
function withDecodedEmbeddings(body: unknown): unknown {
  if (!isRecord(body) || !Array.isArray(body['data'])) return body;
  const data = body['data'].map((item: unknown) =>
    isRecord(item) && typeof item['embedding'] === 'string' ? { ...item, embedding: embeddingFromBase64(item['embedding']) } : item,
  );
  return { ...body, data };
}

/**
 * A completion chunk as the description has it. The description says streamed and whole
 * completions share one shape, yet requires a `finish_reason` OpenAI's own chunks send as null
 * until the last (read as `stop`), and has no null `usage`, which every chunk but the last
 * carries when the caller asked for usage (as `ChatCompletionStreamOptions` describes it: left
 * out). Every other field is checked as sent.
 */
function asCompletionChunk(chunk: unknown): unknown {
  if (!isRecord(chunk) || !Array.isArray(chunk['choices'])) return chunk;
  const choices = chunk['choices'].map((choice: unknown) =>
    isRecord(choice) && choice['finish_reason'] === null ? { ...choice, finish_reason: 'stop' } : choice,
  );
  const { usage, ...rest } = chunk;
  return { ...rest, ...(usage === null ? {} : { usage }), choices };
}

const isVerboseTranscript = (body: unknown): boolean => isRecord(body) && ('segments' in body || 'words' in body || 'duration' in body);

/** The OpenAI component a JSON answer of `path` is described by; undefined: none describes it. */
function componentOf(path: string, status: number, body: unknown): string | undefined {
  if (status >= 400) return 'ErrorResponse';
  if (path.endsWith('/embeddings')) return 'CreateEmbeddingResponse';
  if (path.endsWith('/completions')) return 'CreateCompletionResponse';
  if (path.endsWith('/moderations')) return 'CreateModerationResponse';
  if (path.includes('/images/')) return 'ImagesResponse';
  if (path.endsWith('/audio/transcriptions')) return isVerboseTranscript(body) ? 'CreateTranscriptionResponseVerboseJson' : 'CreateTranscriptionResponseJson';
  if (path.endsWith('/audio/translations')) return isVerboseTranscript(body) ? 'CreateTranslationResponseVerboseJson' : 'CreateTranslationResponseJson';
  return undefined;
}

/** One checked answer: what it was checked against, and the errors found ([] when valid). */
export interface CheckedAnswer {
  path: string;
  checkedAs: string;
  errors: string[];
}

function checkJson(path: string, status: number, body: unknown): CheckedAnswer {
  if (status < 400 && path.endsWith('/rerank')) {
    // OpenAI has no rerank route: the relay's contract describes its answer.
    const parsed = RerankResponseSchema.safeParse(body);
    return { path, checkedAs: 'RerankResponseSchema', errors: parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`) };
  }
  const component = componentOf(path, status, body);
  if (!component) return { path, checkedAs: 'nothing', errors: [`no component describes ${path}`] };
  const value = component === 'CreateEmbeddingResponse' ? withDecodedEmbeddings(body) : body;
  return { path, checkedAs: component, errors: specErrors(component, value) };
}

/** The data of each event of an SSE body, `[DONE]` included as the string. */
export function sseData(text: string): string[] {
  const data: string[] = [];
  createParser({ onEvent: (message) => data.push(message.data) }).feed(text);
  return data;
}

/**
 * Every captured answer checked: JSON bodies against their route's component, each chunk of a
 * stream (which must end with `[DONE]`) against the completion's, text and audio answers
 * skipped (the specs compare them to what the simulator makes). Returns what was checked, so a
 * test can also say how many answers of which kind it expected.
 */
export async function checkAnswers(exchanges: readonly EndpointExchange[]): Promise<CheckedAnswer[]> {
  const checked: CheckedAnswer[] = [];
  for (const exchange of exchanges) {
    const text = await exchange.text;
    if (exchange.contentType.startsWith('text/event-stream')) {
      const data = sseData(text);
      const done = data.at(-1) === '[DONE]';
      checked.push({ path: exchange.path, checkedAs: '[DONE] last', errors: done ? [] : ['the stream did not end with [DONE]'] });
      for (const chunk of data.slice(0, done ? -1 : undefined)) {
        const { errors } = checkJson(exchange.path, exchange.status, asCompletionChunk(JSON.parse(chunk)));
        checked.push({ path: exchange.path, checkedAs: 'CreateCompletionResponse (chunk)', errors });
      }
    } else if (exchange.contentType.startsWith('application/json')) {
      checked.push(checkJson(exchange.path, exchange.status, JSON.parse(text)));
    }
  }
  return checked;
}

/** Every captured answer valid; returns the kinds checked, in order (one per JSON answer, one per chunk). */
export async function expectAnswersValid(exchanges: readonly EndpointExchange[]): Promise<string[]> {
  const checked = await checkAnswers(exchanges);
  expect(checked.filter((answer) => answer.errors.length > 0)).toEqual([]);
  return checked.map((answer) => answer.checkedAs);
}

/** The first call of the OpenAI description compiles it (seconds): `beforeAll(prepareSpec, PREPARE_SPEC_MS)`. */
export const prepareSpec = (): void => void specErrors('ErrorResponse', {});
export const PREPARE_SPEC_MS = 30_000;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its IHDR, after checking every chunk's CRC up to IEND; undefined when the bytes are no whole PNG. */
export function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  let size: { width: number; height: number } | undefined;
  for (let offset = 8; offset + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    if (offset + 12 + length > bytes.length || crc32(typeAndData) !== bytes.readUInt32BE(offset + 8 + length)) return undefined;
    const type = typeAndData.toString('ascii', 0, 4);
    if (type === 'IHDR') size = { width: typeAndData.readUInt32BE(4), height: typeAndData.readUInt32BE(8) };
    if (type === 'IEND') return offset + 12 + length === bytes.length ? size : undefined;
    offset += 12 + length;
  }
  return undefined;
}
