/**
 * Every recorded OpenAI, OpenAI-compatible, Gemini and Anthropic stream, each through its
 * upstream StreamTransformer and then ChatToResponsesStream (chainTransformers, as the relay
 * bridges a Responses request): the result must be a valid Responses stream, event by event
 * against OpenAI's own description, that says what the hub said — the same text, refusal and
 * tool calls, the mapped status, the usage — the official SDK must rebuild the same Response, and
 * the AI SDK's own Responses model must read the same text and calls with no error part.
 */
import type { ResponseOutputMessage } from '@chat-relay/contract';
import { upstreamError } from '../../errors/relay-error';
import { chainTransformers } from '../../hub/chain-transformers';
import type { SseEvent, StreamStep } from '../../hub/upstream-adapter';
import { ChatToResponsesStream } from './chat-to-responses-stream';
import { responseUsageFromChat } from './response-usage-from-chat';
import { aiSdkStreamParts, aiSdkSummary } from '../testing/ai-sdk-stream-parts';
import { responsesRequest } from '../testing/bridge-responses-request';
import { hubAnswerOf, recordedStreams, upstreamTransformer, type Upstream } from '../testing/recorded-hub-streams';
import { CREATED_AT, PUBLIC_MODEL, RESPONSE_ID, sequentialIds } from '../testing/responses-identity';
import { eventsOf, expectValidResponsesStream, sdkFinalResponse } from '../testing/responses-stream-checks';

function bridge(upstream: Upstream, events: readonly SseEvent[]) {
  const responses = new ChatToResponsesStream({
    request: responsesRequest({ stream: true }),
    responseId: RESPONSE_ID,
    createdAt: CREATED_AT,
    publicModel: PUBLIC_MODEL,
    newId: sequentialIds(),
  });
  const chain = chainTransformers(upstreamTransformer(upstream), responses);
  const steps: StreamStep[] = [...events.flatMap((event) => chain.transform(event)), ...chain.finish()];
  return { chain, responses, steps };
}

const RECORDINGS = recordedStreams();

describe('recorded streams bridged into a Responses stream', () => {
  it('finds the recordings of every upstream (a folder renamed must not empty this suite)', () => {
    const count = (upstream: Upstream) => RECORDINGS.filter((recording) => recording.upstream === upstream).length;
    expect([count('openai') >= 14, RECORDINGS.some((recording) => recording.name.startsWith('openai-compatible/')), count('gemini') >= 7, count('anthropic') >= 7]).toEqual([true, true, true, true]);
  });

  it.each(RECORDINGS.map((recording) => [recording.name, recording] as const))('%s', async (_name, { upstream, events: recorded }) => {
    const hub = hubAnswerOf(upstream, recorded);
    const { chain, responses, steps } = bridge(upstream, recorded);
    expect(steps.filter((step) => step.kind === 'error')).toEqual([]);
    expect(chain.complete).toBe(true);

    const events = eventsOf(steps);
    const summary = expectValidResponsesStream(events);
    expect([summary.text, summary.refusal, summary.reasoning]).toEqual([hub.text, hub.refusal, hub.reasoning]);
    expect(summary.calls).toEqual(hub.calls);
    const final = summary.response;
    expect(final).toEqual(responses.response);
    expect(final.status).toBe(hub.finishReason === 'length' || hub.finishReason === 'content_filter' ? 'incomplete' : 'completed');
    if (!hub.usage) throw new Error('the recording has no usage');
    expect(final.usage).toEqual(responseUsageFromChat(hub.usage));

    // The final object says what the deltas said.
    const outputText = final.output.flatMap((item) => (item.type === 'message' ? (item as ResponseOutputMessage).content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : []));
    expect(outputText.join('')).toBe(summary.text);
    const outputCalls = final.output.flatMap((item) => (item.type === 'function_call' ? [{ call_id: item['call_id'], name: item['name'], arguments: item['arguments'] }] : []));
    expect(outputCalls).toEqual(summary.calls);

    const sdk = await sdkFinalResponse(events);
    expect(sdk.output_text).toBe(hub.text);
    expect(sdk.output.flatMap((item) => (item.type === 'function_call' ? [{ call_id: item.call_id, name: item.name, arguments: item.arguments }] : []))).toEqual(hub.calls);
    expect(sdk.usage).toEqual(final.usage);

    const aiSdk = aiSdkSummary(await aiSdkStreamParts(events));
    expect(aiSdk.errors).toEqual([]);
    // The AI SDK reads refusal deltas as text too.
    expect([aiSdk.text, aiSdk.calls]).toEqual([hub.text + hub.refusal, hub.calls]);
    // The AI SDK's own mapping: a refusal with no reason is its content-filter.
    const unified =
      final.status === 'incomplete' ? 'length' : hub.calls.length > 0 ? 'tool-calls' : hub.refusal !== '' ? 'content-filter' : 'stop';
    expect(aiSdk.finish).toMatchObject({ finishReason: { unified } });
  });

  it('a stream cut before its end gets no terminal event from finish(); the relay’s fail() then ends it with response.failed', () => {
    const recorded = RECORDINGS.find((recording) => recording.name === 'openai/chat-stream-tool-call.sse');
    if (!recorded) throw new Error('recording missing');
    const { chain, steps } = bridge('openai', recorded.events.slice(0, 4));
    expect(chain.complete).toBe(false);
    const cutEvents = eventsOf(steps);
    expect(cutEvents.map((event) => event.type)).not.toContain('response.completed');
    if (!chain.fail) throw new Error('the chain should expose fail()');
    const events = eventsOf([...steps, ...chain.fail(upstreamError('The upstream provider closed the connection.', 'upstream_closed'))]);
    const summary = expectValidResponsesStream(events);
    expect(summary.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
    expect(summary.response.output).toEqual([expect.objectContaining({ type: 'function_call', status: 'incomplete' })]);
  });
});
