import { lost } from '../../testing/lost';
import { bridgeErrorFor, bridgeResponses, nativeOnlyOf } from '../testing/bridge-responses-request';

describe('convertResponsesToChat: top-level fields', () => {
  it('instructions become the first (system) message and a string input one user message; nothing else is sent', () => {
    const { request, warnings, nativeOnly } = bridgeResponses({ instructions: 'Be brief.', input: 'Hello' });
    expect(request).toEqual({
      model: 'gpt-bridged',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect([warnings, nativeOnly]).toEqual([[], undefined]);
  });

  it('sampling and bookkeeping fields keep their names; max_output_tokens is max_completion_tokens', () => {
    const { request, warnings } = bridgeResponses({
      max_output_tokens: 300,
      temperature: 0.2,
      top_p: 0.9,
      user: 'u-1',
      prompt_cache_key: 'cache-1',
      safety_identifier: 'safe-1',
      service_tier: 'flex',
    });
    expect(request).toEqual({
      model: 'gpt-bridged',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 300,
      temperature: 0.2,
      top_p: 0.9,
      user: 'u-1',
      prompt_cache_key: 'cache-1',
      safety_identifier: 'safe-1',
      service_tier: 'flex',
    });
    expect(warnings).toEqual([]);
  });

  it('null settings are not sent', () => {
    const { request } = bridgeResponses({ temperature: null, top_p: null, max_output_tokens: null, reasoning: null, parallel_tool_calls: null });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
  });

  it('a passthrough field of the wrong type is a 400 naming it, not a request the hub refuses later', () => {
    expect([bridgeErrorFor({ safety_identifier: 7 }).param, bridgeErrorFor({ service_tier: ['flex'] }).param]).toEqual([
      'safety_identifier',
      'service_tier',
    ]);
  });

  it('stream asks for the usage chunk the bridge needs; stream false sends neither', () => {
    expect(bridgeResponses({ stream: true }).request).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(bridgeResponses({ stream: false }).request).not.toHaveProperty('stream');
    expect(bridgeResponses({ stream: false }).request).not.toHaveProperty('stream_options');
  });

  it('top_logprobs asks for logprobs; include message.output_text.logprobs alone asks for them too', () => {
    expect(bridgeResponses({ top_logprobs: 3 }).request).toMatchObject({ logprobs: true, top_logprobs: 3 });
    const included = bridgeResponses({ include: ['message.output_text.logprobs'] }).request;
    expect([included.logprobs, included.top_logprobs]).toEqual([true, undefined]);
    // Out-of-range values (21, 1.5) never get here: the contract refuses them (responses-request.schema.spec.ts).
  });

  it('store, metadata and previous_response_id are the relay’s own: not sent, no warning', () => {
    const { request, warnings } = bridgeResponses({ store: false, metadata: { a: 'b' }, previous_response_id: 'resp_1' });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
    expect(warnings).toEqual([]);
  });

  it("include 'reasoning.encrypted_content' is a warning only", () => {
    const { request, warnings } = bridgeResponses({ include: ['reasoning.encrypted_content'] });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
    expect(warnings).toEqual([lost('include.reasoning.encrypted_content')]);
  });

  it("truncation 'auto' is a warning; 'disabled' is the bridged behaviour anyway", () => {
    expect(bridgeResponses({ truncation: 'auto' }).warnings).toEqual([lost('truncation', 'dropped', { from: 'auto' })]);
    expect(bridgeResponses({ truncation: 'disabled' }).warnings).toEqual([]);
  });

  it('background mode, conversations and stored prompts exist only at OpenAI: native only', () => {
    expect(nativeOnlyOf({ background: true })).toEqual([
      'background',
      "'background': background mode is only available on channels that speak the Responses API natively.",
    ]);
    expect(nativeOnlyOf({ background: false })).toBeUndefined();
    expect(nativeOnlyOf({ conversation: 'conv_1' })?.[0]).toBe('conversation');
    expect(nativeOnlyOf({ prompt: { id: 'pmpt_1' } })?.[0]).toBe('prompt');
  });

  it('every other field is not sent, and named in a warning', () => {
    const { request, warnings } = bridgeResponses({ max_tool_calls: 3, stream_options: { include_obfuscation: false }, prompt_cache_retention: '24h' });
    expect(Object.keys(request)).toEqual(['model', 'messages']);
    expect(warnings).toEqual([
      lost('max_tool_calls'),
      lost('stream_options'),
      lost('prompt_cache_retention'),
    ]);
  });

  it('an empty conversation is a 400 naming input', () => {
    const error = bridgeErrorFor({ input: [] });
    expect([error.status, error.param]).toEqual([400, 'input']);
  });

  it('an input of hosted-tool items only is native only, not an empty-conversation error', () => {
    expect(nativeOnlyOf({ input: [{ type: 'file_search_call', id: 'fs_1', status: 'completed', queries: [] }] })?.[0]).toBe('input[0].type');
  });
});

describe('convertResponsesToChat: text and reasoning', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };

  it('text.format json_schema → response_format json_schema with its name, schema, strict and description', () => {
    const { request } = bridgeResponses({ text: { format: { type: 'json_schema', name: 'answer', schema, strict: true, description: 'An answer.' } } });
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema, strict: true, description: 'An answer.' },
    });
  });

  it('json_object is json_object; text sends nothing', () => {
    expect(bridgeResponses({ text: { format: { type: 'json_object' } } }).request.response_format).toEqual({ type: 'json_object' });
    expect(bridgeResponses({ text: { format: { type: 'text' } } }).request).not.toHaveProperty('response_format');
  });

  it('a schema name Chat Completions refuses is a 400 naming text.format.name', () => {
    expect(bridgeErrorFor({ text: { format: { type: 'json_schema', name: 'my answer', schema } } }).param).toBe('text.format.name');
  });

  it('text.verbosity is not sent, with a warning (Gemini and Anthropic channels refuse it)', () => {
    const { request, warnings } = bridgeResponses({ text: { verbosity: 'low' } });
    expect(request).not.toHaveProperty('verbosity');
    expect(warnings).toEqual([lost('text.verbosity')]);
  });

  it.each(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'])('reasoning.effort %s → reasoning_effort', (effort) => {
    expect(bridgeResponses({ reasoning: { effort } }).request.reasoning_effort).toBe(effort);
  });

  it('an effort OpenAI does not know is not sent, with a warning', () => {
    const { request, warnings } = bridgeResponses({ reasoning: { effort: 'extreme' } });
    expect(request).not.toHaveProperty('reasoning_effort');
    expect(warnings).toEqual([lost('reasoning.effort', 'dropped', { from: 'extreme' })]);
  });

  it("reasoning.summary is a warning: the provider's reasoning text comes back instead", () => {
    const { request, warnings } = bridgeResponses({ reasoning: { effort: 'low', summary: 'auto' } });
    expect(request.reasoning_effort).toBe('low');
    expect(warnings).toEqual([
      lost('reasoning.summary'),
    ]);
  });
});
