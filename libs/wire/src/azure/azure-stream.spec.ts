import { ChatCompletionChunkSchema } from '@chat-relay/contract';
import type { StreamStep } from '../hub/upstream-adapter';
import { azureProvider } from '../providers/azure';
import { cleanAzureAnswer, cleanAzureChunk } from './azure-annotations';

// Azure's stream, in the shapes it sends (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter-annotations,
// https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-streaming): the prompt's
// verdicts alone first, each choice annotated, the asynchronous filter's verdicts in chunks of their own.
const SAFE = { filtered: false, severity: 'safe' };
const VERDICTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const meta = { created: 1730011875, id: 'chatcmpl-AZ1', model: 'gpt-4o-2024-08-06', object: 'chat.completion.chunk', system_fingerprint: 'fp_1' };
const AZURE_STREAM = [
  { choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: { ...VERDICTS, jailbreak: { filtered: false, detected: false } } }] },
  { choices: [{ content_filter_results: {}, delta: { content: '', refusal: null, role: 'assistant' }, finish_reason: null, index: 0, logprobs: null }], ...meta },
  { choices: [{ content_filter_results: VERDICTS, delta: { content: 'Hello' }, finish_reason: null, index: 0, logprobs: null }], ...meta },
  { choices: [{ content_filter_offsets: { check_offset: 0, start_offset: 0, end_offset: 5 }, content_filter_results: VERDICTS, finish_reason: null, index: 0 }], created: 0, id: '', model: '', object: '' },
  { choices: [{ content_filter_results: { ...VERDICTS, violence: { filtered: true, severity: 'medium' } }, delta: {}, finish_reason: 'content_filter', index: 0, logprobs: null }], ...meta },
  { choices: [], ...meta, usage: { completion_tokens: 2, prompt_tokens: 9, total_tokens: 11 } },
].map((chunk) => JSON.stringify(chunk));

const jsonOf = (steps: StreamStep[]): Array<Record<string, unknown>> => steps.flatMap((step) => (step.kind === 'chunk' ? [JSON.parse(step.json) as Record<string, unknown>] : []));

describe('Azure OpenAI chat streams', () => {
  function run(callerWantsUsage: boolean) {
    const transformer = azureProvider.chat?.createStreamTransformer({ publicModel: 'gpt-4o', callerWantsUsage, secrets: [] });
    if (!transformer) throw new Error('no transformer');
    const steps = [...AZURE_STREAM, '[DONE]'].flatMap((data) => transformer.transform({ data }));
    return { transformer, chunks: jsonOf(steps), steps };
  }

  it('reach the caller as OpenAI chunks: the preamble and the verdict-only chunk gone, annotations dropped, the model named', () => {
    const { chunks, steps } = run(true);
    expect(steps.every((step) => step.kind === 'chunk')).toBe(true);
    expect(chunks).toHaveLength(4);
    for (const chunk of chunks) {
      expect(ChatCompletionChunkSchema.safeParse(chunk).success).toBe(true);
      expect(chunk['model']).toBe('gpt-4o');
      expect(JSON.stringify(chunk)).not.toMatch(/filter_results|content_filter_offsets/);
    }
    expect(chunks.map((chunk) => (chunk['choices'] as Array<{ delta?: { content?: string } }>)[0]?.delta?.content)).toEqual(['', 'Hello', undefined, undefined]);
  });

  it('keeps the content_filter finish reason, the usage, and says the stream completed', () => {
    const { chunks, transformer } = run(false);
    expect(chunks.map((chunk) => (chunk['choices'] as Array<{ finish_reason: string | null }>)[0]?.finish_reason ?? null)).toEqual([null, null, 'content_filter']);
    expect(transformer.complete).toBe(true);
    expect(transformer.usage).toEqual({ promptTokens: 9, completionTokens: 2 });
    expect(transformer.deliveredText).toBe('Hello');
  });

  it("name the caller's model on an annotated chunk whose model Azure left empty", () => {
    const chunk = JSON.stringify({ ...meta, model: '', choices: [{ content_filter_results: VERDICTS, delta: { content: 'x' }, finish_reason: null, index: 0 }] });
    const [step] = azureProvider.chat?.createStreamTransformer({ publicModel: 'gpt-4o', callerWantsUsage: false, secrets: [] }).transform({ data: chunk }) ?? [];
    expect(step?.kind === 'chunk' ? JSON.parse(step.json) : step).toEqual({ ...meta, model: 'gpt-4o', choices: [{ delta: { content: 'x' }, finish_reason: null, index: 0 }] });
  });

  it('pass an unannotated chunk byte for byte (only the model renamed)', () => {
    const plain = JSON.stringify({ ...meta, choices: [{ delta: { content: 'x' }, finish_reason: null, index: 0 }] });
    expect(cleanAzureChunk(plain)).toBe(plain);
    const [step] = azureProvider.chat?.createStreamTransformer({ publicModel: 'alias', callerWantsUsage: false, secrets: [] }).transform({ data: plain }) ?? [];
    expect(step).toEqual({ kind: 'chunk', json: plain.replace('"model":"gpt-4o-2024-08-06"', '"model":"alias"') });
  });
});

describe('Azure OpenAI completions streams', () => {
  it('drop the preamble and the choice annotations too', () => {
    const transformer = azureProvider.json?.completions?.createStreamTransformer?.({ publicModel: 'instruct', callerWantsUsage: false, secrets: [] });
    const preamble = JSON.stringify({ choices: [], created: 0, id: '', model: '', object: '', prompt_filter_results: [{ prompt_index: 0, content_filter_results: VERDICTS }] });
    const piece = JSON.stringify({ id: 'cmpl-1', object: 'text_completion', created: 1, model: 'gpt-35-turbo-instruct', choices: [{ text: 'Hi', index: 0, finish_reason: null, logprobs: null, content_filter_results: VERDICTS }] });
    expect(transformer?.transform({ data: preamble })).toEqual([]);
    const [step] = transformer?.transform({ data: piece }) ?? [];
    expect(step?.kind).toBe('chunk');
    expect(step?.kind === 'chunk' ? JSON.parse(step.json).choices[0] : undefined).toEqual({ text: 'Hi', index: 0, finish_reason: null, logprobs: null });
  });
});

describe('Azure OpenAI whole answers', () => {
  const answer = {
    choices: [{ content_filter_results: VERDICTS, finish_reason: 'stop', index: 0, logprobs: null, message: { content: 'Hello!', refusal: null, role: 'assistant' } }],
    created: 1730011875,
    id: 'chatcmpl-AZ2',
    model: 'gpt-4o-2024-08-06',
    object: 'chat.completion',
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: VERDICTS }],
    usage: { completion_tokens: 3, prompt_tokens: 9, total_tokens: 12 },
  };

  it('come back as OpenAI answers: the annotations dropped, the model named, the usage read', () => {
    const converted = azureProvider.chat?.convertResponse(JSON.stringify(answer), 'gpt-4o');
    expect(converted?.ok).toBe(true);
    if (!converted?.ok) return;
    expect(converted.body).not.toHaveProperty('prompt_filter_results');
    expect((converted.body['choices'] as Array<Record<string, unknown>>)[0]).not.toHaveProperty('content_filter_results');
    expect(converted.body['model']).toBe('gpt-4o');
    expect(JSON.parse(converted.text ?? '')).toEqual(converted.body);
    expect(converted.usage).toEqual({ promptTokens: 9, completionTokens: 3 });
  });

  it('keep an answer without annotations as it was sent', () => {
    const plain = JSON.stringify({ ...answer, prompt_filter_results: undefined, choices: [{ finish_reason: 'stop', index: 0, message: { content: 'x', role: 'assistant' } }] });
    expect(cleanAzureAnswer(plain)).toBe(plain);
  });
});
