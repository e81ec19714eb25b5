import { z } from 'zod';
import {
  cassetteRequestJson,
  cassetteResponseBody,
  fixturePath,
  listFixtures,
  readCassette,
  readJson,
  readJsonLines,
  readSseEvents,
} from '../../testing/fixtures';
import { ChatCompletionChunkSchema } from './chat-completion-chunk.schema';
import { ChatCompletionRequestSchema } from './chat-completion-request.schema';
import { ChatCompletionSchema } from './chat-completion-response.schema';
import { ErrorResponseSchema } from './error.schema';

// Recorded OpenAI traffic (test-fixtures/openai, see SOURCES.md). The directory is
// iterated, so a new fixture is covered without touching this file.
const openAi = (file: string) => fixturePath('openai', file);
const files = listFixtures('openai');
const OTHER_ENDPOINTS = ['completion-text.json', 'embedding.json'];

const completionFiles = files.filter((file) => /^chat-completion-.*\.json$/.test(file));
const errorFiles = files.filter((file) => /^error-.*\.json$/.test(file));
const sseFiles = files.filter((file) => file.endsWith('.sse'));
const jsonlFiles = files.filter((file) => file.endsWith('.stream.jsonl'));
const cassetteFiles = files.filter((file) => /^cassette-.*\.yaml$/.test(file));

/** Parses, and proves nothing was dropped or rewritten: the output deep-equals the input. */
function expectParsesUnchanged(schema: z.ZodTypeAny, value: unknown): any {
  const result = schema.safeParse(value);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(value);
  return result.data;
}

/** Every data event of a stream: `[DONE]` only as the last one; the rest are chunks. */
function expectChunkStream(events: string[]): any[] {
  expect(events.length).toBeGreaterThan(1);
  const doneAt = events.indexOf('[DONE]');
  if (doneAt !== -1) expect(doneAt).toBe(events.length - 1);
  return events
    .filter((data) => data !== '[DONE]')
    .map((data) => expectParsesUnchanged(ChatCompletionChunkSchema, JSON.parse(data)));
}

describe('the OpenAI fixture directory', () => {
  it('holds every kind of fixture this suite iterates (guards against a silently empty run)', () => {
    for (const group of [completionFiles, errorFiles, sseFiles, jsonlFiles, cassetteFiles]) {
      expect(group.length).toBeGreaterThan(0);
    }
    expect(sseFiles).toEqual(expect.arrayContaining(['chat-stream-text.sse', 'chat-stream-tool-call.sse']));
  });

  it('has no file that is neither checked below nor a known other endpoint', () => {
    const covered = new Set([...completionFiles, ...errorFiles, ...sseFiles, ...jsonlFiles, ...cassetteFiles]);
    expect(files.filter((file) => !covered.has(file) && file !== 'SOURCES.md')).toEqual(OTHER_ENDPOINTS);
  });

  it(
    'skips completion-text.json (/v1/completions) and embedding.json (/v1/embeddings): other endpoints, ' +
      'rejected by ChatCompletionSchema',
    () => {
      for (const file of OTHER_ENDPOINTS) {
        expect(ChatCompletionSchema.safeParse(readJson(openAi(file))).success).toBe(false);
      }
    },
  );
});

describe('OpenAI chat completions parse with ChatCompletionSchema', () => {
  it.each(completionFiles)('%s', (file) => {
    expectParsesUnchanged(ChatCompletionSchema, readJson(openAi(file)));
  });

  it('keeps unknown and optional fields of chat-completion-text.json (annotations, refusal, usage details)', () => {
    const completion = ChatCompletionSchema.parse(readJson(openAi('chat-completion-text.json')));
    const message = completion.choices[0]!.message;
    expect(message.annotations).toEqual([]);
    expect(message.refusal).toBeNull();
    expect(completion.usage?.completion_tokens_details).toMatchObject({ reasoning_tokens: 0 });
    expect(completion.service_tier).toBe('default');
  });
});

describe('OpenAI SSE streams parse with ChatCompletionChunkSchema', () => {
  it.each(sseFiles)('%s: every data event but a final [DONE] is a chunk', (file) => {
    expectChunkStream(readSseEvents(openAi(file)));
  });

  it('keeps refusal deltas (chat-stream-refusal.sse)', () => {
    const chunks = expectChunkStream(readSseEvents(openAi('chat-stream-refusal.sse')));
    const refusal = chunks.map((chunk) => chunk.choices[0]?.delta.refusal ?? '').join('');
    expect(refusal.length).toBeGreaterThan(0);
  });

  it('keeps logprobs of every content chunk (chat-stream-logprobs.sse)', () => {
    const chunks = expectChunkStream(readSseEvents(openAi('chat-stream-logprobs.sse')));
    const withContent = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(withContent.length).toBeGreaterThan(0);
    for (const chunk of withContent) expect(chunk.choices[0].logprobs.content[0].token).toEqual(expect.any(String));
  });

  it('keeps tool_calls[].index apart for parallel calls (chat-stream-parallel-tool-calls.sse)', () => {
    const chunks = expectChunkStream(readSseEvents(openAi('chat-stream-parallel-tool-calls.sse')));
    const indexes = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []).map((call: any) => call.index);
    expect(new Set(indexes)).toEqual(new Set([0, 1]));
  });
});

describe('OpenAI JSON-lines chunks parse with ChatCompletionChunkSchema', () => {
  it.each(jsonlFiles)('%s: every line is a chunk', (file) => {
    const lines = readJsonLines(openAi(file));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expectParsesUnchanged(ChatCompletionChunkSchema, line);
  });

  it('keeps the unknown obfuscation field and the usage chunk with choices [] (chat-completion-text.stream.jsonl)', () => {
    const chunks = readJsonLines(openAi('chat-completion-text.stream.jsonl')).map((line) =>
      ChatCompletionChunkSchema.parse(line),
    );
    for (const chunk of chunks) expect(chunk['obfuscation']).toEqual(expect.any(String));
    const usageChunk = chunks.at(-1)!;
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage?.total_tokens).toBe(316);
  });
});

describe('OpenAI error bodies parse with ErrorResponseSchema', () => {
  it.each(errorFiles)('%s', (file) => {
    expectParsesUnchanged(ErrorResponseSchema, readJson(openAi(file)));
  });
});

function describeCassette(folder: string, file: string): void {
  const interactions = readCassette(fixturePath(folder, file));
  const numbered = interactions.map((interaction, at) => [at, interaction] as const);

  it('has at least one interaction', () => {
    expect(interactions.length).toBeGreaterThan(0);
  });

  it.each(numbered)('interaction %i: the request parses with ChatCompletionRequestSchema, unchanged', (_at, interaction) => {
    expect(interaction.request.uri).toMatch(/\/chat\/completions$/);
    expectParsesUnchanged(ChatCompletionRequestSchema, cassetteRequestJson(interaction));
  });

  it.each(numbered)('interaction %i: the response parses with the schema for its status and type', (_at, interaction) => {
    const body = cassetteResponseBody(interaction);
    if (interaction.response.status.code >= 400) {
      expect(body.kind).toBe('json');
      if (body.kind === 'json') expectParsesUnchanged(ErrorResponseSchema, body.json);
    } else if (body.kind === 'sse') {
      expectChunkStream(body.events);
    } else {
      expectParsesUnchanged(ChatCompletionSchema, body.json);
    }
  });
}

describe.each(cassetteFiles)('cassette openai/%s', (file) => describeCassette('openai', file));

// Not OpenAI itself, but what the relay reads from OpenAI-compatible upstreams (ids like "0",
// no finish_reason on the tool-call turn, extra provider fields).
describe.each(listFixtures('openai-compatible').filter((file) => file.endsWith('.yaml')))(
  'OpenAI-compatible cassette %s',
  (file) => describeCassette('openai-compatible', file),
);

describe('specific cassette content survives parsing', () => {
  it('a tool-call answer with content null and no content key in the follow-up request (image-url-after-tool)', () => {
    const [first, second] = readCassette(openAi('cassette-chat-image-url-after-tool.yaml'));
    const answer = cassetteResponseBody(first!) as { kind: 'json'; json: unknown };
    const completion = ChatCompletionSchema.parse(answer.json);
    expect(completion.choices[0]!.message).toMatchObject({ content: null, tool_calls: [{ function: { arguments: '{}' } }] });
    const request = ChatCompletionRequestSchema.parse(cassetteRequestJson(second!));
    expect(request.messages[1]).not.toHaveProperty('content');
    expect(request.messages[3]).toMatchObject({ content: [{ type: 'text' }, { type: 'image_url' }] });
  });

  it('the 400 error keeps param messages[0].role (the §9 param convention)', () => {
    const [interaction] = readCassette(openAi('cassette-error-400-unsupported-value.yaml'));
    const body = cassetteResponseBody(interaction!) as { kind: 'json'; json: unknown };
    expect(ErrorResponseSchema.parse(body.json).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages[0].role',
      code: 'unsupported_value',
    });
  });
});
