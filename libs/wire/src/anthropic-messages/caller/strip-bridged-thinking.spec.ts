import { AnthropicMessagesPromptSchema, type AnthropicMessagesPrompt } from '@chat-relay/contract';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
import { stripBridgedThinking } from './strip-bridged-thinking';

const bridged = { type: 'thinking', thinking: 'The relay made this from reasoning_content.', signature: BRIDGED_THINKING_SIGNATURE };
const anthropicSigned = { type: 'thinking', thinking: 'Anthropic thought this.', signature: 'EqQBCgIYAhIMAnthropicSig' };
const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' };
const toolUse = { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } };

const prompt = (messages: unknown[]): AnthropicMessagesPrompt =>
  AnthropicMessagesPromptSchema.parse({ model: 'claude-sonnet-4-5', system: 'Be brief.', messages, thinking: { type: 'enabled', budget_tokens: 1024 } });

describe('stripBridgedThinking', () => {
  it('returns the same object when no block carries the bridged signature', () => {
    const request = prompt([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [anthropicSigned, redacted, toolUse] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }] },
    ]);
    expect(stripBridgedThinking(request)).toBe(request);
  });

  it('drops only the bridged thinking blocks, keeping every other block, message and field in order', () => {
    const request = prompt([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [bridged, { type: 'text', text: 'Let me look.' }, toolUse] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }] },
      { role: 'assistant', content: [anthropicSigned, bridged, { type: 'text', text: 'Sunny.' }] },
    ]);
    const before = structuredClone(request);
    const stripped = stripBridgedThinking(request);
    expect(stripped).not.toBe(request);
    expect(stripped).toEqual({
      ...before,
      messages: [
        before.messages[0],
        { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, toolUse] },
        before.messages[2],
        { role: 'assistant', content: [anthropicSigned, { type: 'text', text: 'Sunny.' }] },
      ],
    });
    // The caller's request is left as it was; untouched messages are shared, not copied.
    expect(request).toEqual(before);
    expect(stripped.messages[0]).toBe(request.messages[0]);
    expect(stripped.messages[2]).toBe(request.messages[2]);
  });

  it('keeps a thinking block whose signature merely resembles the bridged one', () => {
    const lookalike = { ...bridged, signature: `${BRIDGED_THINKING_SIGNATURE} ` };
    const request = prompt([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [lookalike, { type: 'text', text: 'Hello' }] }]);
    expect(stripBridgedThinking(request)).toBe(request);
  });

  it('keeps the extra fields of the request type it is given', () => {
    const request = { ...prompt([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [bridged, { type: 'text', text: 'Hello' }] }]), max_tokens: 64, stream: true };
    expect(stripBridgedThinking(request)).toMatchObject({ max_tokens: 64, stream: true, system: 'Be brief.', thinking: { type: 'enabled' } });
  });

  it('drops an assistant turn that held only bridged thinking and joins the user turns around it, so roles still alternate', () => {
    const request = prompt([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [bridged] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Going.' }] },
      { role: 'user', content: 'thanks' },
    ]);
    expect(stripBridgedThinking(request).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'text', text: 'go on' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Going.' }] },
      { role: 'user', content: 'thanks' },
    ]);
  });
});
