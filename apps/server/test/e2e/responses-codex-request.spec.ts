import { argumentsJsonFromSchema } from '@chat-relay/upstream-sim';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { SIM_KEY, startE2eRelay, type E2eRelay } from './e2e-relay';
import { startForwardingUpstream, type ForwardingUpstream } from './forwarding-upstream';
import { usageRowsFor } from './usage-rows-for';
import { codexRequest, developerText, environmentText, instructions, shellTool, task } from './codex-request';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesE2e } from './responses-e2e';
import { expectStreamSpecValid, prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS, responsesEventsOf, type ResponsesSseEvent } from './responses-spec-check';


/** As codex-rs sends it: compact JSON (serde_json), model first. */
const codexText = (body: object = codexRequest): string => JSON.stringify(body);

const postCodex = (e2e: E2eRelay, text: string): Promise<Response> =>
  fetch(`${e2e.url}/v1/responses`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${e2e.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'openai-beta': 'responses=experimental',
      originator: 'codex_cli_rs',
      session_id: codexRequest.prompt_cache_key,
    },
    body: text,
  });

interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  arguments: string;
}

/** The stream's terminal `response.completed` Response. */
function completedOf(events: readonly ResponsesSseEvent[]): Record<string, unknown> & { id: string; output: Array<Record<string, unknown>> } {
  const last = events.at(-1);
  expect(last?.data.type).toBe('response.completed');
  return last?.data['response'] as Record<string, unknown> & { id: string; output: Array<Record<string, unknown>> };
}

/** A Codex stream, read whole: 200, event-stream, sequence numbers rising from 0, valid per OpenAI's description. */
async function readCodexStream(response: Response, asOpenAiSends: boolean): Promise<ResponsesSseEvent[]> {
  const text = await response.text();
  expect({ status: response.status, body: response.status === 200 ? '' : text }).toEqual({ status: 200, body: '' });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = responsesEventsOf(text);
  expectStreamSpecValid(events, { asOpenAiSends });
  const numbers = events.map((event) => event.data.sequence_number);
  expect(numbers).toEqual(numbers.map((_, index) => index));
  return events;
}

const expectedShellArguments = argumentsJsonFromSchema(shellTool.parameters);

/** The one call Codex gets: `shell`, with the arguments the simulator builds from its schema. */
function expectShellCall(completed: { output: Array<Record<string, unknown>> }): FunctionCallItem {
  const calls = completed.output.filter((item) => item['type'] === 'function_call') as unknown as FunctionCallItem[];
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ name: 'shell', arguments: expectedShellArguments });
  return calls[0]!;
}

/** Codex's next turn: everything again, plus the call and what the command printed. */
function nextTurn(call: FunctionCallItem, body: typeof codexRequest = codexRequest): typeof codexRequest {
  return {
    ...body,
    input: [
      ...body.input,
      { type: 'function_call', id: call.id, call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: 'README.md\npackage.json\nsrc' },
    ],
  };
}

async function usageRowFor(e2e: E2eRelay, requestId: string | null): Promise<StoredUsageLogEntry | undefined> {
  const [row] = await usageRowsFor(e2e, [requestId]);
  return row;
}

beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);

describe('e2e: a Codex request on a native Responses channel passes through', () => {
  // Codex asks for a reasoning effort, which gpt-4.1 refuses (as the simulator does): a Codex model.
  const native = { ...responsesChannelKinds.find((kind) => kind.native)!, upstreamModel: 'gpt-5-mini' };
  let e2e: E2eRelay;
  let hop: ForwardingUpstream;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    hop = await startForwardingUpstream(new URL(sim.baseUrl).origin);
    await e2e.addChannel(hop.baseUrl, { type: 'openai', models: [RESPONSES_MODEL], model_mapping: { [RESPONSES_MODEL]: native.upstreamModel } });
  });
  afterEach(async () => {
    await e2e.close();
    await hop.close();
  });

  it('the upstream gets the caller’s bytes with only the model mapped; the stream comes back valid, under the caller’s model, and is billed', async () => {
    const sent = codexText();
    const response = await postCodex(e2e, sent);
    const events = await readCodexStream(response, true);

    const [call, ...others] = hop.calls;
    expect(others).toEqual([]);
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe('/v1/responses');
    expect(call?.body.toString('utf8')).toBe(sent.replace(`"model":"${RESPONSES_MODEL}"`, `"model":"${native.upstreamModel}"`));
    expect(call?.headers.authorization).toBe(`Bearer ${SIM_KEY}`);
    expect(JSON.stringify(call?.headers)).not.toContain(e2e.token);

    const completed = completedOf(events);
    expect(completed).toMatchObject({
      model: RESPONSES_MODEL,
      status: 'completed',
      store: false,
      instructions,
      parallel_tool_calls: false,
      tool_choice: 'auto',
      prompt_cache_key: codexRequest.prompt_cache_key,
      reasoning: { effort: 'medium', summary: 'auto' },
    });
    expectShellCall(completed);
    const lifecycleModels = events.flatMap((event) => (event.data['response'] ? [(event.data['response'] as { model: string }).model] : []));
    expect(new Set(lifecycleModels)).toEqual(new Set([RESPONSES_MODEL]));

    const row = await usageRowFor(e2e, response.headers.get('x-request-id'));
    const usage = completed['usage'] as { input_tokens: number; output_tokens: number };
    expect(row).toMatchObject({ requestedModel: RESPONSES_MODEL, upstreamModel: native.upstreamModel, stream: true, status: 200 });
    expect([row?.promptTokens, row?.completionTokens]).toEqual([usage.input_tokens, usage.output_tokens]);
    expect(usage.input_tokens).toBeGreaterThan(0);
  });

  it('Codex’s next turn (the call and its output resent, nothing stored): passed through byte for byte, answered with text', async () => {
    const first = await readCodexStream(await postCodex(e2e, codexText()), true);
    const sent = codexText(nextTurn(expectShellCall(completedOf(first))));
    const events = await readCodexStream(await postCodex(e2e, sent), true);

    expect(hop.calls.at(-1)?.body.toString('utf8')).toBe(sent.replace(`"model":"${RESPONSES_MODEL}"`, `"model":"${native.upstreamModel}"`));
    const completed = completedOf(events);
    expect(completed.output.map((item) => item['type'])).toEqual(['message']);
    const deltas = events.filter((event) => event.data.type === 'response.output_text.delta').map((event) => event.data['delta']);
    expect(deltas.join('')).toBe('Here is what I found: shell: README.md\npackage.json\nsrc.');
  });

  it('bytes a re-serialisation would change (indentation, \\u escapes) still arrive as sent, the model swapped in place', async () => {
    // As Python's json.dumps(indent=2) writes it: non-ASCII escaped, a space after each colon.
    const sent = JSON.stringify(codexRequest, null, 2).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(sent).toContain('\\u2019');
    await readCodexStream(await postCodex(e2e, sent), true);
    expect(hop.calls[0]?.body.toString('utf8')).toBe(sent.replace(`"model": "${RESPONSES_MODEL}"`, `"model": "${native.upstreamModel}"`));
  });
});

describe.each(responsesChannelKinds.filter((kind) => !kind.native))('e2e: a Codex request bridged to a $name channel', (kind) => {
  let e2e: ResponsesE2e;

  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
  });
  afterEach(() => e2e.close());

  /** The upstream's last model call, as JSON text: where instructions, messages and tools can be looked for whatever the format. */
  const lastCallText = () => JSON.stringify(kind.calls(e2e.sim).at(-1)?.body ?? null);

  /** Both tools, the instructions, the developer and user texts reached the upstream, in its own format. */
  function expectPromptBridged(sent: Partial<typeof codexRequest>): void {
    const body = kind.calls(e2e.sim).at(-1)?.body as Record<string, unknown>;
    const text = lastCallText();
    for (const part of [instructions, developerText, environmentText, task]) expect(text).toContain(JSON.stringify(part).slice(1, -1));
    const toolNames =
      kind.type === 'openai'
        ? (body['tools'] as Array<{ function: { name: string } }>).map((tool) => tool.function.name)
        : kind.type === 'anthropic'
          ? (body['tools'] as Array<{ name: string }>).map((tool) => tool.name)
          : (body['tools'] as Array<{ functionDeclarations: Array<{ name: string }> }>).flatMap((tool) => tool.functionDeclarations.map((declaration) => declaration.name));
    expect(toolNames).toEqual(['shell', 'update_plan']);
    if (kind.type === 'openai') {
      const messages = body['messages'] as Array<{ role: string; content: unknown }>;
      expect(messages[0]).toEqual({ role: 'system', content: instructions });
      expect(body).toMatchObject({ tool_choice: 'auto', prompt_cache_key: codexRequest.prompt_cache_key });
      expect(body['parallel_tool_calls']).toBe(sent.parallel_tool_calls);
    }
    if (kind.type === 'anthropic') expect(JSON.stringify(body['system'])).toContain(JSON.stringify(instructions).slice(1, -1));
    if (kind.type === 'gemini') expect(JSON.stringify(body['systemInstruction'])).toContain(JSON.stringify(instructions).slice(1, -1));
  }

  it('as Codex sends it: a valid stream, completed with the shell call; the upstream got the instructions, messages and tools', async () => {
    const response = await postCodex(e2e, codexText());
    const events = await readCodexStream(response, false);
    const completed = completedOf(events);
    expect(completed).toMatchObject({ model: RESPONSES_MODEL, status: 'completed', store: false, instructions, parallel_tool_calls: false });
    expectShellCall(completed);
    expectPromptBridged(codexRequest);

    const row = await usageRowFor(e2e, response.headers.get('x-request-id'));
    expect(row).toMatchObject({ channelId: e2e.channel.id, upstreamModel: kind.upstreamModel, stream: true, status: 200 });
    expect(row?.promptTokens).toBeGreaterThan(0);
  });

  it('without reasoning and parallel_tool_calls: the instructions, messages and both tools reach the upstream, and the next turn answers with text', async () => {
    const { reasoning: _reasoning, parallel_tool_calls: _parallel, ...rest } = codexRequest;
    const plainer = rest as typeof codexRequest;
    const events = await readCodexStream(await postCodex(e2e, codexText(plainer)), false);
    const call = expectShellCall(completedOf(events));
    expectPromptBridged(plainer);

    const next = await readCodexStream(await postCodex(e2e, codexText(nextTurn(call, plainer))), false);
    const completed = completedOf(next);
    expect(completed.output.map((item) => item['type'])).toEqual(['message']);
    expect(lastCallText()).toContain('README.md');
    const text = next.filter((event) => event.data.type === 'response.output_text.delta').map((event) => event.data['delta']).join('');
    expect(text).toBe('Here is what I found: shell: README.md\npackage.json\nsrc.');
  });
});
