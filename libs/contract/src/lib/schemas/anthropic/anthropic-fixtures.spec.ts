import { z } from 'zod';
import {
  cassetteRequestJson,
  cassetteResponseBody,
  fixturePath,
  listFixtures,
  readCassette,
  readJson,
  readJsonLines,
  readSseMessages,
  type CassetteInteraction,
  type SseMessage,
} from '../../../testing/fixtures';
import { AnthropicCountTokensRequestSchema, AnthropicCountTokensResponseSchema } from './anthropic-count-tokens.schema';
import { ANTHROPIC_ERROR_STATUS, AnthropicErrorResponseSchema } from './anthropic-error.schema';
import { AnthropicMessageSchema } from './anthropic-message.schema';
import { AnthropicMessagesRequestSchema } from './anthropic-messages-request.schema';
import { AnthropicStreamEventSchema } from './anthropic-stream-event.schema';

// Recorded Anthropic traffic (test-fixtures/anthropic and anthropic-inbound, see SOURCES.md).
// The folders are iterated, so a new fixture is covered without touching this file.
const FOLDERS = ['anthropic', 'anthropic-inbound'] as const;
const filesOf = (pattern: RegExp) =>
  FOLDERS.flatMap((folder) => listFixtures(folder).filter((file) => pattern.test(file)).map((file) => [folder, file] as const));

const messageFiles = filesOf(/^message-.*\.json$/);
const jsonlFiles = filesOf(/\.stream\.jsonl$/);
const sseFiles = filesOf(/\.sse$/);
const cassetteFiles = filesOf(/^cassette-.*\.yaml$/);
const requestFiles = filesOf(/-request\.json$/);

/** Parses, and proves nothing was dropped or rewritten: the output deep-equals the input. */
function expectParsesUnchanged<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(value);
  return result.data;
}

/** Every event of one recorded stream parses, opens with message_start and names itself in `event:`. */
function expectEventStream(messages: SseMessage[]): z.infer<typeof AnthropicStreamEventSchema>[] {
  expect(messages.length).toBeGreaterThan(1);
  const events = messages.map(({ event, data }) => {
    const parsed = expectParsesUnchanged(AnthropicStreamEventSchema, JSON.parse(data));
    if (event !== undefined) expect(event).toBe(parsed.type);
    return parsed;
  });
  expect(events[0]?.type).toBe('message_start');
  return events;
}

/** Which schema a recorded request and its 2xx answer belong to, from the URI's path. */
function endpointOf(interaction: CassetteInteraction): 'messages' | 'count_tokens' {
  const path = new URL(interaction.request.uri).pathname;
  if (path === '/v1/messages') return 'messages';
  if (path === '/v1/messages/count_tokens') return 'count_tokens';
  throw new Error(`unexpected endpoint ${path}`);
}

describe('the Anthropic fixture folders', () => {
  it('hold every kind of fixture this suite iterates (guards against a silently empty run)', () => {
    for (const group of [messageFiles, jsonlFiles, sseFiles, cassetteFiles, requestFiles]) {
      expect(group.length).toBeGreaterThan(0);
    }
  });

  it('have no file this suite does not check', () => {
    const checked = [...messageFiles, ...jsonlFiles, ...sseFiles, ...cassetteFiles, ...requestFiles];
    const covered = new Set(checked.map(([folder, file]) => `${folder}/${file}`));
    // Claude Code's Bedrock and Vertex modes (folders of their own): their bodies are the clouds' forms of a Messages
    // request, replayed through the relay's cloud routes by apps/server/test/e2e/claude-code-cloud-modes.spec.ts.
    const CLOUD_MODE_FOLDERS = new Set(['claude-code-bedrock', 'claude-code-vertex']);
    const all = FOLDERS.flatMap((folder) => listFixtures(folder).filter((file) => !CLOUD_MODE_FOLDERS.has(file)).map((file) => `${folder}/${file}`));
    expect(all.filter((file) => !covered.has(file))).toEqual([]);
  });
});

describe('claude-code-request.json (the body Claude Code sends)', () => {
  const body = readJson(fixturePath('anthropic-inbound', 'claude-code-request.json'));

  it('parses with AnthropicMessagesRequestSchema, unchanged: every unknown field survives', () => {
    expectParsesUnchanged(AnthropicMessagesRequestSchema, body);
  });

  it('keeps the fields the relay does not model, where Claude Code put them', () => {
    const request = AnthropicMessagesRequestSchema.parse(body);
    expect(request['context_management']).toEqual({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 31999, display: 'omitted' });
    expect(request.tools?.[0]).toMatchObject({ input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema' } });
    expect(request.system).toEqual(expect.arrayContaining([expect.objectContaining({ cache_control: { type: 'ephemeral' } })]));
  });
});

describe('Anthropic Message bodies parse with AnthropicMessageSchema', () => {
  it.each(messageFiles)('%s/%s', (folder, file) => {
    expectParsesUnchanged(AnthropicMessageSchema, readJson(fixturePath(folder, file)));
  });
});

describe('Anthropic streams parse event by event with AnthropicStreamEventSchema', () => {
  it.each(sseFiles)('%s/%s: every SSE event', (folder, file) => {
    expectEventStream(readSseMessages(fixturePath(folder, file)));
  });

  it.each(jsonlFiles)('%s/%s: every line', (folder, file) => {
    const lines = readJsonLines(fixturePath(folder, file));
    expectEventStream(lines.map((line) => ({ event: undefined, data: JSON.stringify(line) })));
  });
});

describe.each(cassetteFiles)('cassette %s/%s', (folder, file) => {
  const interactions = readCassette(fixturePath(folder, file));
  const numbered = interactions.map((interaction, at) => [at, interaction] as const);

  it('has at least one interaction', () => {
    expect(interactions.length).toBeGreaterThan(0);
  });

  it.each(numbered)('interaction %i: the request parses with the schema of its endpoint, unchanged', (_at, interaction) => {
    const schema = endpointOf(interaction) === 'messages' ? AnthropicMessagesRequestSchema : AnthropicCountTokensRequestSchema;
    expectParsesUnchanged(schema, cassetteRequestJson(interaction));
  });

  it.each(numbered)('interaction %i: the response parses with the schema for its status and endpoint', (_at, interaction) => {
    const body = cassetteResponseBody(interaction);
    const status = interaction.response.status.code;
    if (status >= 400) {
      if (body.kind !== 'json') throw new Error('an error answer is JSON');
      const error = expectParsesUnchanged(AnthropicErrorResponseSchema, body.json);
      // The recorded status is the one the error type is listed with.
      expect(ANTHROPIC_ERROR_STATUS[error.error.type as keyof typeof ANTHROPIC_ERROR_STATUS]).toBe(status);
    } else if (body.kind === 'sse') {
      expectEventStream(body.messages);
    } else if (endpointOf(interaction) === 'count_tokens') {
      expectParsesUnchanged(AnthropicCountTokensResponseSchema, body.json);
    } else {
      expectParsesUnchanged(AnthropicMessageSchema, body.json);
    }
  });
});

describe('specific recorded content survives parsing', () => {
  it('count_tokens takes no max_tokens, which the Messages request requires (count-tokens-tools-thinking)', () => {
    const [count] = readCassette(fixturePath('anthropic-inbound', 'cassette-count-tokens-tools-thinking.yaml'));
    const body = cassetteRequestJson(count!);
    const counted = AnthropicCountTokensRequestSchema.parse(body);
    expect(counted).toMatchObject({ thinking: { type: 'adaptive' }, tool_choice: { type: 'any' } });
    expect(AnthropicMessagesRequestSchema.safeParse(body).error?.issues.map((issue) => issue.path)).toEqual([['max_tokens']]);
  });

  it('a thinking block sent back keeps its signature, and tool_result its is_error (thinking-tool-result-roundtrip)', () => {
    const [, second] = readCassette(fixturePath('anthropic-inbound', 'cassette-thinking-tool-result-roundtrip.yaml'));
    const request = AnthropicMessagesRequestSchema.parse(cassetteRequestJson(second!));
    const blocks = request.messages.flatMap((message) => (typeof message.content === 'string' ? [] : message.content));
    expect(blocks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'thinking', signature: expect.stringMatching(/.+/) }),
        expect.objectContaining({ type: 'tool_result', content: 'Mexico', is_error: false }),
      ]),
    );
  });

  it('a streamed thinking block: thinking_delta, then signature_delta before its stop (stream-thinking-display-tool-chain)', () => {
    const [first] = readCassette(fixturePath('anthropic-inbound', 'cassette-stream-thinking-display-tool-chain.yaml'));
    const body = cassetteResponseBody(first!);
    if (body.kind !== 'sse') throw new Error('a streamed answer');
    const events = expectEventStream(body.messages);
    const deltas = events.flatMap((event) => (event.type === 'content_block_delta' ? [event.delta.type] : []));
    expect(deltas).toContain('thinking_delta');
    expect(deltas.indexOf('signature_delta')).toBeGreaterThan(deltas.lastIndexOf('thinking_delta'));
  });

  it('the message_delta usage of a stream carries output_tokens (stream-text-then-tool-use.sse)', () => {
    const events = expectEventStream(readSseMessages(fixturePath('anthropic', 'stream-text-then-tool-use.sse')));
    const delta = events.find((event) => event.type === 'message_delta');
    expect(delta).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: expect.any(Number) } });
  });
});
