import type { Content, GenerateContentResponse, Part } from '@google/genai';
import { argumentsFromSchema } from '@chat-relay/upstream-sim';
import { channelKinds } from './anthropic-e2e';
import { GEMINI, geminiWeatherTools, startGeminiRelay, type GeminiE2e } from './gemini-e2e';
import { usageRowsFor } from './usage-rows-for';
import { askForBoth, runWeatherTool } from './weather-tools';

const tools = [{ functionDeclarations: geminiWeatherTools }];
const expectedArgs = Object.fromEntries(geminiWeatherTools.map((tool) => [tool.name, argumentsFromSchema(tool.parametersJsonSchema as Record<string, unknown>)]));

/** The request id the relay answered with, for its usage row. */
const requestIdOf = (response: GenerateContentResponse): string | undefined => response.sdkHttpResponse?.headers?.['x-request-id'];

/** The caller's user turn answering every functionCall of `content`; `withIds: false` leaves ids out, as many callers do. */
function functionResponses(content: Content, withIds = true): Content {
  const parts: Part[] = (content.parts ?? []).flatMap((part) => {
    const call = part.functionCall;
    if (!call?.name) return [];
    const response = JSON.parse(runWeatherTool(call.name, call.args ?? {})) as Record<string, unknown>;
    return [{ functionResponse: { ...(withIds && call.id ? { id: call.id } : {}), name: call.name, response } }];
  });
  return { role: 'user', parts };
}

/** A stream's chunks merged the way a caller would: the text, the function calls, and the last chunk. */
async function collect(stream: AsyncGenerator<GenerateContentResponse>) {
  const chunks: GenerateContentResponse[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
  return { chunks, parts, text: chunks.map((chunk) => chunk.text ?? '').join(''), last: chunks.at(-1) };
}

/**
 * The official `@google/genai` SDK against the relay's `/v1beta/models/…`, for each channel type:
 * the Gemini one by passthrough, OpenAI and Anthropic bridged through the hub.
 */
describe.each(channelKinds)('e2e: @google/genai on a $type channel', (kind) => {
  let e2e: GeminiE2e;

  beforeEach(async () => {
    e2e = await startGeminiRelay(kind);
  });
  afterEach(() => e2e.close());

  it('generateContent: the text under the caller’s model, usage reported, and the same counts in the usage row', async () => {
    const answer = await e2e.genai.models.generateContent({ model: GEMINI, contents: 'Hello there' });

    expect(answer.text).toBe('You said: Hello there');
    expect(answer.modelVersion).toBe(GEMINI);
    expect(answer.candidates?.[0]?.finishReason).toBe('STOP');
    const usage = answer.usageMetadata;
    expect(usage?.promptTokenCount).toBeGreaterThan(0);
    expect(usage?.candidatesTokenCount).toBeGreaterThan(0);

    const calls = kind.calls(e2e.sim);
    expect(calls).toHaveLength(1);
    if (kind.type !== 'gemini') expect((calls[0]?.body as { model: string }).model).toBe(kind.upstreamModel);

    const [row] = await usageRowsFor(e2e, [requestIdOf(answer)]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, requestedModel: GEMINI, upstreamModel: kind.upstreamModel, status: 200, stream: false, usageEstimated: false });
    expect(row?.promptTokens).toBe(usage?.promptTokenCount);
    expect(row?.completionTokens).toBe((usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0));
  });

  it('generateContentStream: the same text in pieces, STOP and usage on the last chunk, the counts in the row', async () => {
    const { chunks, text, last } = await collect(await e2e.genai.models.generateContentStream({ model: GEMINI, contents: 'Hello there, streamed' }));

    expect(text).toBe('You said: Hello there, streamed');
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.modelVersion === GEMINI)).toBe(true);
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    const usage = last?.usageMetadata;
    expect(usage?.promptTokenCount).toBeGreaterThan(0);

    const [row] = await usageRowsFor(e2e, [last && requestIdOf(last)]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, stream: true, status: 200, errorCode: null, usageEstimated: false });
    expect(row?.promptTokens).toBe(usage?.promptTokenCount);
    expect(row?.completionTokens).toBe((usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0));
  });

  it('a function tool, non-streamed: both functionCalls, args as objects, STOP', async () => {
    const answer = await e2e.genai.models.generateContent({ model: GEMINI, contents: askForBoth, config: { tools } });

    const calls = answer.functionCalls ?? [];
    expect(calls.map((call) => call.name).sort()).toEqual(['get_time', 'get_weather']);
    for (const call of calls) expect(call.args).toEqual(expectedArgs[call.name ?? '']);
    expect(answer.candidates?.[0]?.finishReason).toBe('STOP');
  });

  it('the tool round trip, non-streamed: functionCall, then functionResponse → a text answer that uses the results', async () => {
    const question: Content = { role: 'user', parts: [{ text: askForBoth }] };
    const first = await e2e.genai.models.generateContent({ model: GEMINI, contents: [question], config: { tools } });
    const modelTurn = first.candidates?.[0]?.content;
    if (!modelTurn) throw new Error('no model turn');

    const final = await e2e.genai.models.generateContent({ model: GEMINI, contents: [question, modelTurn, functionResponses(modelTurn)], config: { tools } });
    expect(final.functionCalls).toBeUndefined();
    expect(final.text).toContain('sunny');
    expect(final.text).toContain('14:05');

    // Callers that leave the ids out: each response answers the call of its name.
    const withoutIds = await e2e.genai.models.generateContent({ model: GEMINI, contents: [question, modelTurn, functionResponses(modelTurn, false)], config: { tools } });
    expect(withoutIds.text).toBe(final.text);

    const rows = await usageRowsFor(e2e, [first, final, withoutIds].map(requestIdOf));
    for (const [row, answer] of rows.map((row, index) => [row, [first, final, withoutIds][index]] as const)) {
      expect(row).toMatchObject({ channelId: e2e.channel.id, status: 200 });
      expect(row?.promptTokens).toBe(answer?.usageMetadata?.promptTokenCount);
    }
  });

  it('the tool round trip, streamed: whole functionCalls in the stream, then the final text streamed', async () => {
    const question: Content = { role: 'user', parts: [{ text: askForBoth }] };
    const first = await collect(await e2e.genai.models.generateContentStream({ model: GEMINI, contents: [question], config: { tools } }));
    const callParts = first.parts.filter((part) => part.functionCall);
    expect(callParts.map((part) => part.functionCall?.name).sort()).toEqual(['get_time', 'get_weather']);
    for (const part of callParts) expect(part.functionCall?.args).toEqual(expectedArgs[part.functionCall?.name ?? '']);
    expect(first.last?.candidates?.[0]?.finishReason).toBe('STOP');

    // The model turn as the caller keeps it: every part streamed, thought signatures and ids included.
    const modelTurn: Content = { role: 'model', parts: first.parts.filter((part) => part.text !== '') };
    const final = await collect(await e2e.genai.models.generateContentStream({ model: GEMINI, contents: [question, modelTurn, functionResponses(modelTurn)], config: { tools } }));
    expect(final.text).toContain('sunny');
    expect(final.text).toContain('14:05');
    expect(final.last?.candidates?.[0]?.finishReason).toBe('STOP');

    const rows = await usageRowsFor(e2e, [first.last, final.last].map((chunk) => chunk && requestIdOf(chunk)));
    expect(rows.map((row) => [row?.stream, row?.status])).toEqual([
      [true, 200],
      [true, 200],
    ]);
    expect(rows[1]?.promptTokens).toBe(final.last?.usageMetadata?.promptTokenCount);
  });
});
