// Issue 29 item 3: Claude's thinking reaches a Responses caller as reasoning items it can send
// back (Codex sends them on the next turn with include ["reasoning.encrypted_content"]), and the
// next turn gives Anthropic the signed block before the tool use.
import type { ChatCompletion, ResponseOutputItem } from '@chat-relay/contract';
import { cassetteResponseText, readCassette, sseEventsOf } from '../../anthropic-messages/testing/anthropic-fixtures';
import { convertForTest } from '../../anthropic-messages/testing/convert-for-test';
import { AnthropicStreamTransformer } from '../../anthropic-messages/upstream/anthropic-stream-transformer';
import { convertAnthropicResponse } from '../../anthropic-messages/upstream/convert-anthropic-response';
import { encryptedContentOf, thinkingBlockOfEncrypted } from '../../hub/thinking-blocks';
import { bridgeResponses, responsesRequest } from '../testing/bridge-responses-request';
import { CREATED_AT, PUBLIC_MODEL, RESPONSE_ID, sequentialIds } from '../testing/responses-identity';
import { eventsOf, expectValidResponsesStream } from '../testing/responses-stream-checks';
import { ChatToResponsesStream } from './chat-to-responses-stream';
import { convertChatToResponse } from './convert-chat-to-response';

const roundTrip = readCassette('anthropic-inbound/cassette-thinking-tool-result-roundtrip.yaml');
const SIGNATURE = /^EqEECkYICxgCKkAo3UA4/;

function recordedAnswer(): ChatCompletion {
  const converted = convertAnthropicResponse({ text: cassetteResponseText(roundTrip[0]!), publicModel: PUBLIC_MODEL, created: 1 });
  if (!converted.ok) throw converted.error;
  return converted.body as ChatCompletion;
}

const identity = (fields: Record<string, unknown>) => ({
  request: responsesRequest(fields),
  responseId: RESPONSE_ID,
  createdAt: CREATED_AT,
  publicModel: PUBLIC_MODEL,
  newId: sequentialIds(),
});

describe('Claude thinking as Responses reasoning items', () => {
  it('an answer: a reasoning item with the thinking as summary and the signed block as encrypted_content, before the call', () => {
    const response = convertChatToResponse({ completion: recordedAnswer(), ...identity({ include: ['reasoning.encrypted_content'] }) });
    const [reasoning, message, call] = response.output as Array<ResponseOutputItem & Record<string, unknown>>;
    expect(reasoning).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: expect.stringMatching(/^The user is asking/) }] });
    expect(thinkingBlockOfEncrypted(reasoning!['encrypted_content'])).toEqual({
      type: 'thinking',
      thinking: (reasoning!['summary'] as Array<{ text: string }>)[0]!.text,
      signature: expect.stringMatching(SIGNATURE),
    });
    expect([message?.type, call?.type]).toEqual(['message', 'function_call']);
  });

  it('a stream: the reasoning item is done with its encrypted_content before the answer text (recorded Anthropic stream)', () => {
    const anthropic = new AnthropicStreamTransformer({ publicModel: PUBLIC_MODEL, callerWantsUsage: true, secrets: [], created: 1 });
    const responses = new ChatToResponsesStream(identity({ stream: true }));
    const events = sseEventsOf(cassetteResponseText(readCassette('anthropic/cassette-stream-thinking.yaml')[0]!));
    const steps = events.flatMap((event) => anthropic.transform(event)).flatMap((step) => (step.kind === 'chunk' ? responses.transform(step.json) : []));
    steps.push(...responses.finish());
    const streamed = eventsOf(steps);
    expectValidResponsesStream(streamed);
    const reasoningDone = streamed.find((event) => event.type === 'response.output_item.done' && event.item?.type === 'reasoning');
    const item = reasoningDone?.item as Record<string, unknown> | undefined;
    expect(item?.['summary']).toEqual([{ type: 'summary_text', text: expect.stringMatching(/^This is a straightforward question about pedestrian safety/) }]);
    const block = thinkingBlockOfEncrypted(item?.['encrypted_content']);
    expect(block).toEqual({ type: 'thinking', thinking: (item?.['summary'] as Array<{ text: string }>)[0]!.text, signature: expect.stringMatching(/^EvMCCkYICxgCKkCHP2c/) });
    const final = responses.response.output.map((output) => output.type);
    expect(final).toEqual(['reasoning', 'message']);
  });

  it('the next turn: the reasoning item goes back as the thinking block before the tool use, as the recorded request has it', () => {
    const response = convertChatToResponse({ completion: recordedAnswer(), ...identity({}) });
    const [reasoning, , call] = response.output as Array<Record<string, unknown>>;
    const { request: hub } = bridgeResponses({
      input: [
        { role: 'user', content: 'What is the largest city in the user country?' },
        reasoning,
        call,
        { type: 'function_call_output', call_id: call!['call_id'], output: 'Mexico' },
      ],
      reasoning: { effort: 'low' },
    });
    const { request } = convertForTest(hub as unknown as Record<string, unknown>, 'claude-sonnet-4-0');
    const assistant = request.messages[1]!;
    expect(assistant.role).toBe('assistant');
    expect(assistant.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(SIGNATURE) });
    expect(request.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('a reasoning item whose encrypted_content is not the relay\'s (OpenAI\'s own, or altered) is not sent', () => {
    const forged = encryptedContentOf({ type: 'thinking', thinking: 'x', signature: 'sig' }).slice(0, -4) + 'AAAA';
    const { request, warnings } = bridgeResponses({
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'reasoning', summary: [], encrypted_content: 'gAAAAABopenai' },
        { type: 'reasoning', summary: [], encrypted_content: forged },
        { role: 'assistant', content: 'Hello' },
      ],
    });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: 'Hello' });
    expect(warnings.length).toBeGreaterThan(0);
  });
});
