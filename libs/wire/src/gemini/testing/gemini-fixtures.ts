import { createParser } from 'eventsource-parser';
import yaml from 'js-yaml';
import { readFixture } from '../../testing/fixtures';
import { GeminiStreamTransformer } from '../upstream/gemini-stream-transformer';
import type { StreamStep } from '../../hub/upstream-adapter';

/*
 * Test-only readers for the recorded Gemini answers in test-fixtures/gemini (read at run
 * time; SOURCES.md there says where each comes from).
 */

export interface GeminiInteraction {
  uri: string;
  /** The recorded request body (pydantic-ai's `parsed_body`). */
  requestBody: Record<string, unknown>;
  status: number;
  /** A JSON answer, as recorded. */
  responseJson?: unknown;
  /** A streamed answer: the `data` of each SSE event, read by a real SSE parser. */
  responseEvents?: string[];
}

interface CassetteEntry {
  request: { uri: string; parsed_body: Record<string, unknown> };
  response: { status: { code: number }; parsed_body?: unknown; body?: { string: string } };
}

export function readGeminiCassette(name: string): GeminiInteraction[] {
  const cassette = yaml.load(readFixture(`gemini/${name}`)) as { interactions: CassetteEntry[] };
  return cassette.interactions.map(({ request, response }) => ({
    uri: request.uri,
    requestBody: request.parsed_body,
    status: response.status.code,
    ...(response.parsed_body !== undefined ? { responseJson: response.parsed_body } : {}),
    ...(response.body ? { responseEvents: sseDataOf(response.body.string) } : {}),
  }));
}

/** `*.stream.jsonl`: one event's data per line, SSE framing already stripped. */
export function readGeminiStreamLines(name: string): string[] {
  return readFixture(`gemini/${name}`)
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
}

export function sseDataOf(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(text);
  parser.reset({ consume: true });
  return data;
}

export const TEST_CREATED = 1_700_000_000;

/** The parts of an OpenAI chunk the specs read. */
export interface StreamChunk {
  id: string;
  choices: Array<{
    index: number;
    delta: {
      role?: string;
      content?: string | null;
      tool_calls?: Array<{ index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }>;
    };
    finish_reason: string | null;
  }>;
  usage?: Record<string, unknown>;
}

export interface StreamRun {
  transformer: GeminiStreamTransformer;
  steps: StreamStep[];
  /** Every chunk the caller would receive, parsed (finish() included). */
  chunks: StreamChunk[];
}

/** Feeds events through a fresh transformer, then ends the stream. */
export function runGeminiStream(events: readonly string[], callerWantsUsage: boolean, secrets: string[] = []): StreamRun {
  const transformer = new GeminiStreamTransformer({
    publicModel: 'my-gemini',
    callerWantsUsage,
    secrets,
    created: TEST_CREATED,
  });
  const steps = events.flatMap((data) => transformer.transform({ data }));
  steps.push(...transformer.finish());
  const chunks = steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as StreamChunk] : []));
  return { transformer, steps, chunks };
}
