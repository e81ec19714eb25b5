import { lost } from '../../testing/lost';
// Issue 29 item 3: `reasoning_effort` on an anthropic channel was a 400 ("extended thinking is not
// offered through Anthropic channels"), and thinking that came back was left out of the answer.
import type { ChatCompletionChunk } from '@chat-relay/contract';
import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import { cassetteRequestJson, cassetteResponseText, readCassette, sseEventsOf } from '../testing/anthropic-fixtures';
import { conversionErrorFor, convertForTest as convert, userMessage as user } from '../testing/convert-for-test';
import { runAnthropicStream } from '../testing/run-anthropic-stream';
import { convertAnthropicResponse } from './convert-anthropic-response';
import type { ThinkingFacts } from './convert-reasoning-effort-to-thinking';

// The catalogue's facts (libs/wire/src/models/models-dev/api-subset.json).
const sonnet45: ThinkingFacts = { reasoningOptions: [{ type: 'budget_tokens', min: 1024 }], maxOutputTokens: 64000 };
const opus41: ThinkingFacts = { reasoningOptions: [{ type: 'budget_tokens', min: 1024 }], maxOutputTokens: 32000 };
const opus47: ThinkingFacts = {
  reasoningOptions: [{ type: 'effort', values: ['low', 'medium', 'high', 'xhigh', 'max'] }],
  maxOutputTokens: 128000,
};
const opus46: ThinkingFacts = {
  reasoningOptions: [{ type: 'effort', values: ['low', 'medium', 'high', 'max'] }, { type: 'budget_tokens', min: 1024 }],
  maxOutputTokens: 128000,
};

const hello = { messages: [user('Hello')] };

describe('reasoning_effort reaches Claude as thinking', () => {
  it.each([
    ['minimal', 1024],
    ['low', 1024],
    ['medium', 8192],
    ['high', 24576],
    ['xhigh', 32768],
  ])('%s → thinking enabled with a budget of %i on a model that thinks by budget', (effort, budget) => {
    const { request } = convert({ ...hello, reasoning_effort: effort }, 'claude-sonnet-4-5', sonnet45);
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    expect(request.max_tokens).toBe(64000);
    expect(request.output_config).toBeUndefined();
  });

  it('none sends no thinking (Anthropic thinks only when asked)', () => {
    expect(convert({ ...hello, reasoning_effort: 'none' }, 'claude-sonnet-4-5', sonnet45).request.thinking).toBeUndefined();
  });

  it('is no longer a 400 without catalogue facts: a budget, as for the models that take one', () => {
    expect(convert({ ...hello, reasoning_effort: 'high' }).request.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
  });

  it('raises max_tokens above the budget, keeping the room the caller gave the answer', () => {
    const { request, warnings } = convert({ ...hello, reasoning_effort: 'high', max_tokens: 1000 }, 'claude-sonnet-4-5', sonnet45);
    expect(request).toMatchObject({ max_tokens: 25576, thinking: { type: 'enabled', budget_tokens: 24576 } });
    expect(warnings).toContainEqual(lost('max_tokens', 'mapped', { from: 1000, to: 25576 }));
  });

  it('stays within the model output limit, lowering the budget under it', () => {
    const { request } = convert({ ...hello, reasoning_effort: 'xhigh', max_tokens: 32000 }, 'claude-opus-4-1', opus41);
    expect(request).toMatchObject({ max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 31999 } });
  });

  it('sends adaptive thinking with output_config.effort to a model that lists efforts only (Opus 4.7 refuses a budget)', () => {
    const { request } = convert({ ...hello, reasoning_effort: 'high' }, 'claude-opus-4-7', opus47);
    expect(request).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'high' } });
    const minimal = convert({ ...hello, reasoning_effort: 'minimal' }, 'claude-opus-4-7', opus47);
    expect(minimal.request.output_config).toEqual({ effort: 'low' });
    expect(minimal.warnings).toContainEqual(lost('reasoning_effort', 'mapped', { from: 'minimal', to: 'low' }));
  });

  it('keeps a budget where the model still takes one (Opus 4.6 lists both)', () => {
    expect(convert({ ...hello, reasoning_effort: 'medium' }, 'claude-opus-4-6', opus46).request.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });

  it('leaves out temperature and top_k, and raises top_p to 0.95, which thinking does not take', () => {
    const { request, warnings } = convert({ ...hello, reasoning_effort: 'low', temperature: 0.2, top_k: 5 }, 'claude-sonnet-4-5', sonnet45);
    expect(request.temperature).toBeUndefined();
    expect(request.top_k).toBeUndefined();
    expect(warnings).toEqual([lost('temperature', 'dropped', { from: 0.2 }), lost('top_k', 'dropped', { from: 5 })]);
    expect(convert({ ...hello, reasoning_effort: 'low', top_p: 0.5 }, 'claude-sonnet-4-5', sonnet45).request.top_p).toBe(0.95);
    expect(convert({ ...hello, reasoning_effort: 'low', temperature: 1 }, 'claude-sonnet-4-5', sonnet45).request.temperature).toBe(1);
  });

  it('sends no budget when the tool choice forces a tool, which Anthropic refuses with thinking', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    const { request, warnings } = convert({ ...hello, tools, tool_choice: 'required', reasoning_effort: 'high' }, 'claude-sonnet-4-5', sonnet45);
    expect(request.thinking).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'reasoning_effort', reason: expect.stringContaining('forces a tool') })]);
  });

  it('sends no thinking when the tool-use turn it continues came back without its thinking (Anthropic would refuse it)', () => {
    const call = { id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const messages = [user('Go'), { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'toolu_1', content: 'ok' }];
    const { request, warnings } = convert({ messages, reasoning_effort: 'high' }, 'claude-sonnet-4-5', sonnet45);
    expect(request.thinking).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ kind: 'dropped', field: 'reasoning_effort', reason: expect.stringContaining('came back without its thinking') })]);
    const fresh = convert({ messages: [...messages, { role: 'assistant', content: 'Done.' }, user('Again')], reasoning_effort: 'high' }, 'claude-sonnet-4-5', sonnet45);
    expect(fresh.request.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
  });

  it('refuses an effort it has no budget for, naming it', () => {
    expect(conversionErrorFor({ ...hello, reasoning_effort: 'extreme' }).toBody().error).toMatchObject({ param: 'reasoning_effort', code: 'unsupported_value' });
  });
});

describe('the thinking comes back signed, and goes back', () => {
  it('counts the thinking as reasoning_tokens (recorded stream: output_tokens_details.thinking_tokens 53)', () => {
    const [interaction] = readCassette('anthropic-inbound/cassette-stream-thinking-display-tool-chain.yaml');
    const run = runAnthropicStream(sseEventsOf(cassetteResponseText(interaction!)), true);
    expect(run.chunks.at(-1)?.usage).toMatchObject({ completion_tokens: 92, completion_tokens_details: { reasoning_tokens: 53 } });
  });

  const roundTrip = readCassette('anthropic-inbound/cassette-thinking-tool-result-roundtrip.yaml');

  it('returns the thinking as reasoning_content and the signed blocks as thinking_blocks (recorded answer)', () => {
    const converted = convertAnthropicResponse({ text: cassetteResponseText(roundTrip[0]!), publicModel: 'm', created: 1 });
    if (!converted.ok) throw converted.error;
    const message = (converted.body['choices'] as Array<{ message: Record<string, unknown> }>)[0]!.message;
    expect(message['reasoning_content']).toMatch(/^The user is asking about the largest city/);
    expect(message['thinking_blocks']).toEqual([
      { type: 'thinking', thinking: message['reasoning_content'], signature: expect.stringMatching(/^EqEECkYICxgCKkAo3UA4/) },
    ]);
    // Still a chat.completion by OpenAI's published description (extra message fields allowed).
    expect(createOpenAiSpecValidator().errorsFor('CreateChatCompletionResponse', converted.body)).toEqual([]);
  });

  it('sends the message back with its thinking block first, as the recorded next request has it', () => {
    const converted = convertAnthropicResponse({ text: cassetteResponseText(roundTrip[0]!), publicModel: 'm', created: 1 });
    if (!converted.ok) throw converted.error;
    const assistant = (converted.body['choices'] as Array<{ message: Record<string, unknown> }>)[0]!.message;
    const recorded = cassetteRequestJson(roundTrip[1]!) as { messages: Array<{ role: string; content: unknown[] }> };
    const callId = (assistant['tool_calls'] as Array<{ id: string }>)[0]!.id;
    const { request } = convert({
      messages: [
        user('What is the largest city in the user country?'),
        { ...assistant, refusal: undefined },
        { role: 'tool', tool_call_id: callId, content: 'Mexico' },
      ],
      reasoning_effort: 'low',
    }, 'claude-sonnet-4-0', sonnet45);
    expect(request.messages[1]).toEqual({ role: 'assistant', content: recorded.messages[1]!.content });
  });

  it('streams the thinking as reasoning_content deltas, then the signed block (recorded stream)', () => {
    const run = runAnthropicStream(sseEventsOf(cassetteResponseText(readCassette('anthropic/cassette-stream-thinking.yaml')[0]!)));
    const deltas = run.chunks.map((chunk: ChatCompletionChunk) => chunk.choices[0]?.delta as Record<string, unknown> | undefined);
    const reasoning = deltas.map((delta) => (typeof delta?.['reasoning_content'] === 'string' ? delta['reasoning_content'] : '')).join('');
    expect(reasoning).toMatch(/^This is a straightforward question about pedestrian safety/);
    const signed = deltas.filter((delta) => delta?.['thinking_blocks'] !== undefined);
    expect(signed).toEqual([{ thinking_blocks: [{ type: 'thinking', thinking: '', signature: expect.stringMatching(/^EvMCCkYICxgCKkCHP2c/) }] }]);
    // The block closes before the answer starts.
    const signedAt = deltas.findIndex((delta) => delta?.['thinking_blocks'] !== undefined);
    const firstText = deltas.findIndex((delta) => typeof delta?.['content'] === 'string' && delta['content'] !== '');
    expect(signedAt).toBeLessThan(firstText);
    const spec = createOpenAiSpecValidator();
    expect(run.chunks.flatMap((chunk) => spec.errorsFor('CreateChatCompletionStreamResponse', chunk))).toEqual([]);
  });
});
