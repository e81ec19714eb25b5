// Test-only: checks the simulator's Responses objects and stream events against the official
// OpenAI OpenAPI description, so the simulator cannot drift from OpenAI unnoticed.
import { createOpenAiSpecValidator, loadOpenAiSpec, type OpenAiSpecValidator } from '@chat-relay/contract/testing';
import { parseSse } from '../../sim-test-client';

interface SpecChecker {
  validator: OpenAiSpecValidator;
  /** `response.output_text.delta` → `ResponseTextDeltaEvent`, read from `ResponseStreamEvent`'s members. */
  eventSchemas: Map<string, string>;
}

let checker: SpecChecker | undefined;

function loadChecker(): SpecChecker {
  const spec = loadOpenAiSpec();
  const schemas = spec.components.schemas as Record<string, { anyOf?: { $ref?: string }[]; properties?: Record<string, { enum?: unknown[] }> }>;
  const eventSchemas = new Map<string, string>();
  for (const member of schemas['ResponseStreamEvent']?.anyOf ?? []) {
    const name = member.$ref?.split('/').at(-1);
    const type = name ? schemas[name]?.properties?.['type']?.enum?.[0] : undefined;
    if (name && typeof type === 'string') eventSchemas.set(type, name);
  }
  return { validator: createOpenAiSpecValidator(spec), eventSchemas };
}

function specChecker(): SpecChecker {
  checker ??= loadChecker();
  return checker;
}

/**
 * Parses the 3 MB description now: call it from `beforeAll` (which gets its own timeout) so the
 * first test does not pay for it inside its 5 s on a loaded machine.
 */
export function warmSpecChecker(): void {
  specChecker();
}

/**
 * Response fields the API sends as `null` where the OpenAPI description wants a value — seen in
 * every recorded Responses stream (test-fixtures/openai-responses in the shared recordings):
 * `usage: null` until the response ends, `user: null` when none was sent. The simulator sends
 * them as OpenAI does; only these, and only when null, are left out of the check.
 */
const nullsOpenAiSends = ['usage', 'user'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutRecordedNulls(response: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(response).filter(([key, field]) => !(field === null && nullsOpenAiSends.includes(key))));
}

/** The value with the recorded nulls of its Response (itself, or an event's `response`) left out. */
function asSpecDescribes(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if (value['object'] === 'response') return withoutRecordedNulls(value);
  const response = value['response'];
  return isRecord(response) ? { ...value, response: withoutRecordedNulls(response) } : value;
}

/** Asserts `value` is valid against the component schema `schemaName` of the OpenAI spec. */
export function expectSpecValid(schemaName: string, value: unknown): void {
  const errors = specChecker().validator.errorsFor(schemaName, asSpecDescribes(value));
  expect({ schemaName, errors }).toEqual({ schemaName, errors: [] });
}

export interface ResponseEvent {
  /** The SSE `event:` name. */
  name: string | undefined;
  data: { type: string; sequence_number: number } & Record<string, unknown>;
}

/** The events of a Responses stream, each checked against its own schema of the OpenAI spec. */
export function specValidEvents(text: string): ResponseEvent[] {
  const { eventSchemas } = specChecker();
  return parseSse(text).map((message) => {
    const data = JSON.parse(message.data) as ResponseEvent['data'];
    expect(message.event).toBe(data.type);
    const schemaName = eventSchemas.get(data.type);
    expect({ type: data.type, known: schemaName !== undefined }).toEqual({ type: data.type, known: true });
    if (schemaName) expectSpecValid(schemaName, data);
    return { name: message.event, data };
  });
}
