/**
 * Test-only readers for the recorded endpoint traffic in `test-fixtures/media` (SOURCES.md there
 * says where each file comes from; `session-*.json` are openai-dotnet test-proxy recordings).
 */
import yaml from 'js-yaml';
import type { SseEvent } from '../../hub/provider-adapter';
import type { EndpointAnswer, EndpointUpstreamRequest, MultipartBody } from '../../hub/endpoint-adapter';
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
export function sentJson(request: EndpointUpstreamRequest): Record<string, unknown> {
  if (typeof request.body !== 'string' && !Buffer.isBuffer(request.body)) throw new Error('expected a JSON body');
  return JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
}

/** The multipart body of an upstream call. */
export function sentForm(request: EndpointUpstreamRequest): MultipartBody {
  if (typeof request.body === 'string' || Buffer.isBuffer(request.body)) throw new Error('expected a multipart body');
  return request.body;
}
