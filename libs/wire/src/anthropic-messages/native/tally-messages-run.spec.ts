import type { StreamTransformerOptions } from '../../hub/upstream-adapter';
import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';
import { anthropicNativeAdapter } from './anthropic-native-adapter';

/**
 * A message with a web search, as Anthropic's web search tool documentation shows it:
 * `server_tool_use`, `web_search_tool_result`, cited text, and `usage.server_tool_use`.
 */
const searched = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-opus-4-5-20251101',
  content: [
    { type: 'text', text: "I'll search for that." },
    { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'claude shannon birth date' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: [{ type: 'web_search_result', url: 'https://en.wikipedia.org/wiki/Claude_Shannon', title: 'Claude Shannon', encrypted_content: 'EqgfCioIARgB', page_age: 'April 30, 2025' }],
    },
    { type: 'text', text: 'Claude Shannon was born on April 30, 1916.' },
  ],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 6039, output_tokens: 931, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, server_tool_use: { web_search_requests: 1 }, service_tier: 'standard' },
};

const options: StreamTransformerOptions = { publicModel: 'claude-opus-4-5', callerWantsUsage: false, secrets: [] };
const event = (data: Record<string, unknown>) => ({ event: String(data['type']), data: JSON.stringify(data) });

describe('what an Anthropic answer ran', () => {
  it('a whole message: the searches usage counts, the standard tier, no container', () => {
    const converted = anthropicNativeAdapter.convertResponse(JSON.stringify(searched), 'claude-opus-4-5');
    expect(converted.ok && converted.ran).toEqual({ toolCalls: { web_search: 1 }, serviceTier: 'default', created: [] });
  });

  it('code execution counted by its blocks, fast mode and priority served as tiers, the container it ran in created', () => {
    const message = {
      ...searched,
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_02', name: 'bash_code_execution', input: { command: 'ls' } },
        { type: 'bash_code_execution_tool_result', tool_use_id: 'srvtoolu_02', content: { type: 'bash_code_execution_result', stdout: '', stderr: '', return_code: 0 } },
        { type: 'server_tool_use', id: 'srvtoolu_03', name: 'text_editor_code_execution', input: { command: 'view', path: 'a' } },
      ],
      container: { id: 'container_011', expires_at: '2026-05-01T00:00:00Z' },
      usage: { input_tokens: 10, output_tokens: 5, speed: 'fast', service_tier: 'priority' },
    };
    const converted = anthropicNativeAdapter.convertResponse(JSON.stringify(message), 'claude-opus-4-5');
    expect(converted.ok && converted.ran).toEqual({ toolCalls: { code_execution: 2 }, serviceTier: 'fast', created: [{ kind: 'container', id: 'container_011' }] });
  });

  it('a stream: a search counted from its block as it starts, then from the cumulative usage', () => {
    const stream = new AnthropicPassthroughStream(options);
    stream.transform(event({ type: 'message_start', message: { ...searched, content: [], usage: { input_tokens: 6039, output_tokens: 1 } } }));
    stream.transform(event({ type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: {} } }));
    expect(stream.ran.toolCalls).toEqual({ web_search: 1 });
    stream.transform(event({ type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_02', name: 'web_search', input: {} } }));
    stream.transform(event({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 931, server_tool_use: { web_search_requests: 3 } } }));
    expect(stream.ran.toolCalls).toEqual({ web_search: 3 });
  });
});
