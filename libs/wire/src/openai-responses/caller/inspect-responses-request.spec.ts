import { ResponsesRequestSchema } from '@chat-relay/contract';
import { inspectResponsesRequest } from './inspect-responses-request';

/** Requests in the shapes of OpenAI's API reference (test-fixtures/spec/openai-openapi.yaml: Tool, InputItem). */
const request = (fields: Record<string, unknown>) => ResponsesRequestSchema.parse({ model: 'gpt-4o-mini', input: 'hi', ...fields });

describe('inspectResponsesRequest', () => {
  it('carries nothing for a plain request with function and custom tools', () => {
    const carriage = inspectResponsesRequest(
      request({
        tools: [
          { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } },
          { type: 'custom', name: 'grammar' },
        ],
        service_tier: 'auto',
        previous_response_id: 'resp_1',
      }),
    );
    expect(carriage).toEqual({ tools: [], objects: [] });
  });

  it('names each hosted tool by kind and place, image_generation with the model it calls (gpt-image-1 when none)', () => {
    const carriage = inspectResponsesRequest(
      request({
        tools: [
          { type: 'web_search_preview', search_context_size: 'low' },
          { type: 'image_generation', quality: 'high' },
          { type: 'image_generation', model: 'gpt-image-1-mini' },
          { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp' },
          { type: 'shell', environment: { type: 'container_auto' } },
          { type: 'namespace', name: 'ns', tools: [{ type: 'function', name: 'f' }, { type: 'web_search' }] },
        ],
      }),
    );
    expect(carriage.tools).toEqual([
      { kind: 'web_search', name: 'web_search_preview', param: 'tools[0]' },
      { kind: 'image_generation', name: 'image_generation', param: 'tools[1]', model: 'gpt-image-1' },
      { kind: 'image_generation', name: 'image_generation', param: 'tools[2]', model: 'gpt-image-1-mini' },
      { kind: 'mcp', name: 'mcp', param: 'tools[3]' },
      { kind: 'code_execution', name: 'shell', param: 'tools[4]' },
      { kind: 'web_search', name: 'web_search', param: 'tools[5].tools[1]' },
    ]);
  });

  it('carries nothing for the tools the caller runs itself, as Codex declares them on every turn', () => {
    const carriage = inspectResponsesRequest(
      request({
        tools: [
          { type: 'local_shell' },
          { type: 'shell' },
          { type: 'shell', environment: { type: 'local' } },
          { type: 'apply_patch' },
          { type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'browser' },
          { type: 'tool_search' },
          { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
          { type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} } }] },
        ],
      }),
    );
    expect(carriage).toEqual({ tools: [], objects: [] });
  });

  it('additional_tools_hosted_tool_unpoliced: the tools of an additional_tools input item are inspected like `tools` (a hosted one there is no way around the policy)', () => {
    const added = {
      type: 'additional_tools',
      id: 'at_1',
      role: 'developer',
      tools: [{ type: 'namespace', name: 'functions', description: '', tools: [{ type: 'custom', name: 'exec' }, { type: 'web_search' }] }, { type: 'file_search', vector_store_ids: ['vs_x'] }],
    };
    const carriage = inspectResponsesRequest(request({ input: [added, { role: 'user', content: 'hi' }] }));
    expect(carriage.tools).toEqual([
      { kind: 'web_search', name: 'web_search', param: 'input[0].tools[0].tools[1]' },
      { kind: 'file_search', name: 'file_search', param: 'input[0].tools[1]' },
    ]);
    expect(carriage.objects).toEqual([{ kind: 'vector_store', id: 'vs_x', param: 'input[0].tools[1].vector_store_ids[0]' }]);
  });

  it('a shell in a container of the provider’s is code execution, its container an upstream object', () => {
    const carriage = inspectResponsesRequest(request({ tools: [{ type: 'shell', environment: { type: 'container_reference', container_id: 'cntr_9' } }] }));
    expect(carriage.tools).toEqual([{ kind: 'code_execution', name: 'shell', param: 'tools[0]' }]);
    expect(carriage.objects).toEqual([{ kind: 'container', id: 'cntr_9', param: 'tools[0].environment.container_id' }]);
  });

  it('names every upstream object id by kind and field', () => {
    const carriage = inspectResponsesRequest(
      request({
        tools: [
          { type: 'file_search', vector_store_ids: ['vs_a', 'vs_b'] },
          { type: 'code_interpreter', container: 'cntr_1' },
          { type: 'code_interpreter', container: { type: 'auto', file_ids: ['file-1'] } },
        ],
        conversation: { id: 'conv_1' },
        prompt: { id: 'pmpt_1', version: '2' },
        input: [
          { type: 'item_reference', id: 'msg_1' },
          { role: 'user', content: [{ type: 'input_file', file_id: 'file-2' }, { type: 'input_image', file_id: 'file-3', detail: 'auto' }, { type: 'input_text', text: 'hi' }] },
        ],
      }),
    );
    expect(carriage.objects).toEqual([
      { kind: 'vector_store', id: 'vs_a', param: 'tools[0].vector_store_ids[0]' },
      { kind: 'vector_store', id: 'vs_b', param: 'tools[0].vector_store_ids[1]' },
      { kind: 'container', id: 'cntr_1', param: 'tools[1].container' },
      { kind: 'file', id: 'file-1', param: 'tools[2].container.file_ids[0]' },
      { kind: 'conversation', id: 'conv_1', param: 'conversation' },
      { kind: 'prompt', id: 'pmpt_1', param: 'prompt.id' },
      { kind: 'item', id: 'msg_1', param: 'input[0].id' },
      { kind: 'file', id: 'file-2', param: 'input[1].content[0].file_id' },
      { kind: 'file', id: 'file-3', param: 'input[1].content[1].file_id' },
    ]);
    expect(inspectResponsesRequest(request({ conversation: 'conv_2' })).objects).toEqual([{ kind: 'conversation', id: 'conv_2', param: 'conversation' }]);
  });

  it('a premium service_tier, lower case; a tool type it does not know is named, never passed as harmless', () => {
    expect(inspectResponsesRequest(request({ service_tier: 'priority' })).serviceTier).toEqual({ tier: 'priority', param: 'service_tier' });
    expect(inspectResponsesRequest(request({ service_tier: 'default' })).serviceTier).toBeUndefined();
    expect(inspectResponsesRequest(request({ tools: [{ type: 'hologram_2027' }] })).unknownTools).toEqual([{ name: 'hologram_2027', param: 'tools[0]' }]);
  });
});
