import { createOpenAiSpecValidator, loadOpenAiSpec, type OpenAiSpecValidator } from '@chat-relay/contract/testing';
import { createParser } from 'eventsource-parser';

/**
 * Test-only: what a Responses caller receives from the relay, checked against the official
 * OpenAI OpenAPI description (test-fixtures/spec) — a Response, an item list, an error, and every
 * stream event against its own member of `ResponseStreamEvent`. `oneOf` is read as `anyOf`, as
 * OpenAI's SDKs read the Responses unions (see libs/contract/src/testing/openai-spec.ts).
 */

interface ResponsesSpec {
  validator: OpenAiSpecValidator;
  /** `response.output_text.delta` → `ResponseTextDeltaEvent`, read from `ResponseStreamEvent`'s members. */
  eventComponents: Map<string, string>;
}

type SchemaNode = { anyOf?: { $ref?: string }[]; properties?: Record<string, { enum?: unknown[] }> };

let loaded: ResponsesSpec | undefined;

function responsesSpec(): ResponsesSpec {
  if (loaded) return loaded;
  const document = loadOpenAiSpec();
  const schemas = document.components.schemas as Record<string, SchemaNode>;
  const eventComponents = new Map<string, string>();
  for (const member of schemas['ResponseStreamEvent']?.anyOf ?? []) {
    const name = member.$ref?.split('/').at(-1);
    const type = name ? schemas[name]?.properties?.['type']?.enum?.[0] : undefined;
    if (name && typeof type === 'string') eventComponents.set(type, name);
  }
  loaded = { validator: createOpenAiSpecValidator(document, { oneOfAsAnyOf: true }), eventComponents };
  return loaded;
}

export interface SpecCheckOptions {
  /**
   * Read a Response as OpenAI itself sends it (every recorded stream does): `usage: null` before
   * the end and `user: null` where the description wants a value, and no
   * `input_tokens_details.cache_write_tokens`, nor `name` in `response.function_call_arguments.done`,
   * which the description now requires (see libs/contract/src/testing/responses-examples.ts).
   * Only for what an upstream sent and the relay passed through; what the relay builds itself is
   * checked as described.
   */
  asOpenAiSends?: boolean;
}

const OPENAI_NULLS = ['usage', 'user'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A Response as the description has it: OpenAI's nulls left out, the cache-write count it omits as 0. */
function asSpecified(response: Record<string, unknown>): Record<string, unknown> {
  const specified = Object.fromEntries(Object.entries(response).filter(([key, field]) => !(field === null && OPENAI_NULLS.includes(key))));
  const usage = specified['usage'];
  if (isRecord(usage) && isRecord(usage['input_tokens_details'])) {
    specified['usage'] = { ...usage, input_tokens_details: { cache_write_tokens: 0, ...usage['input_tokens_details'] } };
  }
  return specified;
}

function asDescribed(value: unknown, options: SpecCheckOptions): unknown {
  if (!options.asOpenAiSends || !isRecord(value)) return value;
  if (value['object'] === 'response') return asSpecified(value);
  if (value['type'] === 'response.function_call_arguments.done' && !('name' in value)) return { ...value, name: '(not sent)' };
  return isRecord(value['response']) ? { ...value, response: asSpecified(value['response']) } : value;
}

/** Errors of `value` against the component `schemaName`; [] when valid. */
export function responsesSpecErrors(schemaName: string, value: unknown, options: SpecCheckOptions = {}): string[] {
  return responsesSpec().validator.errorsFor(schemaName, asDescribed(value, options));
}

/** How long {@link prepareResponsesSpec} may take: reading the 3 MB description and compiling `Response` take seconds. */
export const PREPARE_SPEC_TIMEOUT_MS = 30_000;

/**
 * Reads the description and compiles its `Response` schema now, so that no test pays for it
 * against its own timeout: `beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS)`.
 */
export function prepareResponsesSpec(): void {
  responsesSpecErrors('Response', {});
}

export function expectSpecValid(schemaName: string, value: unknown, options: SpecCheckOptions = {}): void {
  expect({ schemaName, errors: responsesSpecErrors(schemaName, value, options) }).toEqual({ schemaName, errors: [] });
}

/** A stream event is valid against the member of `ResponseStreamEvent` its `type` names (an unknown type is an error). */
export function streamEventSpecErrors(event: Record<string, unknown>, options: SpecCheckOptions = {}): string[] {
  const type = String(event['type']);
  const component = responsesSpec().eventComponents.get(type);
  if (!component) return [`no ResponseStreamEvent member has type ${type}`];
  return responsesSpecErrors(component, event, options).map((error) => `${component}: ${error}`);
}

/** One event of a Responses stream as it went over the wire. */
export interface ResponsesSseEvent {
  /** The SSE `event:` name. */
  event: string | undefined;
  /** The data text, as sent. */
  text: string;
  data: { type: string; sequence_number: number } & Record<string, unknown>;
}

/** The events of a Responses stream (no `[DONE]` expected; one would fail to parse here). */
export function responsesEventsOf(text: string): ResponsesSseEvent[] {
  const events: ResponsesSseEvent[] = [];
  const parser = createParser({
    onEvent: (message) => events.push({ event: message.event, text: message.data, data: JSON.parse(message.data) as ResponsesSseEvent['data'] }),
  });
  parser.feed(text);
  return events;
}

/** Every event valid against its schema, and named (`event:`) by its own `type`, as OpenAI sends them. */
export function expectStreamSpecValid(events: readonly ResponsesSseEvent[], options: SpecCheckOptions = {}): void {
  expect(events.length).toBeGreaterThan(0);
  const invalid = events.flatMap((event) => {
    const errors = streamEventSpecErrors(event.data, options);
    if (event.event !== event.data.type) errors.push(`named '${event.event}', typed '${event.data.type}'`);
    return errors.length > 0 ? [{ sequence_number: event.data.sequence_number, type: event.data.type, errors }] : [];
  });
  expect(invalid).toEqual([]);
}

/** One answer of the relay to the SDK, as bytes: what the SDK parsed, before it parsed it. */
export interface CapturedExchange {
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: Promise<string>;
}

export interface RawCapture {
  /** Give it to the SDK (`client({ fetch })`): every answer is also read, whole, into {@link exchanges}. */
  fetch: typeof fetch;
  exchanges: CapturedExchange[];
}

/** A fetch that keeps a copy of every answer's body, so the SDK's traffic can be checked raw. */
export function rawCapture(): RawCapture {
  const exchanges: CapturedExchange[] = [];
  const capturing: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    exchanges.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text: response.clone().text(),
    });
    return response;
  };
  return { fetch: capturing, exchanges };
}

/** The component an answer of the Responses API is described by, from its route; undefined for a deletion. */
function componentOf(exchange: CapturedExchange): string | undefined {
  if (exchange.status >= 400) return 'ErrorResponse';
  if (exchange.path.endsWith('/input_items')) return 'ResponseItemList';
  if (exchange.method === 'DELETE') return undefined;
  return 'Response';
}

/**
 * Every captured answer valid per the description: streams event by event, JSON bodies by their
 * route's component, a deletion as `{id, object: 'response', deleted: true}`. Returns how many
 * answers were checked.
 */
export async function expectCapturedSpecValid(capture: RawCapture, options: SpecCheckOptions = {}): Promise<number> {
  for (const exchange of capture.exchanges) {
    const text = await exchange.text;
    if (exchange.contentType.startsWith('text/event-stream')) {
      expectStreamSpecValid(responsesEventsOf(text), options);
      continue;
    }
    const body: unknown = JSON.parse(text);
    const component = componentOf(exchange);
    if (component) expectSpecValid(component, body, options);
    else expect(body).toEqual({ id: expect.stringMatching(/^resp_/), object: 'response', deleted: true });
  }
  return capture.exchanges.length;
}
