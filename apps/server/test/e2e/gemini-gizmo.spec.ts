import { FunctionCallingConfigMode, type FunctionDeclaration, type GenerateContentParameters } from '@google/genai';
import type OpenAI from 'openai';
import { anthropicKind, channelKinds, geminiKind } from './anthropic-e2e';
import { GEMINI, startGeminiRelay, type GeminiE2e } from './gemini-e2e';
import { createAssistant } from './gizmo-assistants';
import { usageRowsFor } from './usage-rows-for';

const GIZMO = `${GEMINI}-gizmo-g-abc`;
const INSTRUCTIONS = 'You are a terse travel helper.';
const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

/** The assistant's tools, as the admin API takes them (Chat Completions function tools). */
const cityTool = (name: string, description: string): OpenAI.Chat.Completions.ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters: citySchema },
});

/** The request's functions; its get_weather clashes with the assistant's and must win. */
const requestWeather: FunctionDeclaration = { name: 'get_weather', description: 'The caller’s weather', parametersJsonSchema: citySchema };

// Mode NONE keeps the simulator answering in text although functions are offered.
const gizmoRequest: GenerateContentParameters = {
  model: GIZMO,
  contents: 'Hello there',
  config: {
    systemInstruction: 'Answer in French.',
    tools: [{ functionDeclarations: [requestWeather] }],
    toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } },
  },
};

interface Upstream {
  [field: string]: unknown;
}

describe.each(channelKinds)('e2e: a custom assistant called as <family>-gizmo-<id> through @google/genai on a $type channel', (kind) => {
  let e2e: GeminiE2e;

  beforeEach(async () => {
    e2e = await startGeminiRelay(kind);
    await createAssistant(e2e, {
      id: 'g-abc',
      name: 'Travel helper',
      instructions: INSTRUCTIONS,
      tools: [cityTool('find_flight', 'Flights from a city'), cityTool('get_weather', 'Current weather in a city')],
      temperature: 0.2,
      top_p: 0.5,
    });
  });
  afterEach(() => e2e.close());

  /** What the upstream received: the family's model, the instructions first, the tools merged, the defaults filled. */
  function expectAssistantApplied(): void {
    const [call] = kind.calls(e2e.sim);
    const body = call?.body as Upstream;
    if (kind === geminiKind) {
      expect(call?.path).toMatch(new RegExp(`/models/${kind.upstreamModel}:`));
      expect(body['systemInstruction']).toEqual({ role: 'user', parts: [{ text: INSTRUCTIONS }, { text: 'Answer in French.' }] });
      expect(body['tools']).toEqual([
        {
          functionDeclarations: [
            { name: 'find_flight', description: 'Flights from a city', parametersJsonSchema: citySchema },
            { name: 'get_weather', description: 'The caller’s weather', parametersJsonSchema: citySchema },
          ],
        },
      ]);
      expect(body['generationConfig']).toMatchObject({ temperature: 0.2, topP: 0.5 });
    } else if (kind === anthropicKind) {
      // Claude Opus 4.5 takes temperature or top_p, not both: the bridged request keeps temperature (issue 28).
      expect(body).toMatchObject({ model: kind.upstreamModel, temperature: 0.2 });
      expect(body).not.toHaveProperty('top_p');
      expect(JSON.stringify(body['system'])).toMatch(new RegExp(`${INSTRUCTIONS}.*Answer in French\\.`));
      expect((body['tools'] as Array<{ name: string; description: string }>).map((tool) => [tool.name, tool.description])).toEqual([
        ['find_flight', 'Flights from a city'],
        ['get_weather', 'The caller’s weather'],
      ]);
    } else {
      expect(body).toMatchObject({ model: kind.upstreamModel, temperature: 0.2, top_p: 0.5 });
      const messages = body['messages'] as Array<{ role: string; content: unknown }>;
      expect(messages.slice(0, 2)).toEqual([
        { role: 'system', content: INSTRUCTIONS },
        { role: 'system', content: 'Answer in French.' },
      ]);
      const tools = body['tools'] as Array<{ function: { name: string; description: string } }>;
      expect(tools.map((tool) => [tool.function.name, tool.function.description])).toEqual([
        ['find_flight', 'Flights from a city'],
        ['get_weather', 'The caller’s weather'],
      ]);
    }
  }

  it('non-streamed: the upstream gets the instructions first and the merged tools; the answer and the row name the gizmo', async () => {
    const answer = await e2e.genai.models.generateContent(gizmoRequest);

    expect(answer.modelVersion).toBe(GIZMO);
    expect(answer.text).toBe('You said: Hello there');
    expectAssistantApplied();
    const [row] = await usageRowsFor(e2e, [answer.sdkHttpResponse?.headers?.['x-request-id']]);
    expect(row).toMatchObject({ assistantId: 'g-abc', requestedModel: GIZMO, upstreamModel: kind.upstreamModel, channelId: e2e.channel.id });
  });

  it('streamed: the same upstream request, every chunk under the gizmo name', async () => {
    let text = '';
    for await (const chunk of await e2e.genai.models.generateContentStream(gizmoRequest)) {
      expect(chunk.modelVersion).toBe(GIZMO);
      text += chunk.text ?? '';
    }
    expect(text).toBe('You said: Hello there');
    expectAssistantApplied();
  });

  it('countTokens counts the assistant’s instructions and tools, as they would be sent (a gemini channel asked with them)', async () => {
    const gizmo = await e2e.genai.models.countTokens({ model: GIZMO, contents: 'Hello there' });
    const family = await e2e.genai.models.countTokens({ model: GEMINI, contents: 'Hello there' });
    expect(gizmo.totalTokens).toBeGreaterThan(family.totalTokens ?? 0);
    if (kind === geminiKind) {
      const [call] = e2e.sim.requests;
      expect(call?.path).toBe(`/v1beta/models/${kind.upstreamModel}:countTokens`);
      const asked = (call?.body as { generateContentRequest: Upstream }).generateContentRequest;
      expect(asked).toMatchObject({ model: `models/${kind.upstreamModel}`, systemInstruction: { parts: [{ text: INSTRUCTIONS }] } });
    }
    // The relay's tokenizer loads on its first count: seconds on a busy machine.
  }, 20_000);

  it('the assistant’s own function is offered and called when the request declares none', async () => {
    const answer = await e2e.genai.models.generateContent({ model: GIZMO, contents: 'Please find flight options from Paris' });
    expect(answer.functionCalls?.map((call) => call.name)).toEqual(['find_flight']);
    expect(answer.functionCalls?.[0]?.args).toEqual({ city: expect.any(String) });
  });
});
