import type { HostedToolKind } from '@chat-relay/contract';
import { isJsonObject } from '../../json/json-checks';
import { addCalls, idOf, premiumTier, type CreatedObject, type PassthroughRun } from '../../passthrough/passthrough-carriage';

/** Output items that are a call OpenAI ran (or hosted) itself, by kind; the caller's own (computer, local shell, apply_patch, tool search) are not. */
const CALL_ITEM_KINDS: Readonly<Record<string, HostedToolKind>> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  code_interpreter_call: 'code_execution',
  image_generation_call: 'image_generation',
  mcp_call: 'mcp',
};

/** A `shell_call` ran in a container of the provider's (code execution) — not in the caller's local environment. */
function hostedShellCall(item: Record<string, unknown>): boolean {
  const environment = item['environment'];
  return item['type'] === 'shell_call' && isJsonObject(environment) && environment['type'] === 'container_reference';
}

interface SeenItem {
  type: string;
  status: unknown;
  containerId: string | undefined;
}

/**
 * What a Responses answer ran, read from its output items as they go by (`response.output_item.added`
 * and `.done` of a stream) or all at once (a Response's `output`): each hosted call the provider
 * made, by kind — a `failed` one is not counted — the tier it says it served, and what it created:
 * the items (stored responses' items can be referred to later) and code interpreter containers.
 */
export class ResponsesRunTally {
  private readonly items = new Map<string, SeenItem>();
  private unnamed = 0;
  private tier: string | undefined;

  /** One output item; a later sight of the same id (its `done`) replaces the earlier one. */
  item(item: unknown): void {
    if (!isJsonObject(item) || typeof item['type'] !== 'string') return;
    const id = idOf(item['id']) ?? `#${(this.unnamed += 1)}`;
    const environment = item['environment'];
    const containerId = idOf(item['container_id']) ?? (hostedShellCall(item) && isJsonObject(environment) ? idOf(environment['container_id']) : undefined);
    this.items.set(id, { type: hostedShellCall(item) ? 'code_interpreter_call' : item['type'], status: item['status'], containerId });
  }

  /** A whole Response (the non-streamed answer, or a stream's terminal event): its items and tier. */
  response(response: unknown): void {
    if (!isJsonObject(response)) return;
    const output = response['output'];
    if (Array.isArray(output)) output.forEach((item) => this.item(item));
    const tier = response['service_tier'];
    if (typeof tier === 'string') this.tier = tier.toLowerCase();
  }

  get run(): PassthroughRun {
    const toolCalls: PassthroughRun['toolCalls'] = {};
    const created: CreatedObject[] = [];
    for (const [id, seen] of this.items) {
      const kind = CALL_ITEM_KINDS[seen.type];
      if (kind && seen.status !== 'failed') addCalls(toolCalls, kind);
      if (!id.startsWith('#')) created.push({ kind: 'item', id });
      if (seen.containerId) created.push({ kind: 'container', id: seen.containerId });
    }
    const tier = this.tier === undefined ? undefined : (premiumTier(this.tier) ?? 'default');
    return { toolCalls, ...(tier ? { serviceTier: tier } : {}), created };
  }
}

/** What a whole Response says ran (see ResponsesRunTally). */
export function tallyResponsesRun(response: unknown): PassthroughRun {
  const tally = new ResponsesRunTally();
  tally.response(response);
  return tally.run;
}
