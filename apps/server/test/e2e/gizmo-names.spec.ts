import type { UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { asJson, createAssistant, rawChatError, sdkError, upstreamChats } from './gizmo-assistants';
import { expectSpecValid } from './openai-spec';
import { collect, weatherTools } from './weather-tools';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const messages: MessageParam[] = [
  { role: 'system', content: 'Caller system prompt.' },
  { role: 'user', content: 'Hello there' },
];

/** Close to `<family>-gizmo-g-<id>` but not it: each is a plain model name. */
const nearMisses = ['gpt-4-gizmo-g-', 'gpt-4-gizmo-x-abc', '-gizmo-g-abc', 'gizmo-g-abc', 'gpt-4-gizmo-g-abc-def'];

describe('e2e: gizmo-like names that are plain model names, and relay chaining', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    // `gpt-4` is served and g-abc exists: a name misread as gizmo would reach them, not 404.
    e2e = await startRelayWithSim({ models: ['gpt-4o', 'gpt-4'] });
    client = e2e.client();
    await createAssistant(e2e, { id: 'g-abc', name: 'Abc', instructions: 'Abc instructions.' });
  });
  afterEach(() => e2e.close());

  it.each(nearMisses)('%s: 404 model_not_found with the full name when no channel serves it', async (model) => {
    const error = await sdkError(client, { model, messages });
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
    expect(error.message).toContain(`'${model}'`);

    const raw = await rawChatError(e2e, { model, messages });
    expect(raw).toMatchObject({ status: 404, error: { code: 'model_not_found', param: 'model' } });
    expect(raw.error.message).toContain(`'${model}'`);
    expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
  });

  describe('with a channel listing the exact names', () => {
    let exact: UpstreamSim;

    beforeEach(async () => {
      exact = await e2e.startSim();
      await e2e.addChannel(exact.baseUrl, { name: 'exact names', models: nearMisses });
    });

    it.each(nearMisses)('%s: relayed unchanged, no system message added', async (model) => {
      const completion = await client.chat.completions.create({ model, messages });

      expect(completion.model).toBe(model);
      expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
      expect(upstreamChats(exact.requests)).toEqual([asJson({ model, messages })]);
      expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ requestedModel: model, upstreamModel: model, assistantId: null });
    });
  });

  describe('relay chaining: a channel serving *-gizmo-*', () => {
    let remote: UpstreamSim;

    beforeEach(async () => {
      remote = await e2e.startSim();
      await e2e.addChannel(remote.baseUrl, { name: 'another relay', models: ['*-gizmo-*'] });
    });

    const chained = { model: 'gpt-4o-gizmo-g-remote1', messages, tools: weatherTools, tool_choice: 'none' as const };

    it('non-streamed: an id unknown here goes to that channel with the full name and untouched messages', async () => {
      const completion = await client.chat.completions.create(chained);

      expectSpecValid('CreateChatCompletionResponse', asJson(completion));
      expect(completion.model).toBe('gpt-4o-gizmo-g-remote1');
      expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
      expect(upstreamChats(remote.requests)).toEqual([asJson(chained)]);
      expect(upstreamChats(e2e.sim.requests)).toHaveLength(0);
      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ upstreamModel: 'gpt-4o-gizmo-g-remote1', assistantId: null, status: 200 });
    });

    it('streamed: the same, every chunk named as the caller asked', async () => {
      const chunks = await collect(await client.chat.completions.create({ ...chained, stream: true }));

      for (const chunk of chunks) {
        expectSpecValid('CreateChatCompletionStreamResponse', asJson(chunk));
        expect(chunk.model).toBe('gpt-4o-gizmo-g-remote1');
      }
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('You said: Hello there');
      expect(upstreamChats(remote.requests)).toEqual([
        asJson({ ...chained, stream: true, stream_options: { include_usage: true } }),
      ]);
    });

    it('a local assistant with the id takes precedence: the family’s channel, instructions applied', async () => {
      await createAssistant(e2e, { id: 'g-remote1', name: 'Local now', instructions: 'Local instructions.' });

      const completion = await client.chat.completions.create(chained);

      expect(completion.model).toBe('gpt-4o-gizmo-g-remote1');
      expect(upstreamChats(remote.requests)).toHaveLength(0);
      expect(upstreamChats(e2e.sim.requests)).toEqual([
        asJson({ ...chained, model: 'gpt-4o', messages: [{ role: 'system', content: 'Local instructions.' }, ...messages] }),
      ]);
      const [row] = await e2e.usageRows(1);
      expect(row).toMatchObject({ assistantId: 'g-remote1', upstreamModel: 'gpt-4o', channelId: e2e.channel.id });
    });

    it('a local assistant that refuses the family still answers 400, not a chained request', async () => {
      await createAssistant(e2e, { id: 'g-remote1', name: 'Mini only', models: ['gpt-4o-mini'] });

      const error = await sdkError(client, chained);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, code: 'model_not_allowed' });
      expect(await rawChatError(e2e, chained)).toMatchObject({ status: 400, error: { code: 'model_not_allowed' } });
      expect(upstreamChats(remote.requests)).toHaveLength(0);
    });
  });
});
