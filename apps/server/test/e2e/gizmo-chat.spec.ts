import type OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { asJson, createAssistant, upstreamChats } from './gizmo-assistants';
import { expectSpecValid } from './openai-spec';
import { collect } from './weather-tools';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatCompletionTool = OpenAI.Chat.Completions.ChatCompletionTool;

const GIZMO = 'gpt-4o-gizmo-g-helper1';
const INSTRUCTIONS = 'You are a terse travel helper.';

/** A function tool taking a city; only the name and description differ between them here. */
const cityTool = (name: string, description: string): ChatCompletionTool => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
});

const flightTool = cityTool('find_flight', 'Flights from a city');
const assistantWeather = cityTool('get_weather', 'Current weather in a city');
/** The same name as the assistant's `get_weather`, another description: this one must win. */
const requestWeather = cityTool('get_weather', 'The caller’s weather');
const requestTime = cityTool('get_time', 'Local time in a city');

/** Two caller system messages around a short dialogue: all must keep their order. */
const callerMessages: MessageParam[] = [
  { role: 'system', content: 'Answer in French.' },
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Bonjour.' },
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hello there' },
];

describe('e2e: chatting with a custom assistant as <family>-gizmo-<id>', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['gpt-4o', 'gpt-4o-mini'] });
    client = e2e.client();
    await createAssistant(e2e, {
      id: 'g-helper1',
      name: 'Helper',
      instructions: INSTRUCTIONS,
      tools: [flightTool, assistantWeather],
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 300,
    });
  });
  afterEach(() => e2e.close());

  // tool_choice 'none' keeps the simulator answering in text although tools are offered.
  const gizmoRequest = {
    model: GIZMO,
    messages: callerMessages,
    tools: [requestWeather, requestTime],
    tool_choice: 'none' as const,
  };

  /** What the upstream must receive for {@link gizmoRequest}: family, instructions first, tools merged, defaults. */
  const expectedUpstream = {
    model: 'gpt-4o',
    messages: [{ role: 'system', content: INSTRUCTIONS }, ...callerMessages],
    tools: [flightTool, requestWeather, requestTime],
    tool_choice: 'none',
    temperature: 0.2,
    top_p: 0.5,
    max_tokens: 300,
  };

  it('non-streamed: the upstream gets the family, the instructions first, merged tools and the defaults', async () => {
    const completion = await client.chat.completions.create(gizmoRequest);

    expectSpecValid('CreateChatCompletionResponse', asJson(completion));
    expect(completion.model).toBe(GIZMO);
    expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
    expect(completion.choices[0]?.finish_reason).toBe('stop');

    const [upstream] = upstreamChats(e2e.sim.requests);
    expect(upstream).toEqual(asJson(expectedUpstream));
    // The request's get_weather replaced the assistant's, in the request's position.
    expect(upstream?.tools?.map((tool) => [tool.function.name, tool.function.description])).toEqual([
      ['find_flight', 'Flights from a city'],
      ['get_weather', 'The caller’s weather'],
      ['get_time', 'Local time in a city'],
    ]);
  });

  it('streamed: every chunk (the usage chunk too) carries the gizmo name; the upstream gets the same request', async () => {
    const chunks = await collect(
      await client.chat.completions.create({ ...gizmoRequest, stream: true, stream_options: { include_usage: true } }),
    );

    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expectSpecValid('CreateChatCompletionStreamResponse', asJson(chunk));
      expect(chunk.model).toBe(GIZMO);
    }
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('You said: Hello there');
    expect(chunks.at(-1)?.usage?.total_tokens).toBeGreaterThan(0);

    const [upstream] = upstreamChats(e2e.sim.requests);
    expect(upstream).toEqual(asJson({ ...expectedUpstream, stream: true, stream_options: { include_usage: true } }));
  });

  it('keeps the caller’s own temperature, top_p and max_tokens (a 0 temperature included)', async () => {
    await client.chat.completions.create({ ...gizmoRequest, temperature: 0, top_p: 0.9, max_tokens: 50 });

    const [upstream] = upstreamChats(e2e.sim.requests);
    expect(upstream).toMatchObject({ model: 'gpt-4o', temperature: 0, top_p: 0.9, max_tokens: 50 });
  });

  it('adds no max_tokens when the caller set max_completion_tokens, but still fills the other defaults', async () => {
    await client.chat.completions.create({ ...gizmoRequest, max_completion_tokens: 40 });

    const [upstream] = upstreamChats(e2e.sim.requests);
    expect(upstream).toMatchObject({ max_completion_tokens: 40, temperature: 0.2, top_p: 0.5 });
    expect(upstream).not.toHaveProperty('max_tokens');
  });

  it('sends only the assistant’s tools and instructions when the caller sends none, on another allowed family', async () => {
    const user: MessageParam = { role: 'user', content: 'Hello there' };
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini-gizmo-g-helper1',
      messages: [user],
      tool_choice: 'none',
    });

    expect(completion.model).toBe('gpt-4o-mini-gizmo-g-helper1');
    const [upstream] = upstreamChats(e2e.sim.requests);
    expect(upstream).toEqual(
      asJson({
        model: 'gpt-4o-mini',
        messages: [{ role: 'system', content: INSTRUCTIONS }, user],
        tools: [flightTool, assistantWeather],
        tool_choice: 'none',
        temperature: 0.2,
        top_p: 0.5,
        max_tokens: 300,
      }),
    );
  });
});
