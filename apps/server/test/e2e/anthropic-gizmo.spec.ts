import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { anthropicKind, openAiKind, startAnthropicRelay, textOf, toolUsesOf, type AnthropicE2e } from './anthropic-e2e';
import { createAssistant } from './gizmo-assistants';

const FAMILY = 'claude-sonnet-4-5';
const GIZMO = `${FAMILY}-gizmo-g-abc`;
const INSTRUCTIONS = 'You are a terse travel helper.';

/** The assistant's tools, as the admin API takes them (Chat Completions function tools). */
const cityTool = (name: string, description: string): OpenAI.Chat.Completions.ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
});
const citySchema = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

/** The request's tools in Anthropic's shape; its get_weather clashes with the assistant's and must win. */
const requestWeather: Anthropic.Tool = { name: 'get_weather', description: 'The caller’s weather', input_schema: citySchema };
const requestTime: Anthropic.Tool = { name: 'get_time', description: 'Local time in a city', input_schema: citySchema };
const callerSystem: Anthropic.TextBlockParam[] = [{ type: 'text', text: 'Answer in French.', cache_control: { type: 'ephemeral' } }];

// tool_choice none keeps the simulator answering in text although tools are offered.
const gizmoRequest: Anthropic.MessageCreateParamsNonStreaming = {
  model: GIZMO,
  max_tokens: 300,
  system: callerSystem,
  messages: [{ role: 'user', content: 'Hello there' }],
  tools: [requestWeather, requestTime],
  tool_choice: { type: 'none' },
};

interface UpstreamMessagesBody {
  model: string;
  system: unknown;
  tools: Array<{ name: string; description?: string; input_schema: unknown }>;
  [field: string]: unknown;
}
interface UpstreamChatBody {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  tools: Array<{ type: string; function: { name: string; description?: string } }>;
  [field: string]: unknown;
}

describe.each([anthropicKind, openAiKind])('e2e: a custom assistant called as <family>-gizmo-<id> on a $type channel', (kind) => {
  let e2e: AnthropicE2e;
  // The assistant sets temperature and top_p, which Claude Opus 4.1 and 4.5+ refuse together (as
  // the simulator does): an operator pairing them serves a model that takes both, Claude Sonnet 4.
  const upstreamModel = kind.type === 'anthropic' ? 'claude-sonnet-4-20250514' : kind.upstreamModel;

  beforeEach(async () => {
    e2e = await startAnthropicRelay(kind, { models: [FAMILY], model_mapping: { [FAMILY]: upstreamModel } });
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

  /** Asserts what the upstream received: the instructions first, the tools merged, the defaults filled. */
  function expectAssistantApplied(): void {
    const [call] = kind.calls(e2e.sim);
    if (kind === anthropicKind) {
      const body = call?.body as UpstreamMessagesBody;
      expect(body).toMatchObject({ model: upstreamModel, temperature: 0.2, top_p: 0.5, max_tokens: 300 });
      expect(body['tool_choice']).toEqual({ type: 'none' });
      // The caller's system blocks, cache_control kept, after the instructions.
      expect(body.system).toEqual([{ type: 'text', text: INSTRUCTIONS }, ...callerSystem]);
      const assistantFlight = { name: 'find_flight', description: 'Flights from a city', input_schema: citySchema };
      expect(body.tools).toEqual([assistantFlight, requestWeather, requestTime]);
    } else {
      const body = call?.body as UpstreamChatBody;
      expect(body).toMatchObject({ model: upstreamModel, temperature: 0.2, top_p: 0.5 });
      expect(body.messages[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
      expect(body.messages.slice(1).map((message) => message.role)).toEqual(['system', 'user']);
      expect(JSON.stringify(body.messages[1]?.content)).toContain('Answer in French.');
      expect(body.tools.map((tool) => [tool.function.name, tool.function.description])).toEqual([
        ['find_flight', 'Flights from a city'],
        ['get_weather', 'The caller’s weather'],
        ['get_time', 'Local time in a city'],
      ]);
    }
  }

  it('non-streamed: the upstream gets the instructions first and the merged tools; the answer and the log name the gizmo', async () => {
    const message = await e2e.anthropic.messages.create(gizmoRequest);

    expect(message.model).toBe(GIZMO);
    expect(textOf(message)).toBe('You said: Hello there');
    expectAssistantApplied();
    const [row] = (await e2e.usageRows(1)).slice(-1);
    expect(row).toMatchObject({ assistantId: 'g-abc', requestedModel: GIZMO, channelId: e2e.channel.id });
  });

  it('streamed: the same upstream request, message_start under the gizmo name', async () => {
    const final = await e2e.anthropic.messages.stream(gizmoRequest).finalMessage();

    expect(final.model).toBe(GIZMO);
    expect(textOf(final)).toBe('You said: Hello there');
    expectAssistantApplied();
  });

  it('the assistant’s own tool is offered and called when the request sends none', async () => {
    const message = await e2e.anthropic.messages.create({
      model: GIZMO,
      max_tokens: 300,
      messages: [{ role: 'user', content: 'Please find flight options from Paris' }],
    });

    expect(message.stop_reason).toBe('tool_use');
    expect(toolUsesOf(message).map((use) => use.name)).toEqual(['find_flight']);
    expect(toolUsesOf(message)[0]?.input).toEqual({ city: expect.any(String) });
  });

  it('count_tokens counts the prompt with the assistant applied', async () => {
    const bare = await e2e.anthropic.messages.countTokens({ model: FAMILY, messages: gizmoRequest.messages });
    const applied = await e2e.anthropic.messages.countTokens({ model: GIZMO, messages: gizmoRequest.messages });
    // The instructions and the assistant's two tools count.
    expect(applied.input_tokens).toBeGreaterThan(bare.input_tokens);
    if (kind === anthropicKind) {
      const counted = e2e.sim.requests.filter((request) => request.path === '/v1/messages/count_tokens').map((request) => request.body);
      expect(counted.at(-1)).toMatchObject({
        model: upstreamModel,
        system: INSTRUCTIONS,
        tools: [{ name: 'find_flight' }, { name: 'get_weather' }],
      });
    }
  });
});
