import yaml from 'js-yaml';
import { gunzipSync } from 'node:zlib';
import { readFixture } from '../testing/fixtures';

/**
 * Test-only: the recorded provider traffic in `test-fixtures/` (SOURCES.md there says where
 * each file is from) as a fake upstream serves it — stream recordings as SSE text, cassettes
 * as their interactions' request and response bodies.
 */

type CassetteBody = string | Uint8Array | { string?: string | Uint8Array | null } | null | undefined;

interface CassetteInteraction {
  request: { uri: string; body?: CassetteBody; parsed_body?: unknown };
  response: { status: { code: number }; body?: CassetteBody; parsed_body?: unknown };
}

/** One recorded call: what the recorded client sent, and the upstream's status and body text. */
export interface RecordedExchange {
  request: Record<string, unknown> | undefined;
  status: number;
  body: string;
}

/** A body as text: `!!binary` bodies are gzip (decoded by js-yaml from base64, unzipped here). */
function bodyText(body: CassetteBody): string | undefined {
  const raw = body !== null && typeof body === 'object' && !(body instanceof Uint8Array) ? body.string : body;
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'string') return raw;
  const bytes = Buffer.from(raw);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Every interaction of a cassette, in order. */
export function readCassette(relativePath: string): RecordedExchange[] {
  const cassette = yaml.load(readFixture(relativePath)) as { interactions: CassetteInteraction[] };
  return cassette.interactions.map(({ request, response }) => {
    const requestText = bodyText(request.body);
    return {
      request: (request.parsed_body ?? (requestText ? JSON.parse(requestText) : undefined)) as Record<string, unknown> | undefined,
      status: response.status.code,
      body: response.parsed_body !== undefined ? JSON.stringify(response.parsed_body) : (bodyText(response.body) ?? ''),
    };
  });
}

/**
 * A stream recording as the SSE text the provider sent: `*.sse` as it is; `*.stream.jsonl`
 * (framing stripped, one data payload a line) framed again — Anthropic's events named by their
 * `type`, OpenAI's chunks as bare `data:` lines ending with `[DONE]`.
 */
export function readStreamRecording(relativePath: string): string {
  const text = readFixture(relativePath);
  if (relativePath.endsWith('.sse')) return text;
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const anthropic = lines.every((line) => typeof (JSON.parse(line) as { type?: unknown }).type === 'string');
  if (anthropic) return lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join('');
  return [...lines.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'].join('');
}
