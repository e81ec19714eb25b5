import { GoogleGenAI, type FunctionDeclaration } from '@google/genai';
import type { Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import type { TestRelayOptions } from '../testing/test-relay';
import type { ChannelKind } from './anthropic-e2e';
import { startE2eRelay, type ChannelInput, type E2eRelay } from './e2e-relay';

/** The name every Gemini caller here asks for, whichever channel type serves it. */
export const GEMINI = 'gemini-2.5-pro';

/**
 * The official `@google/genai` SDK on the relay: it builds `{baseUrl}/v1beta/models/{model}:…`
 * and sends the key as `x-goog-api-key`; its retries are off unless asked for.
 */
export function genaiClient(e2e: E2eRelay, apiKey = e2e.token): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: e2e.url } });
}

export interface GeminiE2e extends E2eRelay {
  sim: UpstreamSim;
  channel: Channel;
  kind: ChannelKind;
  genai: GoogleGenAI;
}

/** A relay with one simulator behind one channel of `kind` serving {@link GEMINI} under the kind's model, and a `@google/genai` caller. */
export async function startGeminiRelay(kind: ChannelKind, input: ChannelInput = {}, options: TestRelayOptions = {}): Promise<GeminiE2e> {
  const e2e = await startE2eRelay(options);
  const sim = await e2e.startSim();
  const channel = await e2e.addChannel(kind.baseUrl(sim), {
    type: kind.type,
    models: [GEMINI],
    model_mapping: { [GEMINI]: kind.upstreamModel },
    ...input,
  });
  return { ...e2e, sim, channel, kind, genai: genaiClient(e2e) };
}

/** `POST {relay}/v1beta/models/{target}` with fetch, the key as `x-goog-api-key` unless `headers` say otherwise. */
export function postGemini(e2e: E2eRelay, target: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': e2e.token }, query = ''): Promise<Response> {
  return fetch(`${e2e.url}/v1beta/models/${target}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The weather tools as Gemini declares them (JSON Schema in parametersJsonSchema, as the SDK sends it). */
export const geminiWeatherTools: FunctionDeclaration[] = [
  {
    name: 'get_weather',
    description: 'Current weather in a city',
    parametersJsonSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
    },
  },
  {
    name: 'get_time',
    description: 'Local time in a city',
    parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];

/** The data of each `data:` event of an SSE body. */
export function sseDataOf(text: string): string[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((event) => event.trim() !== '')
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    );
}
