import type { HostedToolKind } from '@chat-relay/contract';
import { isJsonObject, type JsonObject } from '../../json/json-checks';
import { emptyCarriage, idOf, premiumTier, type PassthroughCarriage } from '../../passthrough/passthrough-carriage';

/** Server tools (Anthropic runs them) by the prefix of their versioned `type`. */
const SERVER_TOOL_PREFIXES: readonly (readonly [string, HostedToolKind])[] = [
  ['web_search_', 'web_search'],
  ['web_fetch_', 'web_fetch'],
  ['code_execution_', 'code_execution'],
  ['mcp_toolset', 'mcp'],
];

/**
 * Anthropic-defined tools the caller's own client runs (bash, text editor, computer, memory), and
 * tool search over the request's own deferred tools: tokens only.
 */
const CLIENT_TOOL_PREFIXES = ['bash_', 'text_editor_', 'computer_', 'memory_', 'tool_search_tool_'];

const serverToolKind = (type: string): HostedToolKind | undefined => SERVER_TOOL_PREFIXES.find(([prefix]) => type.startsWith(prefix))?.[1];

function inspectTools(carriage: PassthroughCarriage, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  tools.forEach((tool, index) => {
    if (!isJsonObject(tool) || typeof tool['type'] !== 'string' || tool['type'] === 'custom') return;
    const type = tool['type'];
    const param = `tools[${index}]`;
    const kind = serverToolKind(type);
    if (kind) carriage.tools.push({ kind, name: type, param });
    else if (!CLIENT_TOOL_PREFIXES.some((prefix) => type.startsWith(prefix))) (carriage.unknownTools ??= []).push({ name: type, param });
  });
}

/** Files named by id in content blocks (`source: {type: "file"}`, `container_upload`), a tool result's content included. */
function inspectBlocks(carriage: PassthroughCarriage, blocks: unknown, param: string): void {
  if (!Array.isArray(blocks)) return;
  blocks.forEach((block, index) => {
    if (!isJsonObject(block)) return;
    const at = `${param}[${index}]`;
    const source = block['source'];
    const sourceFile = isJsonObject(source) && source['type'] === 'file' ? idOf(source['file_id']) : undefined;
    if (sourceFile) carriage.objects.push({ kind: 'file', id: sourceFile, param: `${at}.source.file_id` });
    const uploaded = block['type'] === 'container_upload' ? idOf(block['file_id']) : undefined;
    if (uploaded) carriage.objects.push({ kind: 'file', id: uploaded, param: `${at}.file_id` });
    if (block['type'] === 'tool_result') inspectBlocks(carriage, block['content'], `${at}.content`);
  });
}

/** A container reused by id, and the custom skills (uploaded at Anthropic) it loads. */
function inspectContainer(carriage: PassthroughCarriage, container: unknown): void {
  const id = idOf(container) ?? (isJsonObject(container) ? idOf(container['id']) : undefined);
  if (id) carriage.objects.push({ kind: 'container', id, param: 'container' });
  const skills = isJsonObject(container) ? container['skills'] : undefined;
  if (!Array.isArray(skills)) return;
  skills.forEach((skill, index) => {
    const skillId = isJsonObject(skill) && skill['type'] === 'custom' ? idOf(skill['skill_id']) : undefined;
    if (skillId) carriage.objects.push({ kind: 'skill', id: skillId, param: `container.skills[${index}].skill_id` });
  });
}

/**
 * What a Messages request carries beyond plain tokens, for an `anthropic` channel it passes
 * through to: server tools by kind (web search, web fetch, code execution, tool search, MCP
 * toolsets, and `mcp_servers`), fast mode (`speed: "fast"`, a premium tier), and the ids of objects
 * kept at Anthropic — a reused `container`, custom skills, files by `file_id`. `service_tier`
 * `auto` and `standard_only` ask for nothing beyond the standard tier: `auto` is also what no
 * value means, and whether priority capacity serves it is the upstream account's (its answer says,
 * and is charged so).
 */
export function inspectMessagesRequest(body: Readonly<JsonObject>): PassthroughCarriage {
  const carriage = emptyCarriage();
  inspectTools(carriage, body['tools']);
  const servers = body['mcp_servers'];
  if (Array.isArray(servers) && servers.length > 0) carriage.tools.push({ kind: 'mcp', name: 'mcp_servers', param: 'mcp_servers' });
  const speed = premiumTier(body['speed']);
  const tier = premiumTier(body['service_tier']);
  if (speed) carriage.serviceTier = { tier: speed, param: 'speed' };
  else if (tier) carriage.serviceTier = { tier, param: 'service_tier' };
  inspectContainer(carriage, body['container']);
  const messages = body['messages'];
  if (Array.isArray(messages)) {
    messages.forEach((message, index) => {
      if (isJsonObject(message)) inspectBlocks(carriage, message['content'], `messages[${index}].content`);
    });
  }
  return carriage;
}
