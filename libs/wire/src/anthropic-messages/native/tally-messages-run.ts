import type { HostedToolKind } from '@chat-relay/contract';
import { isJsonObject, isNumber } from '../../json/json-checks';
import { addCalls, idOf, premiumTier, type PassthroughRun } from '../../passthrough/passthrough-carriage';

/** A `server_tool_use` block's name → its kind (`bash_code_execution` and `text_editor_code_execution` are code execution). */
function serverToolKind(name: unknown): HostedToolKind | undefined {
  if (typeof name !== 'string') return undefined;
  if (name.startsWith('web_search')) return 'web_search';
  if (name.startsWith('web_fetch')) return 'web_fetch';
  if (name.includes('code_execution')) return 'code_execution';
  return undefined;
}

/** `usage.server_tool_use` counts, by the kind they count. */
const USAGE_COUNTS: readonly (readonly [string, HostedToolKind])[] = [
  ['web_search_requests', 'web_search'],
  ['web_fetch_requests', 'web_fetch'],
];

/**
 * What an Anthropic answer ran, read from its message (`message_start`, or the whole message),
 * its content blocks as they start, and its usage: `usage.server_tool_use` counts web searches and
 * fetches (Anthropic bills by them); other server tools — code execution, tool search, MCP — are
 * counted by their `server_tool_use` / `mcp_tool_use` blocks, as are searches and fetches, the
 * larger count winning (a stream cut before its last usage). The tier is `usage.speed` `fast`, else `usage.service_tier`; the
 * container the answer ran in is what it created.
 */
export class MessagesRunTally {
  private readonly blockCalls: Partial<Record<HostedToolKind, number>> = {};
  private readonly usageCalls: Partial<Record<HostedToolKind, number>> = {};
  private tier: string | undefined;
  private container: string | undefined;

  /** A whole message: its content blocks, usage and container. */
  message(message: unknown): void {
    if (!isJsonObject(message)) return;
    const content = message['content'];
    if (Array.isArray(content)) content.forEach((block) => this.block(block));
    this.usage(message['usage']);
    this.containerOf(message['container']);
  }

  /** One content block (a `content_block_start`'s). */
  block(block: unknown): void {
    if (!isJsonObject(block)) return;
    if (block['type'] === 'mcp_tool_use') return addCalls(this.blockCalls, 'mcp');
    const kind = block['type'] === 'server_tool_use' ? serverToolKind(block['name']) : undefined;
    if (kind) addCalls(this.blockCalls, kind);
  }

  /** A usage object (cumulative in a stream: the latest counts win). */
  usage(usage: unknown): void {
    if (!isJsonObject(usage)) return;
    const server = usage['server_tool_use'];
    if (isJsonObject(server)) {
      for (const [field, kind] of USAGE_COUNTS) {
        const count = server[field];
        if (isNumber(count) && count >= 0) this.usageCalls[kind] = count;
      }
    }
    const speed = usage['speed'];
    const tier = usage['service_tier'];
    if (typeof speed === 'string' || typeof tier === 'string') {
      this.tier = premiumTier(speed) ?? premiumTier(tier) ?? 'default';
    }
  }

  /** The container a message ran its code in (`message.container`, or a `message_delta`'s `delta.container`). */
  containerOf(container: unknown): void {
    const id = isJsonObject(container) ? idOf(container['id']) : undefined;
    if (id) this.container = id;
  }

  get run(): PassthroughRun {
    // Each search is one block and one count: the larger says it when one side is cut short.
    const toolCalls = { ...this.blockCalls };
    for (const [kind, count] of Object.entries(this.usageCalls) as [HostedToolKind, number][]) {
      if (count > (toolCalls[kind] ?? 0)) toolCalls[kind] = count;
    }
    return { toolCalls, ...(this.tier ? { serviceTier: this.tier } : {}), created: this.container ? [{ kind: 'container', id: this.container }] : [] };
  }
}

/** What a whole message says ran (see MessagesRunTally). */
export function tallyMessagesRun(message: unknown): PassthroughRun {
  const tally = new MessagesRunTally();
  tally.message(message);
  return tally.run;
}
