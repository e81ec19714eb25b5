import { inspectMessagesRequest } from './inspect-messages-request';

/** Requests in the shapes of Anthropic's tool reference (server tools, client tools, files, containers). */
const request = (fields: Record<string, unknown>) => ({ model: 'claude-opus-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...fields });

describe('inspectMessagesRequest', () => {
  it('carries nothing for custom tools, client tools Anthropic defines (the caller runs them) and a standard tier', () => {
    const carriage = inspectMessagesRequest(
      request({
        tools: [
          { name: 'get_weather', input_schema: { type: 'object' } },
          { type: 'custom', name: 'f', input_schema: { type: 'object' } },
          { type: 'bash_20250124', name: 'bash' },
          { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
          { type: 'computer_20250124', name: 'computer', display_width_px: 1024, display_height_px: 768 },
          { type: 'memory_20250818', name: 'memory' },
        ],
        service_tier: 'auto',
      }),
    );
    expect(carriage).toEqual({ tools: [], objects: [] });
  });

  it('server tools by kind, mcp_servers, fast mode, and an unknown tool type named; tool search over the request’s own tools is not carried', () => {
    const carriage = inspectMessagesRequest(
      request({
        tools: [
          { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
          { type: 'web_fetch_20250910', name: 'web_fetch' },
          { type: 'code_execution_20250825', name: 'code_execution' },
          { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
          { type: 'teleport_20270101', name: 'teleport' },
        ],
        mcp_servers: [{ type: 'url', url: 'https://example.com/sse', name: 'example' }],
        speed: 'fast',
      }),
    );
    expect(carriage.tools).toEqual([
      { kind: 'web_search', name: 'web_search_20250305', param: 'tools[0]' },
      { kind: 'web_fetch', name: 'web_fetch_20250910', param: 'tools[1]' },
      { kind: 'code_execution', name: 'code_execution_20250825', param: 'tools[2]' },
      { kind: 'mcp', name: 'mcp_servers', param: 'mcp_servers' },
    ]);
    expect(carriage.unknownTools).toEqual([{ name: 'teleport_20270101', param: 'tools[4]' }]);
    expect(carriage.serviceTier).toEqual({ tier: 'fast', param: 'speed' });
  });

  it('a reused container, custom skills and files by id (a tool result’s included)', () => {
    const carriage = inspectMessagesRequest(
      request({
        container: { id: 'container_1', skills: [{ type: 'anthropic', skill_id: 'pptx' }, { type: 'custom', skill_id: 'skill_01' }] },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'file', file_id: 'file_011' } },
              { type: 'container_upload', file_id: 'file_012' },
              { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'image', source: { type: 'file', file_id: 'file_013' } }] },
            ],
          },
        ],
      }),
    );
    expect(carriage.objects).toEqual([
      { kind: 'container', id: 'container_1', param: 'container' },
      { kind: 'skill', id: 'skill_01', param: 'container.skills[1].skill_id' },
      { kind: 'file', id: 'file_011', param: 'messages[0].content[0].source.file_id' },
      { kind: 'file', id: 'file_012', param: 'messages[0].content[1].file_id' },
      { kind: 'file', id: 'file_013', param: 'messages[0].content[2].content[0].source.file_id' },
    ]);
    expect(inspectMessagesRequest(request({ container: 'container_2' })).objects).toEqual([{ kind: 'container', id: 'container_2', param: 'container' }]);
  });
});
