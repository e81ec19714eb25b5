import type { StreamTransformerOptions } from '../../hub/upstream-adapter';
import { ResponsesPassthroughStream } from './responses-passthrough-stream';
import { tallyResponsesRun } from './tally-responses-run';

/** Output items in the shapes of OpenAI's API reference (WebSearchToolCall, ImageGenToolCall, CodeInterpreterToolCall, FileSearchToolCall). */
const webSearch = (id: string, status = 'completed') => ({ id, type: 'web_search_call', status, action: { type: 'search', query: 'rust 1.80' } });
const image = { id: 'ig_1', type: 'image_generation_call', status: 'completed', result: 'iVBORw0KGgo=' };
const code = { id: 'ci_1', type: 'code_interpreter_call', status: 'completed', container_id: 'cntr_9', code: 'print(1)', outputs: null };
const files = { id: 'fs_1', type: 'file_search_call', status: 'completed', queries: ['q'], results: null };
const message = { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'ok', annotations: [] }] };

const options: StreamTransformerOptions = { publicModel: 'gpt-4o-mini', callerWantsUsage: false, secrets: [] };
const sse = (data: Record<string, unknown>) => ({ event: String(data['type']), data: JSON.stringify(data) });

describe('tallyResponsesRun', () => {
  it('counts the hosted calls of a Response by kind (a failed one not), and the items and container it created', () => {
    const run = tallyResponsesRun({ service_tier: 'priority', output: [webSearch('ws_1'), webSearch('ws_2'), webSearch('ws_3', 'failed'), image, code, files, message] });
    expect(run.toolCalls).toEqual({ web_search: 2, image_generation: 1, code_execution: 1, file_search: 1 });
    expect(run.serviceTier).toBe('priority');
    expect(run.created).toEqual([
      { kind: 'item', id: 'ws_1' },
      { kind: 'item', id: 'ws_2' },
      { kind: 'item', id: 'ws_3' },
      { kind: 'item', id: 'ig_1' },
      { kind: 'item', id: 'ci_1' },
      { kind: 'container', id: 'cntr_9' },
      { kind: 'item', id: 'fs_1' },
      { kind: 'item', id: 'msg_1' },
    ]);
  });

  it('the calls the caller runs are no hosted calls; a shell call in a container of the provider’s is code execution', () => {
    const local = { id: 'sh_1', type: 'shell_call', call_id: 'call_1', status: 'completed', action: { commands: ['ls'] }, environment: { type: 'local' } };
    const hosted = { id: 'sh_2', type: 'shell_call', call_id: 'call_2', status: 'completed', action: { commands: ['ls'] }, environment: { type: 'container_reference', container_id: 'cntr_5' } };
    const others = [
      { id: 'lsh_1', type: 'local_shell_call', call_id: 'call_3', status: 'completed', action: { type: 'exec', command: ['ls'], env: {} } },
      { id: 'ap_1', type: 'apply_patch_call', call_id: 'call_4', status: 'completed', operation: { type: 'create_file', path: 'a', diff: '' } },
      { id: 'cu_1', type: 'computer_call', call_id: 'call_5', status: 'completed', action: { type: 'screenshot' }, pending_safety_checks: [] },
      { id: 'ts_1', type: 'tool_search_call', status: 'completed' },
    ];
    const run = tallyResponsesRun({ output: [local, hosted, ...others] });
    expect(run.toolCalls).toEqual({ code_execution: 1 });
    expect(run.created).toContainEqual({ kind: 'container', id: 'cntr_5' });
  });

  it('a standard tier answered is `default`; none said, none', () => {
    expect(tallyResponsesRun({ service_tier: 'auto', output: [] }).serviceTier).toBe('default');
    expect(tallyResponsesRun({ output: [] }).serviceTier).toBeUndefined();
  });
});

describe('ResponsesPassthroughStream: what ran', () => {
  it('counts a hosted call once from its added and done events, before the stream ends', () => {
    const stream = new ResponsesPassthroughStream(options);
    stream.transform(sse({ type: 'response.created', response: { id: 'resp_1', output: [], usage: null }, sequence_number: 0 }));
    stream.transform(sse({ type: 'response.output_item.added', output_index: 0, item: { ...webSearch('ws_1'), status: 'in_progress' }, sequence_number: 1 }));
    stream.transform(sse({ type: 'response.web_search_call.searching', output_index: 0, item_id: 'ws_1', sequence_number: 2 }));
    stream.transform(sse({ type: 'response.output_item.done', output_index: 0, item: webSearch('ws_1'), sequence_number: 3 }));
    // Cut here: what ran is known all the same.
    expect(stream.ran.toolCalls).toEqual({ web_search: 1 });
    const final = { id: 'resp_1', service_tier: 'default', output: [webSearch('ws_1'), message], usage: { input_tokens: 5, output_tokens: 2 } };
    stream.transform(sse({ type: 'response.completed', response: final, sequence_number: 4 }));
    expect(stream.ran).toEqual({ toolCalls: { web_search: 1 }, serviceTier: 'default', created: [{ kind: 'item', id: 'ws_1' }, { kind: 'item', id: 'msg_1' }] });
  });
});
