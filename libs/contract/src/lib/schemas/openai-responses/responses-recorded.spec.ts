import { z } from 'zod';
import { recordedReasoningCallResponse, recordedReasoningSummaryResponse, recordedTextResponse } from '../../../testing/recorded-responses-answers';
import {
  recordedChainedRequest,
  recordedFunctionCallRequest,
  recordedNegativeTemperatureError,
  recordedNegativeTemperatureRequest,
  recordedReasoningRoundTripRequest,
  recordedReasoningSummaryRequest,
  recordedStreamRequest,
  recordedTextRequest,
} from '../../../testing/recorded-responses-requests';
import { recordedReasoningStreamExcerpt } from '../../../testing/recorded-responses-reasoning-stream';
import { recordedEventsWithoutSequenceNumbers, recordedQuotaErrorStream, recordedTextStream } from '../../../testing/recorded-responses-streams';
import { ErrorResponseSchema } from '../error.schema';
import { ResponseObjectSchema } from './response.schema';
import { isKnownResponseStreamEvent, ResponseStreamEventSchema } from './response-stream-event.schema';
import { ResponsesRequestSchema } from './responses-request.schema';

// OpenAI's Responses traffic as recorded by SDK test suites (testing/recorded-responses-*.ts,
// copied inline from test-fixtures/openai-responses/): the relay must read all of it unchanged.

/** Parses, and proves nothing was dropped or rewritten: the output deep-equals the input. */
function expectParsesUnchanged<T extends z.ZodTypeAny>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  expect(result.error?.issues).toBeUndefined();
  expect(result.data).toEqual(value);
  return result.data;
}

type RecordedEvent = { type: string; sequence_number: number } & Record<string, unknown>;
const ofType = (events: readonly RecordedEvent[], type: string) => events.filter((event) => event.type === type);

describe('recorded requests', () => {
  it.each([
    ['an untyped text message (pydantic-ai)', recordedTextRequest],
    ['a call echoed with status null, and its output (pydantic-ai)', recordedFunctionCallRequest],
    ['only a function_call_output under previous_response_id (pydantic-ai)', recordedChainedRequest],
    ['stateless reasoning re-sent with encrypted_content, tools without strict (simonw/llm)', recordedReasoningRoundTripRequest],
    ['instructions with reasoning summary and include (pydantic-ai)', recordedReasoningSummaryRequest],
    ['a streamed request (simonw/llm)', recordedStreamRequest],
  ])('%s parses unchanged', (_name, body) => {
    expectParsesUnchanged(ResponsesRequestSchema, body);
  });

  it('temperature -1 is refused at the field OpenAI named in its recorded 400', () => {
    const result = ResponsesRequestSchema.safeParse(recordedNegativeTemperatureRequest);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([[recordedNegativeTemperatureError.error.param]]);
    expectParsesUnchanged(ErrorResponseSchema, recordedNegativeTemperatureError);
  });
});

describe('recorded answers', () => {
  it.each([
    ['a text message (gpt-4o)', recordedTextResponse],
    ['reasoning with encrypted_content and an empty summary, then a function_call (gpt-5.5)', recordedReasoningCallResponse],
    ['reasoning with a summary, then a message (gpt-5.2)', recordedReasoningSummaryResponse],
  ])('%s parses unchanged', (_name, body) => {
    expectParsesUnchanged(ResponseObjectSchema, body);
  });
});

describe('recorded streams', () => {
  it.each([
    ['text', recordedTextStream],
    ['reasoning summary then a call (excerpt)', recordedReasoningStreamExcerpt],
    ['insufficient quota', recordedQuotaErrorStream],
  ])('every event of the %s stream parses unchanged, each a modelled one', (_name, events) => {
    for (const event of events) {
      const parsed = expectParsesUnchanged(ResponseStreamEventSchema, event);
      expect(isKnownResponseStreamEvent(parsed)).toBe(true);
    }
  });

  it.each([
    ['text', 'response.completed', recordedTextStream],
    ['reasoning summary then a call (excerpt)', 'response.completed', recordedReasoningStreamExcerpt],
    ['insufficient quota', 'response.failed', recordedQuotaErrorStream],
  ])('the %s stream opens with response.created, numbers its events upward and ends with %s', (_name, last, events) => {
    const numbers = events.map((event) => event.sequence_number);
    expect(numbers[0]).toBe(0);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(events[0]!.type).toBe('response.created');
    expect(events.at(-1)!.type).toBe(last);
  });

  it('text stream: numbered without gaps; the deltas add up to the done text; the final output is the items done', () => {
    const events: readonly RecordedEvent[] = recordedTextStream;
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, at) => at));
    const deltas = ofType(events, 'response.output_text.delta').map((event) => event['delta']);
    expect(deltas.join('')).toBe(ofType(events, 'response.output_text.done')[0]!['text']);
    const done = ofType(events, 'response.output_item.done').map((event) => event['item']);
    expect(recordedTextStream.at(-1)!.response).toMatchObject({ status: 'completed', output: done });
  });

  it('reasoning excerpt: the summary and the call are done before the response completes with both', () => {
    const events: readonly RecordedEvent[] = recordedReasoningStreamExcerpt;
    const [reasoning, functionCall] = ofType(events, 'response.output_item.done').map((event) => event['item'] as Record<string, unknown>);
    expect([reasoning!['type'], functionCall!['type']]).toEqual(['reasoning', 'function_call']);
    const final = recordedReasoningStreamExcerpt.at(-1)!.response as { status: string; output: Record<string, unknown>[] };
    expect(final.status).toBe('completed');
    expect(final.output[1]).toEqual(functionCall);
    // OpenAI issues the reasoning's encrypted_content afresh in the final response: keep that one.
    const { encrypted_content: streamedToken, ...streamedReasoning } = reasoning!;
    const { encrypted_content: finalToken, ...finalReasoning } = final.output[0]!;
    expect(finalReasoning).toEqual(streamedReasoning);
    expect(finalToken).not.toBe(streamedToken);
    const summary = ofType(events, 'response.reasoning_summary_text.done')[0]!['text'];
    expect(ofType(events, 'response.reasoning_summary_part.done')[0]!['part']).toEqual({ type: 'summary_text', text: summary });
    const argumentsDone = ofType(events, 'response.function_call_arguments.done')[0]!;
    expect(argumentsDone['name']).toBeUndefined();
    expect(functionCall).toMatchObject({ name: 'calculator', arguments: argumentsDone['arguments'] });
  });

  it('insufficient quota: the in-stream error (nested form) carries the code the failed response repeats', () => {
    const [, , error, failed] = recordedQuotaErrorStream;
    const parsed = ResponseStreamEventSchema.parse(error);
    expect(parsed).toMatchObject({ type: 'error', error: { code: 'insufficient_quota' } });
    expect(parsed['message']).toBeUndefined();
    expect(failed).toMatchObject({ type: 'response.failed', response: { status: 'failed', error: { code: 'insufficient_quota' }, usage: null } });
  });

  it('events recorded in March 2025, before sequence_number, are refused for that field alone', () => {
    for (const [at, event] of recordedEventsWithoutSequenceNumbers.entries()) {
      const result = ResponseStreamEventSchema.safeParse(event);
      const paths = result.error?.issues.flatMap((issue) =>
        issue.code === 'invalid_union' ? issue.unionErrors.flatMap((branch) => branch.issues.map((inner) => inner.path)) : [issue.path],
      );
      expect(paths).toContainEqual(['sequence_number']);
      expectParsesUnchanged(ResponseStreamEventSchema, { ...event, sequence_number: at });
    }
  });
});
