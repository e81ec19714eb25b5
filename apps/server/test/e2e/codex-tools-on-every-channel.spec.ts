import { agentBody, agentHeaders, readAgentRequest, type AgentFixture } from './agent-fixtures';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesChannelKind, type ResponsesE2e } from './responses-e2e';
import { expectStreamSpecValid, prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS, responsesEventsOf, type ResponsesSseEvent } from './responses-spec-check';

/**
 * Issue 29, defect 1: Codex 0.171.0's recorded requests (test-fixtures/openai-responses/codex-0.171.0-*)
 * failed with a 400 on every bridged channel — its `namespace` tools, its `custom` freeform tools
 * (exec, apply_patch), `tool_search` and the `additional_tools` input item were refused. Each one
 * now completes on every channel type, and a custom tool round trip comes back as Codex sent it.
 */

type Item = Record<string, unknown>;

async function postRecorded(e2e: ResponsesE2e, fixture: AgentFixture, edit: (body: Item) => Item = (body) => body): Promise<ResponsesSseEvent[]> {
  const recorded = readAgentRequest(fixture);
  const body = edit({ ...agentBody(recorded), model: RESPONSES_MODEL });
  const response = await fetch(`${e2e.url}/v1/responses`, { method: 'POST', headers: agentHeaders(recorded, e2e.token), body: JSON.stringify(body) });
  const text = await response.text();
  expect({ status: response.status, body: response.status === 200 ? '' : text }).toEqual({ status: 200, body: '' });
  const events = responsesEventsOf(text);
  expectStreamSpecValid(events, { asOpenAiSends: false });
  return events;
}

function completedOutput(events: readonly ResponsesSseEvent[]): Item[] {
  const last = events.at(-1);
  expect(last?.data.type).toBe('response.completed');
  return (last?.data['response'] as { output: Item[] }).output;
}

/** The names of the tools the upstream was offered, in its own format. */
function offeredToolNames(kind: ResponsesChannelKind, e2e: ResponsesE2e): string[] {
  const body = kind.calls(e2e.sim).at(-1)?.body as Record<string, unknown>;
  if (kind.type === 'anthropic') return (body['tools'] as Array<{ name: string }>).map((tool) => tool.name);
  if (kind.type === 'gemini') {
    return (body['tools'] as Array<{ functionDeclarations?: Array<{ name: string }> }>).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name));
  }
  return (body['tools'] as Array<{ type: string; function?: { name: string }; custom?: { name: string } }>).map((tool) => tool.function?.name ?? tool.custom?.name ?? '');
}

beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);

describe.each(responsesChannelKinds.filter((kind) => !kind.native))('e2e: Codex 0.171.0 recorded requests bridged to a $name channel (issue 29)', (kind) => {
  let e2e: ResponsesE2e;

  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
  });
  afterEach(() => e2e.close());

  it('codex_additional_tools_namespace_custom_refused: the default model turn completes with the custom exec call in its namespace, and the round trip ends in text', async () => {
    const events = await postRecorded(e2e, 'codex');
    const names = offeredToolNames(kind, e2e);
    expect(names).toEqual(expect.arrayContaining(['functions__exec', 'functions__wait', 'clock__sleep', 'collaboration__spawn_agent']));

    const output = completedOutput(events);
    const call = output.find((item) => item['type'] === 'custom_tool_call');
    expect(call).toMatchObject({ type: 'custom_tool_call', namespace: 'functions', name: 'exec', status: 'completed' });
    expect(typeof call?.['input']).toBe('string');
    expect(events.some((event) => event.data.type === 'response.custom_tool_call_input.done')).toBe(true);

    const followUp = await postRecorded(e2e, 'codex', (body) => ({
      ...body,
      input: [
        ...(body['input'] as Item[]),
        { type: 'custom_tool_call', id: call?.['id'], status: 'completed', call_id: call?.['call_id'], name: 'exec', namespace: 'functions', input: call?.['input'] },
        { type: 'custom_tool_call_output', call_id: call?.['call_id'], output: [{ type: 'input_text', text: 'Script completed\nOutput:\nhi\n' }] },
      ],
    }));
    const text = completedOutput(followUp).filter((item) => item['type'] === 'message');
    expect(JSON.stringify(text)).toContain('Script completed');
  });

  it('codex_recorded_tool_result_refused: the recorded turn after the exec custom call (custom_tool_call + output) completes', async () => {
    const output = completedOutput(await postRecorded(e2e, 'codexToolResult'));
    expect(output.some((item) => item['type'] === 'message')).toBe(true);
    const sent = JSON.stringify(kind.calls(e2e.sim).at(-1)?.body);
    expect(sent).toContain('text(await tools.exec_command');
  });

  it('codex_custom_apply_patch_and_tool_search_refused: gpt-5.5 shapes (custom apply_patch, tool_search) complete; tool_search is not offered', async () => {
    await postRecorded(e2e, 'codexGpt55');
    const names = offeredToolNames(kind, e2e);
    expect(names).toEqual(expect.arrayContaining(['exec_command', 'apply_patch']));
    expect(names).not.toContain('tool_search');
    await postRecorded(e2e, 'codexGpt55ToolResult');
  });

  it('codex_apply_patch_round_trip: asked to patch, the model calls the custom apply_patch with a patch; its output goes back and the turn ends in text', async () => {
    const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\n';
    const askToPatch = (body: Item): Item => {
      const input = body['input'] as Item[];
      return { ...body, input: [...input.slice(0, -1), { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Use apply_patch to add hello.txt' }] }] };
    };
    const events = await postRecorded(e2e, 'codexGpt55', askToPatch);
    const call = completedOutput(events).find((item) => item['type'] === 'custom_tool_call');
    expect(call).toMatchObject({ name: 'apply_patch', input: PATCH, status: 'completed' });
    expect(call).not.toHaveProperty('namespace');
    const inputDeltas = events.filter((event) => event.data.type === 'response.custom_tool_call_input.delta').map((event) => event.data['delta']);
    expect(inputDeltas.join('')).toBe(PATCH);

    const followUp = await postRecorded(e2e, 'codexGpt55', (body) => {
      const asked = askToPatch(body);
      const output = 'Success. Updated the following files:\nA hello.txt\n';
      const items = [{ type: 'custom_tool_call', call_id: call?.['call_id'], name: 'apply_patch', input: PATCH }, { type: 'custom_tool_call_output', call_id: call?.['call_id'], output }];
      return { ...asked, input: [...(asked['input'] as Item[]), ...items] };
    });
    expect(JSON.stringify(completedOutput(followUp))).toContain('apply_patch: Success. Updated the following files');
  });

  it('codex_namespace_tool_refused: the namespace multi_agent_v1 (sent for a model Codex does not know) is offered as prefixed functions', async () => {
    await postRecorded(e2e, 'codexGpt4o');
    expect(offeredToolNames(kind, e2e)).toEqual(expect.arrayContaining(['exec_command', 'multi_agent_v1__close_agent']));
  });
});
