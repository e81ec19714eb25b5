import { createHash } from 'node:crypto';
import type { AnthropicTool, ResponseContentBlock } from './anthropic-api';

// Anthropic's web search server tool as the simulator runs it: offered as `web_search_<version>`
// (named `web_search`, as the API requires), it runs one search of the user's last words before
// the model answers — a `server_tool_use` block, its `web_search_tool_result`, and
// `usage.server_tool_use.web_search_requests` counting it, as Anthropic answers.

const isWebSearch = (tool: AnthropicTool): boolean => typeof tool.type === 'string' && tool.type.startsWith('web_search_');

/** What Anthropic refuses in the server tools offered, or undefined. */
export function refuseServerTools(tools: readonly AnthropicTool[] | undefined): string | undefined {
  const index = (tools ?? []).findIndex((tool) => isWebSearch(tool) && tool.name !== 'web_search');
  return index < 0 ? undefined : `tools.${index}.name: Input should be 'web_search'`;
}

/** The blocks of one search (none when no web search is offered or tool_choice is none). */
export function webSearchBlocks(tools: readonly AnthropicTool[] | undefined, toolChoice: unknown, query: string): ResponseContentBlock[] {
  if (!(tools ?? []).some(isWebSearch)) return [];
  if (typeof toolChoice === 'object' && toolChoice !== null && (toolChoice as { type?: unknown }).type === 'none') return [];
  const digest = createHash('sha256').update(query).digest('hex');
  const id = `srvtoolu_${digest.slice(0, 24)}`;
  const result = { type: 'web_search_result' as const, url: `https://example.com/search/${digest.slice(0, 8)}`, title: `About ${query}`, encrypted_content: digest, page_age: null };
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: { query } },
    { type: 'web_search_tool_result', tool_use_id: id, content: [result] },
  ];
}
