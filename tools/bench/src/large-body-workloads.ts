/** The model of the bridged channel (an `anthropic` channel to the simulator) the large bodies go to. */
export const bridgedModel = 'claude-sonnet-4-5';

/** The relay's default RELAY_MAX_TOOLS_BYTES (8 MiB): the relayed body's tools stay just under it. */
export const relayedToolBytes = 7.5 * 1024 * 1024;
/** About 18 MB in all, the size issue 26's tester sent. */
export const largeBodyBytes = 18 * 1000 * 1000;

const description = 'Describes one field of the tool input in words a model reads before calling it; ';

/** One function tool with a schema of 60 described string fields (~7.7 KB), as MCP servers write them. */
function tool(index: number): unknown {
  const properties = Object.fromEntries(Array.from({ length: 60 }, (_, field) => [`field_${field}`, { type: 'string', description: `${description}${field}` }]));
  return { type: 'function', function: { name: `tool_${index}`, description: description.repeat(4), parameters: { type: 'object', properties, required: ['field_0'] } } };
}

function toolsOf(bytes: number): unknown[] {
  const size = JSON.stringify(tool(0)).length + 1;
  return Array.from({ length: Math.max(1, Math.floor(bytes / size)) }, (_, index) => tool(index));
}

/** An agent's long session: tool results and short answers, about `bytes` of JSON. */
function conversationOf(bytes: number): Array<{ role: 'user' | 'assistant'; content: string }> {
  const turns: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (let size = 0, turn = 0; size < bytes; turn += 1) {
    const content = `Line ${turn} of a long tool result, as a coding agent pastes it back. `.repeat(100);
    turns.push({ role: 'user', content }, { role: 'assistant', content: 'Noted; go on.' });
    size += content.length + 80;
  }
  return turns;
}

/**
 * A Chat Completions request of about `largeBodyBytes`: `toolBytes` of tool definitions, the rest
 * a long conversation, ending with a question the model answers without a tool.
 */
export function largeChatBody(model: string, toolBytes = relayedToolBytes): Buffer {
  const tools = toolsOf(toolBytes);
  const toolsSize = JSON.stringify(tools).length;
  const messages = [...conversationOf(largeBodyBytes - toolsSize), { role: 'user', content: 'Say hello without calling any tool.' }];
  return Buffer.from(JSON.stringify({ model, max_tokens: 64, tool_choice: 'none', tools, messages }));
}

/** Issue 26's body: ~18.6 MB of tool definitions alone, more than RELAY_MAX_TOOLS_BYTES lets through. */
export function toolsOnlyBody(model: string): Buffer {
  return Buffer.from(JSON.stringify({ model, max_tokens: 64, tools: toolsOf(18.6 * 1000 * 1000), messages: [{ role: 'user', content: 'Hi' }] }));
}
