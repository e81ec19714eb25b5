import type { ChatCompletionRequest } from '@chat-relay/contract';
import { ModelCatalogue, seedCatalogueModels } from '../models';
import { adjustForModel } from './adjust-for-model';
import { renderAdjustments } from './adjustment';
import { upstreamFormatOf } from './upstream-format';

const catalogue = new ModelCatalogue(seedCatalogueModels());
const facts = (model: string) => catalogue.facts(model);
const hello = (model: string, extra: Record<string, unknown> = {}): ChatCompletionRequest =>
  ({ model, messages: [{ role: 'user', content: 'Hello' }], ...extra }) as ChatCompletionRequest;

/** Claude Code's bridged turn: thinking became reasoning_effort high, its max_tokens 32000. */
const claudeCodeTurn = { reasoning_effort: 'high', max_completion_tokens: 32000, temperature: 1 };
/** Gemini CLI's generationConfig through the hub. */
const geminiCliTurn = { temperature: 1, top_p: 0.95, top_k: 64, reasoning_effort: 'high' };

describe('adjustForModel', () => {
  it('gives the request back as it is, with no copy and no array made, when the model takes it (the hot path)', () => {
    const request = hello('gpt-4o', { temperature: 0.2, max_tokens: 1000 });
    const first = adjustForModel(request, facts('gpt-4o'), { format: 'openai' });
    const second = adjustForModel(hello('gpt-4o'), facts('gpt-4o'), { format: 'openai' });
    expect(first.request).toBe(request);
    expect(first.adjustments).toHaveLength(0);
    expect(second.adjustments).toBe(first.adjustments);
  });

  it('defect 1: Claude Code on gpt-4o — reasoning_effort dropped (it does not reason), output clamped to 16384', () => {
    const request = hello('gpt-4o', claudeCodeTurn);
    const { request: sent, adjustments } = adjustForModel(request, facts('gpt-4o'), { format: 'openai' });
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(sent.max_completion_tokens).toBe(16384);
    expect(sent.temperature).toBe(1);
    expect(renderAdjustments(adjustments)).toBe('reasoning_effort dropped; max_completion_tokens 32000->16384');
    expect(request).toMatchObject(claudeCodeTurn); // the caller's request is left alone
  });

  it('defect 1: Claude Code on a reasoning model keeps its effort; an effort the model does not list becomes the nearest it does', () => {
    expect(adjustForModel(hello('gpt-5', claudeCodeTurn), facts('gpt-5'), { format: 'openai' }).adjustments).toEqual([]);
    const minimal = adjustForModel(hello('o3', { reasoning_effort: 'minimal' }), facts('o3'), { format: 'openai' });
    expect(minimal.request.reasoning_effort).toBe('low');
    expect(renderAdjustments(minimal.adjustments)).toBe('reasoning_effort minimal->low');
  });

  it('defect 2: Gemini CLI on an OpenAI model — top_k dropped, and on gpt-4o its thinking too', () => {
    const { request, adjustments } = adjustForModel(hello('gpt-4o', geminiCliTurn), facts('gpt-4o'), { format: 'openai' });
    expect(request).not.toHaveProperty('top_k');
    expect(request).not.toHaveProperty('reasoning_effort');
    expect(request).toMatchObject({ temperature: 1, top_p: 0.95 });
    expect(renderAdjustments(adjustments)).toBe('reasoning_effort dropped; top_k dropped');
  });

  it('OpenAI reasoning models: non-default top_p and temperature, penalties and log probabilities dropped; the default 1 kept; max_tokens renamed', () => {
    const { request, adjustments } = adjustForModel(
      hello('gpt-5', { temperature: 0.2, top_p: 0.95, presence_penalty: 0.5, frequency_penalty: 0, logprobs: true, top_logprobs: 2, max_tokens: 500 }),
      facts('gpt-5'),
      { format: 'openai' },
    );
    expect(request).toEqual(hello('gpt-5', { frequency_penalty: 0, max_completion_tokens: 500 }));
    expect(renderAdjustments(adjustments)).toBe(
      'temperature dropped; top_p dropped; presence_penalty dropped; logprobs dropped; top_logprobs dropped; max_tokens->max_completion_tokens',
    );
    expect(adjustForModel(hello('o3', { temperature: 1, top_p: 1 }), facts('o3'), { format: 'openai' }).adjustments).toEqual([]);
  });

  it('defect 3: Gemini CLI on Claude 4.5 — temperature kept, top_p dropped; top_k sent (Anthropic has it)', () => {
    const { request, adjustments } = adjustForModel(hello('claude-sonnet-4-5', geminiCliTurn), facts('claude-sonnet-4-5'), { format: 'anthropic' });
    expect(request).toMatchObject({ temperature: 1, top_k: 64, reasoning_effort: 'high' });
    expect(request).not.toHaveProperty('top_p');
    expect(adjustments).toEqual([{ kind: 'dropped', field: 'top_p', reason: 'claude-sonnet-4-5 takes temperature or top_p, not both' }]);
    // Opus 4.1 too; Sonnet 4 takes both.
    expect(adjustForModel(hello('claude-opus-4-1', geminiCliTurn), facts('claude-opus-4-1'), { format: 'anthropic' }).request).not.toHaveProperty('top_p');
    expect(adjustForModel(hello('claude-sonnet-4-20250514', geminiCliTurn), facts('claude-sonnet-4-20250514'), { format: 'anthropic' }).adjustments).toEqual([]);
  });

  it('output tokens clamped to the model limit, each field that carries them', () => {
    const { request, adjustments } = adjustForModel(hello('claude-opus-4-1', { max_tokens: 64000, max_completion_tokens: 64000 }), facts('claude-opus-4-1'), {
      format: 'anthropic',
    });
    expect(request).toMatchObject({ max_tokens: 32000, max_completion_tokens: 32000 });
    expect(renderAdjustments(adjustments)).toBe('max_tokens 64000->32000; max_completion_tokens 64000->32000');
  });

  it('Gemini models take top_k, temperature with top_p and thinking: a Gemini CLI turn goes as it is', () => {
    expect(adjustForModel(hello('gemini-2.5-pro', geminiCliTurn), facts('gemini-2.5-pro'), { format: 'gemini' }).adjustments).toEqual([]);
  });

  it('an unknown model has its family rules only: an unknown gpt- takes no top_k; an unknown other model is left alone', () => {
    const unknownGpt = adjustForModel(hello('gpt-9-turbo', { ...geminiCliTurn, max_tokens: 999_999 }), facts('gpt-9-turbo'), { format: 'openai' });
    expect(renderAdjustments(unknownGpt.adjustments)).toBe('top_k dropped');
    const local = hello('qwen3-coder', { ...geminiCliTurn, max_tokens: 999_999 });
    expect(adjustForModel(local, facts('qwen3-coder'), { format: 'openai' }).request).toBe(local);
  });

  it('what the channel refused before goes up front: a field left out, an output bound lowered, max_tokens renamed', () => {
    const { request, adjustments } = adjustForModel(hello('qwen3-coder', { top_k: 5, seed: 3, max_completion_tokens: 9000 }), facts('qwen3-coder'), {
      format: 'openai',
      refused: [{ field: 'top_k' }, { field: 'max_tokens', atMost: 8192 }, { field: 'n' }],
    });
    expect(request).toEqual(hello('qwen3-coder', { seed: 3, max_completion_tokens: 8192 }));
    expect(renderAdjustments(adjustments)).toBe('top_k dropped; max_completion_tokens 9000->8192');
    const renamed = adjustForModel(hello('my-o', { max_tokens: 100 }), facts('my-o'), { format: 'openai', refused: [{ field: 'max_tokens' }] });
    expect(renamed.request).toEqual(hello('my-o', { max_completion_tokens: 100 }));
  });
});

describe('renderAdjustments', () => {
  it('is one short ASCII line, each change once', () => {
    const line = renderAdjustments([
      { kind: 'dropped', field: 'top_k', reason: 'r' },
      { kind: 'dropped', field: 'top_k', reason: 'again' },
      { kind: 'clamped', field: 'max_tokens', reason: 'r', from: 32000, to: 16384 },
      { kind: 'mapped', field: 'reasoning_effort', reason: 'r', from: 'hígh\u2192', to: 'high' },
    ]);
    expect(line).toBe('top_k dropped; max_tokens 32000->16384; reasoning_effort h?gh?->high');
    expect(/^[\x20-\x7e]*$/.test(line)).toBe(true);
  });
});

describe('upstreamFormatOf', () => {
  it('reads the chat dialect of each channel type from its provider module', () => {
    expect(upstreamFormatOf('openai')).toBe('openai');
    expect(upstreamFormatOf('anthropic')).toBe('anthropic');
    expect(upstreamFormatOf('gemini')).toBe('gemini');
  });
});
