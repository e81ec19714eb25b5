/**
 * Test-only readers for the recorded endpoint traffic in `test-fixtures/media` (SOURCES.md there
 * says where each file comes from; `session-*.json` are openai-dotnet test-proxy recordings).
 */
import yaml from 'js-yaml';
import OpenAI from 'openai';
import type { MultipartBody, SseEvent, UploadedFile, UpstreamRequest } from '../../hub/upstream-adapter';
import type { EndpointAnswer, MultipartRequest } from '../../hub/endpoint-adapter';
import { readFixture } from '../../testing/fixtures';

export { readFixture };

export interface SessionEntry {
  RequestUri: string;
  RequestMethod: string;
  RequestHeaders: Record<string, string>;
  /** JSON bodies parsed; multipart bodies as their raw lines. */
  RequestBody: unknown;
  StatusCode: number;
  ResponseHeaders: Record<string, string | string[]>;
  ResponseBody: unknown;
}

/** The recorded exchanges of `media/<name>`, in order. */
export function readSession(name: string): SessionEntry[] {
  return (JSON.parse(readFixture(`media/${name}`)) as { Entries: SessionEntry[] }).Entries;
}

/** `media/<name>.stream.jsonl`: one event's data a line (SSE framing stripped by the maintainers). */
export function readStreamLines(name: string): SseEvent[] {
  return readFixture(`media/${name}`)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((data) => ({ data }));
}

interface CassetteExchange {
  request: { uri: string; parsed_body: Record<string, unknown> };
  response: { status: { code: number }; parsed_body: Record<string, unknown> };
}

/** The first exchange of a pydantic-ai cassette in `media/` (parsed bodies). */
export function readCassetteExchange(name: string): CassetteExchange {
  const cassette = yaml.load(readFixture(`media/${name}`)) as { interactions: CassetteExchange[] };
  const [first] = cassette.interactions;
  if (!first) throw new Error(`${name} holds no interaction`);
  return first;
}

/** Narrows an answer to a successful JSON one (a failing test shows what came instead). */
export function jsonAnswer(answer: EndpointAnswer): Extract<EndpointAnswer, { kind: 'json' }> {
  if (!answer.ok || answer.kind !== 'json') throw new Error(`expected a JSON answer, got ${JSON.stringify(answer)}`);
  return answer;
}

/** The JSON an upstream call sends. */
export function sentJson(request: UpstreamRequest): Record<string, unknown> {
  if (typeof request.body !== 'string' && !Buffer.isBuffer(request.body)) throw new Error('expected a JSON body');
  return JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
}

/** The multipart body of an upstream call. */
export function sentForm(request: UpstreamRequest): MultipartBody {
  if (typeof request.body === 'string' || Buffer.isBuffer(request.body)) throw new Error('expected a multipart body');
  return request.body;
}

/**
 * The vectors the OpenAI SDK reads from an embeddings answer, served to it as the upstream: the
 * SDK asks for base64 by default and decodes it itself (little-endian float32).
 */
export async function embeddingsAsTheSdkReadsThem(answer: unknown): Promise<number[][]> {
  const serve = async (): Promise<Response> => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: serve });
  const list = await client.embeddings.create({ model: 'any-model', input: 'ignored' });
  return list.data.map((item) => item.embedding);
}

/**
 * A recorded multipart body (its raw lines) as the server parses it: the text fields in order,
 * and each file part with its field and file name (its bytes stay in the recording).
 */
export function multipartRequestOf(lines: readonly string[]): MultipartRequest {
  const request: { fields: Array<readonly [string, string]>; files: UploadedFile[] } = { fields: [], files: [] };
  lines.forEach((line, index) => {
    const part = /^Content-Disposition: form-data; name=([^;\r\n]+)(?:; filename="([^"]*)")?/.exec(line);
    if (!part?.[1]) return;
    if (part[2] !== undefined) {
      request.files.push({ field: part[1], filename: part[2], contentType: 'application/octet-stream', size: 0, ref: `recorded/${index}` });
    } else {
      request.fields.push([part[1], lines[index + 2] ?? '']);
    }
  });
  return request;
}
