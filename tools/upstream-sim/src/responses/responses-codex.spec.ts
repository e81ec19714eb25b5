import { readFileSync } from 'node:fs';
import path from 'node:path';
import OpenAI from 'openai';
import { startUpstreamSim } from '../sim-server';
import { postResponses, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { expectSpecValid, specValidEvents, warmSpecChecker } from './testing/openai-spec-check';

// Codex 0.171.0 with its default model on a channel that speaks Responses natively (issue 29):
// its tools arrive in an `additional_tools` input item (namespaces holding a custom JavaScript
// `exec` tool and functions), not in `tools`. The simulator's model must call them as OpenAI's
// does — a `custom_tool_call` in namespace `functions` — and answer the tool's result after it.
// Requests as Codex sent them: test-fixtures/openai-responses (SOURCES.md says how they were recorded).

type Body = Record<string, unknown> & { input: Record<string, unknown>[] };

const fixtures = path.resolve(__dirname, '../../../../test-fixtures/openai-responses');
function codexBody(name: string): Body {
  return (JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')) as { body: Body }).body;
}

/** The request with its last user message saying `text` instead of "say hi". */
function saying(body: Body, text: string): Body {
  const input = [...body.input];
  const last = input.findLastIndex((item) => item['role'] === 'user');
  input[last] = { ...input[last], content: [{ type: 'input_text', text }] };
  return { ...body, input };
}

/** Codex's default model on the channel the agents suite maps it to. */
const onSim = (body: Body, stream: boolean): Body => ({ ...body, model: 'gpt-5', stream });
const COMMAND_PROMPT = "Use bash: run shell command exec `printf 'first-turn-%s' 42` and report its output.";
const COMMAND_SCRIPT = `text(await tools.exec_command({ cmd: "printf 'first-turn-%s' 42" }));`;

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
}, 30_000);
afterAll(() => sim.close());

async function created(body: Record<string, unknown>): Promise<{ output: Record<string, unknown>[] } & Record<string, unknown>> {
  const response = await postResponses(sim, body);
  const json = (await response.json()) as { output: Record<string, unknown>[] } & Record<string, unknown>;
  expect({ status: response.status, json }).toMatchObject({ status: 200 });
  return json;
}

describe("Codex's default tools on the Responses surface (additional_tools, namespace, custom)", () => {
  it('calls the custom exec tool of namespace functions from an additional_tools item, not "You said"', async () => {
    const response = await created(onSim(codexBody('codex-0.171.0-request.json'), false));
    expectSpecValid('Response', response);
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^ctc_/),
        type: 'custom_tool_call',
        status: 'completed',
        call_id: expect.stringMatching(/^call_/),
        input: 'text("hi");',
        name: 'exec',
        namespace: 'functions',
      },
    ]);
  });

  it('writes a script that runs the command the user asked for', async () => {
    const response = await created(onSim(saying(codexBody('codex-0.171.0-request.json'), COMMAND_PROMPT), false));
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', namespace: 'functions', input: COMMAND_SCRIPT })]);
  });

  it('streams the custom call: input deltas joining into the script, every event spec-valid', async () => {
    const response = await postResponses(sim, onSim(saying(codexBody('codex-0.171.0-request.json'), COMMAND_PROMPT), true));
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeUndefined();
    const events = specValidEvents(text);
    const types = events.map((event) => event.data.type);
    expect(types.filter((type) => !type.endsWith('.delta'))).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const added = events[2]?.data['item'];
    expect(added).toMatchObject({ type: 'custom_tool_call', status: 'in_progress', input: '', name: 'exec', namespace: 'functions' });
    const deltas = events.filter((event) => event.data.type === 'response.custom_tool_call_input.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.data['delta']).join('')).toBe(COMMAND_SCRIPT);
    expect(events.find((event) => event.data.type === 'response.custom_tool_call_input.done')?.data).toMatchObject({ input: COMMAND_SCRIPT, output_index: 0 });
    expect(events.at(-1)?.data['response']).toMatchObject({ output: [{ type: 'custom_tool_call', name: 'exec', namespace: 'functions', input: COMMAND_SCRIPT }] });
  });

  it('is read as a custom tool call by the official SDK stream helper', async () => {
    const client = new OpenAI({ apiKey: testKey, baseURL: sim.baseUrl, maxRetries: 0 });
    const body = onSim(saying(codexBody('codex-0.171.0-request.json'), COMMAND_PROMPT), true);
    const stream = client.responses.stream(body as unknown as Parameters<typeof client.responses.stream>[0]);
    const deltas: string[] = [];
    stream.on('response.custom_tool_call_input.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas.join('')).toBe(COMMAND_SCRIPT);
    expect(final.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', namespace: 'functions', input: COMMAND_SCRIPT })]);
  });

  it("answers the exec tool's result (custom_tool_call + custom_tool_call_output in the input) with text", async () => {
    const response = await created(onSim(codexBody('codex-0.171.0-tool-result-request.json'), false));
    expectSpecValid('Response', response);
    expect(response.output).toEqual([expect.objectContaining({ type: 'message', role: 'assistant' })]);
    const text = (response.output[0]?.['content'] as { text: string }[])[0]?.text;
    // The tool's output (`"output":"hi\n"` in the second part), not an echo of "say hi".
    expect(text).toMatch(/^Here is what I found: functions__exec: Script completed/);
    expect(text).toContain('"output":"hi\\n"');
  });

  it('calls a namespaced function as a function_call with its namespace, and reads one back from the history', async () => {
    const body = saying(codexBody('codex-0.171.0-request.json'), 'collaboration: list agents');
    const response = await created(onSim(body, false));
    expect(response.output).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'list_agents', namespace: 'collaboration', call_id: expect.stringMatching(/^call_/) }),
    ]);
    const call = response.output[0] ?? {};
    const next = await created(
      onSim({ ...body, input: [...body.input, call, { type: 'function_call_output', call_id: call['call_id'], output: 'no agents' }] }, false),
    );
    expect(next.output).toEqual([
      expect.objectContaining({ type: 'message', content: [expect.objectContaining({ text: 'Here is what I found: collaboration__list_agents: no agents.' })] }),
    ]);
  });

  it('offers custom tools sent in `tools` too, and ignores tool_search (OpenAI runs it)', async () => {
    const response = await created({
      model: 'gpt-5',
      input: 'run `ls`',
      tools: [
        { type: 'tool_search', execution: 'client' },
        { type: 'custom', name: 'js', description: 'Runs JavaScript', format: { type: 'text' } },
      ],
    });
    expectSpecValid('Response', response);
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'js', input: 'text(await tools.exec_command({ cmd: "ls" }));' })]);
    expect(response.output[0]).not.toHaveProperty('namespace');
  });

  it('forces a custom tool named by tool_choice {type: custom, name}', async () => {
    const patch = { type: 'custom', name: 'apply_patch', description: 'Edit files: *** Begin Patch ...' };
    const response = await created({
      model: 'gpt-5',
      input: 'run `ls`',
      tools: [{ type: 'custom', name: 'js', description: 'Runs JavaScript' }, patch],
      tool_choice: { type: 'custom', name: 'apply_patch' },
    });
    expect(response.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', input: expect.stringMatching(/^\*\*\* Begin Patch/) })]);
  });
});

describe('namespaces and additional_tools items OpenAI refuses (OpenAPI NamespaceToolParam, AdditionalToolsItemParam)', () => {
  const exec = { type: 'custom', name: 'exec', description: 'Runs JavaScript' };
  const namespace = (fields: Record<string, unknown>) => ({ type: 'namespace', name: 'functions', description: '', tools: [exec], ...fields });
  const additional = (fields: Record<string, unknown>) => ({ type: 'additional_tools', role: 'developer', tools: [namespace({})], ...fields });

  it.each([
    ['a namespace without tools', { tools: [namespace({ tools: [] })] }, 'tools[0].tools', 'missing_required_parameter'],
    ['a namespace with an empty name', { tools: [namespace({ name: '' })] }, 'tools[0].name', 'missing_required_parameter'],
    ['a hosted tool inside a namespace', { tools: [namespace({ tools: [{ type: 'web_search' }] })] }, 'tools[0].tools[0].type', 'invalid_value'],
    ['additional_tools from the user', { input: [additional({ role: 'user' }), { role: 'user', content: 'hi' }] }, 'input[0].role', 'invalid_value'],
    ['additional_tools without tools', { input: [additional({ tools: undefined }), { role: 'user', content: 'hi' }] }, 'input[0].tools', 'missing_required_parameter'],
    [
      'an unknown tool type in additional_tools',
      { input: [{ role: 'user', content: 'hi' }, additional({ tools: [{ type: 'teleport' }] })] },
      'input[1].tools[0].type',
      'invalid_value',
    ],
    [
      'a bad namespace in additional_tools',
      { input: [additional({ tools: [namespace({ tools: [{ type: 'namespace', name: 'inner', tools: [exec] }] })] })] },
      'input[0].tools[0].tools[0].type',
      'invalid_value',
    ],
  ])('refuses %s', async (_case, fields, param, code) => {
    const response = await postResponses(sim, { model: 'gpt-5', input: 'hi', ...fields });
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect({ status: response.status, param: error['param'], code: error['code'], type: error['type'] }).toEqual({ status: 400, param, code, type: 'invalid_request_error' });
  });
});
