import { ChatCompletionRequestSchema, type ChatCompletionRequest } from '@chat-relay/contract';
import { HARNESS_MODEL, useChatRelayHarness } from '../../test/testing/chat-relay-harness';

/**
 * `advisory`: hub fields a caller's dialect sends as hints. A channel whose adapter refuses one
 * (a 400 naming it) gets the request without it — logged as a warning — instead of failing; a
 * field not listed is still the caller's 400 (SPEC §7: nothing is dropped silently).
 */
describe('relayChatCompletion: advisory fields (Codex on Anthropic and Gemini channels)', () => {
  const h = useChatRelayHarness();
  const request = (fields: Record<string, unknown>): ChatCompletionRequest =>
    ChatCompletionRequestSchema.parse({ model: HARNESS_MODEL, messages: [{ role: 'user', content: 'hi' }], ...fields });
  const weather = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];

  it('an Anthropic channel takes reasoning_effort as thinking (issue 29), advisory or not: nothing is left out', async () => {
    await h.addChannel({ type: 'anthropic', baseUrl: h.sim.anthropicBaseUrl });
    for (const advisory of [['reasoning_effort'], undefined]) {
      const { result } = await h.relay({ request: request({ reasoning_effort: 'medium' }), ...(advisory ? { advisory } : {}) });
      expect(result.kind).toBe('json');
      const sent = h.sim.requests.filter((call) => call.path === '/v1/messages').at(-1)?.body as Record<string, unknown>;
      expect(sent).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 8192 } });
    }
  });

  it('a Gemini channel gets parallel_tool_calls: false left out when advisory; other refusals stay 400s', async () => {
    await h.addChannel({ type: 'gemini', baseUrl: h.sim.geminiBaseUrl });
    const { result } = await h.relay({ request: request({ tools: weather, parallel_tool_calls: false }), advisory: ['reasoning_effort', 'parallel_tool_calls'] });
    expect(result.kind).toBe('json');
    await expect(h.relay({ request: request({ tools: weather, parallel_tool_calls: false }) })).rejects.toMatchObject({ status: 400, param: 'parallel_tool_calls' });
    // An advisory list does not excuse a field it does not name.
    await expect(h.relay({ request: request({ tool_choice: 'required' }), advisory: ['parallel_tool_calls'] })).rejects.toMatchObject({ status: 400, param: 'tool_choice' });
  });
});
