import { parseSse, postGemini, readAll, testKey } from '../sim-test-client';
import { startUpstreamSim } from '../sim-server';
import type { UpstreamSim } from '../sim-types';
import type { GenerateContentResponse, ResponsePart } from './gemini-api';

const tools = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Weather in a city',
        parameters: {
          type: 'OBJECT',
          properties: {
            city: { type: 'STRING' },
            unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] },
            where: { type: 'OBJECT', properties: { lat: { type: 'NUMBER' }, exact: { type: 'BOOLEAN' } } },
          },
          required: ['city'],
        },
      },
      { name: 'get_time' },
    ],
  },
];
const weatherArgs = { city: 'city value', unit: 'celsius', where: { lat: 1, exact: true } };
const askBoth = { role: 'user', parts: [{ text: 'get the weather and get the time' }] };

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function generate(body: Record<string, unknown>, model?: string): Promise<GenerateContentResponse> {
  const response = await postGemini(sim, body, { model });
  expect(response.status).toBe(200);
  return (await response.json()) as GenerateContentResponse;
}

async function streamed(body: Record<string, unknown>): Promise<{ events: GenerateContentResponse[]; raw: string }> {
  const response = await postGemini(sim, body, { stream: true });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  const parsed = parseSse(text);
  // Gemini names no events and sends no [DONE].
  expect(parsed.every((event) => event.event === undefined)).toBe(true);
  return { events: parsed.map((event) => JSON.parse(event.data) as GenerateContentResponse), raw: text };
}

const partsOf = (response: GenerateContentResponse): ResponsePart[] => response.candidates[0]?.content.parts ?? [];
const callsOf = (parts: readonly ResponsePart[]) => parts.flatMap((part) => ('functionCall' in part ? [part] : []));

async function firstTurn(model?: string): Promise<GenerateContentResponse> {
  return generate({ contents: [askBoth], tools }, model);
}

function results(weather: unknown = { result: 'rain' }, time: unknown = { result: 'noon' }) {
  return {
    role: 'user',
    parts: [
      { functionResponse: { name: 'get_time', response: time } },
      { functionResponse: { name: 'get_weather', response: weather } },
    ],
  };
}

describe('generateContent', () => {
  it('echoes the user in a GenerateContentResponse with usage, the path model and STOP', async () => {
    const response = await generate({ contents: [{ role: 'user', parts: [{ text: 'Hi' }, { text: 'there' }] }] }, 'gemini-2.5-pro');
    expect(response).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'You said: Hi there' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: expect.any(Number), candidatesTokenCount: 4, totalTokenCount: expect.any(Number) },
      modelVersion: 'gemini-2.5-pro',
      responseId: expect.stringMatching(/^sim[0-9a-f]{20}$/),
    });
    const usage = response.usageMetadata;
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount + 4);
  });

  it('calls every fitting function in parallel, ends with STOP, signs only the first call', async () => {
    const parts = partsOf(await firstTurn());
    expect(parts).toEqual([
      { functionCall: { name: 'get_weather', args: weatherArgs }, thoughtSignature: expect.any(String) },
      { functionCall: { name: 'get_time', args: {} } },
    ]);
    const signature = (parts[0] as { thoughtSignature: string }).thoughtSignature;
    expect(Buffer.from(signature, 'base64').toString('base64')).toBe(signature);
    expect((await firstTurn()).candidates[0]?.finishReason).toBe('STOP');
  });

  it('answers function responses matched by name, in any order; a lone string field reads as that string', async () => {
    const first = await firstTurn();
    const final = await generate({ contents: [askBoth, first.candidates[0]!.content, results()], tools });
    expect(partsOf(final)).toEqual([{ text: 'Here is what I found: get_time: noon; get_weather: rain.' }]);
    const richer = await generate({
      contents: [askBoth, first.candidates[0]!.content, results({ sky: 'sunny', temperature: 21 })],
      tools,
    });
    expect(partsOf(richer)).toEqual([
      { text: 'Here is what I found: get_time: noon; get_weather: {"sky":"sunny","temperature":21}.' },
    ]);
  });

  it('reads systemInstruction, toolConfig NONE / ANY with allowedFunctionNames', async () => {
    const names = async (extra: Record<string, unknown>) =>
      partsOf(await generate({ contents: [askBoth], tools, ...extra })).map((part) => ('functionCall' in part ? part.functionCall.name : 'text'));
    expect(await names({ toolConfig: { functionCallingConfig: { mode: 'NONE' } } })).toEqual(['text']);
    const onlyTime = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } };
    expect(await names({ toolConfig: onlyTime, systemInstruction: { parts: [{ text: 'Be brief.' }] } })).toEqual(['get_time']);
  });

  it('stops at maxOutputTokens with MAX_TOKENS', async () => {
    const response = await generate({
      contents: [{ role: 'user', parts: [{ text: 'one two three four' }] }],
      generationConfig: { maxOutputTokens: 3, temperature: 0.2, topP: 0.9, stopSequences: ['END'], responseMimeType: 'text/plain' },
    });
    expect(partsOf(response)).toEqual([{ text: 'You said: one' }]);
    expect(response.candidates[0]?.finishReason).toBe('MAX_TOKENS');
    expect(response.usageMetadata.candidatesTokenCount).toBe(3);
  });

  it('reports thoughtsTokenCount in the total when a thinking budget is set', async () => {
    const response = await generate({
      contents: [{ role: 'user', parts: [{ text: 'think' }] }],
      generationConfig: { thinkingConfig: { thinkingBudget: 50 } },
    });
    const usage = response.usageMetadata;
    expect(usage.thoughtsTokenCount).toBe(50);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount + usage.candidatesTokenCount + 50);
  });

  // test-fixtures/gemini/cassette-thinking-part.yaml: the thought summary is a `thought: true` text part before the answer.
  it('sends the thought summary first when thoughts are asked for, streamed or not', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'think' }] }], generationConfig: { thinkingConfig: { thinkingBudget: 50, includeThoughts: true } } };
    const parts = partsOf(await generate(body));
    expect(parts).toEqual([{ text: expect.stringMatching(/^The user wrote: "think"/), thought: true }, { text: 'You said: think' }]);
    const { events } = await streamed(body);
    expect(partsOf(events[0]!)).toEqual([parts[0]]);
    const level = partsOf(await generate({ ...body, generationConfig: { thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } } }, 'gemini-3-pro-preview'));
    expect(level[0]).toMatchObject({ thought: true });
    const off = partsOf(await generate({ ...body, generationConfig: { thinkingConfig: { thinkingBudget: 0, includeThoughts: true } } }));
    expect(off).toEqual([{ text: 'You said: think' }]);
  });

  it('says a text before the calls with [sim:preamble=on], the signature still on the first call', async () => {
    const parts = partsOf(await generate({ contents: [{ role: 'user', parts: [{ text: 'get weather [sim:preamble=on]' }] }], tools }));
    expect(parts).toEqual([
      { text: 'Let me call get_weather.' },
      { functionCall: { name: 'get_weather', args: weatherArgs }, thoughtSignature: expect.any(String) },
    ]);
  });
});

describe('thought signatures', () => {
  // Gemini 3's rule (https://ai.google.dev/gemini-api/docs/thought-signatures): the first function call of each
  // step of the current turn comes back with its signature; earlier turns and calls the model did not make are not checked.
  const gemini3 = 'gemini-3-pro-preview';
  const unsignedTurn = async (model: string) => ({
    role: 'model',
    parts: callsOf(partsOf(await firstTurn(model))).map(({ functionCall }) => ({ functionCall })),
  });

  it('answers 400 when a call it made comes back without its thoughtSignature', async () => {
    const response = await postGemini(sim, { contents: [askBoth, await unsignedTurn(gemini3), results()], tools }, { model: gemini3 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toMatch(/^Function call is missing a thought_signature in functionCall parts\./);
    expect(body.error.message).toContain('default_api:get_weather');
  });

  it('answers 400 for a changed signature, and takes the signature back in base64url', async () => {
    const first = await firstTurn(gemini3);
    const [signed, other] = callsOf(partsOf(first));
    const withSignature = (thoughtSignature: string) => ({
      role: 'model',
      parts: [{ ...signed, thoughtSignature }, other],
    });
    const forged = { contents: [askBoth, withSignature(Buffer.from('forged').toString('base64')), results()], tools };
    const changed = await postGemini(sim, forged, { model: gemini3 });
    expect(changed.status).toBe(400);
    expect(((await changed.json()) as { error: { message: string } }).error.message).toMatch(/^Corrupted thought signature/);
    const base64url = Buffer.from(signed!.thoughtSignature!, 'base64').toString('base64url');
    const fixed = await postGemini(sim, { contents: [askBoth, withSignature(base64url), results()], tools }, { model: gemini3 });
    expect(fixed.status).toBe(200);
  });

  it('does not ask a signature for calls it did not make', async () => {
    const handWritten = { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] };
    const answer = { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'rain' } } }] };
    expect((await postGemini(sim, { contents: [askBoth, handWritten, answer], tools }, { model: gemini3 })).status).toBe(200);
  });

  it('does not check turns before the current one (the last user text)', async () => {
    const earlier = [askBoth, await unsignedTurn(gemini3), results(), { role: 'model', parts: [{ text: 'Rain at noon.' }] }];
    const next = { role: 'user', parts: [{ text: 'thanks' }] };
    expect((await postGemini(sim, { contents: [...earlier, next], tools }, { model: gemini3 })).status).toBe(200);
  });

  it('does not check Gemini 2.x (no such rule there), and checks a model it does not know, as before', async () => {
    const flash = 'gemini-2.5-flash';
    expect((await postGemini(sim, { contents: [askBoth, await unsignedTurn(flash), results()], tools }, { model: flash })).status).toBe(200);
    const unknown = 'gemini-x';
    expect((await postGemini(sim, { contents: [askBoth, await unsignedTurn(unknown), results()], tools }, { model: unknown })).status).toBe(400);
  });
});

describe('streamGenerateContent?alt=sse', () => {
  it('streams text in a few events, every one with usage so far, finishReason only on the last', async () => {
    const { events, raw } = await streamed({ contents: [{ role: 'user', parts: [{ text: 'one two three four five' }] }] });
    expect(raw).not.toContain('[DONE]');
    expect(events.length).toBeGreaterThan(2);
    const text = events.map((event) => partsOf(event).map((part) => ('text' in part ? part.text : '')).join('')).join('');
    expect(text).toBe('You said: one two three four five');
    expect(events.map((event) => event.candidates[0]?.finishReason)).toEqual([...Array<undefined>(events.length - 1).fill(undefined), 'STOP']);
    const counts = events.map((event) => event.usageMetadata.candidatesTokenCount);
    expect(counts).toEqual([...counts].sort((left, right) => left - right));
    expect(counts.at(-1)).toBe(7);
    expect(partsOf(events.at(-1)!)).toEqual([{ text: '' }]);
  });

  it('delivers each function call whole in one event, the first signed, then STOP', async () => {
    const { events } = await streamed({ contents: [askBoth], tools });
    const calls = events.flatMap((event) => callsOf(partsOf(event)));
    expect(calls.map((part) => part.functionCall)).toEqual([
      { name: 'get_weather', args: weatherArgs },
      { name: 'get_time', args: {} },
    ]);
    expect(events.filter((event) => callsOf(partsOf(event)).length > 0)).toHaveLength(2);
    expect(calls.map((part) => part.thoughtSignature !== undefined)).toEqual([true, false]);
    expect(calls[0]?.thoughtSignature).toBe((partsOf(await firstTurn())[0] as { thoughtSignature: string }).thoughtSignature);
    expect(events.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('round-trips a streamed call with its signature into a streamed final text', async () => {
    const { events } = await streamed({ contents: [askBoth], tools });
    const modelTurn = { role: 'model', parts: events.flatMap((event) => callsOf(partsOf(event))) };
    const final = await streamed({ contents: [askBoth, modelTurn, results()], tools });
    const text = final.events.map((event) => partsOf(event).map((part) => ('text' in part ? part.text : '')).join('')).join('');
    expect(text).toBe('Here is what I found: get_time: noon; get_weather: rain.');
  });

  it('answers 400 to streamGenerateContent without alt=sse', async () => {
    const response = await postGemini(sim, { contents: [askBoth] }, { stream: true, query: '' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  });
});

describe('recording and routing', () => {
  it('records the path, the query, the key header and the parsed body', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'rec' }] }] };
    await readAll(await postGemini(sim, body, { stream: true, model: 'gemini-2.5-flash' }));
    expect(sim.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent',
      query: 'alt=sse',
      body,
    });
    expect(sim.requests[0]?.headers['x-goog-api-key']).toBe(testKey);
    expect(sim.geminiBaseUrl).toBe(`http://127.0.0.1:${sim.port}/v1beta`);
  });

  it('answers other /v1beta paths with a Gemini 404', async () => {
    const response = await fetch(`${sim.geminiBaseUrl}/models/gemini-2.5-flash:tuneModel`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
  });
});
