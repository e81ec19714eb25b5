import { STANDARD_SERVICE_TIERS, type HostedToolKind } from '@chat-relay/contract';

/** A tool the provider runs (or hosts) itself, as a request names it. */
export interface CarriedTool {
  kind: HostedToolKind;
  /** As the caller named it: `image_generation`, `web_search_20250305`, `googleSearch`. */
  name: string;
  /** Where in the request: `tools[1]`, `web_search_options`. */
  param: string;
  /** A model the tool itself calls (image_generation's, `gpt-image-1` when not named): the token must be allowed it. */
  model?: string;
  /**
   * Runs once with every answer, whatever the answer says (Chat's `web_search_options`: a search
   * model always searches), so it is charged once per answered request.
   */
  runsOncePerAnswer?: true;
}

/**
 * Ids of objects kept at the provider, shared by every tenant of the channel's key: files, vector
 * stores, conversations, stored prompts, containers, items of stored responses, context caches,
 * skills, file search stores.
 */
export type UpstreamObjectKind = 'file' | 'vector_store' | 'conversation' | 'prompt' | 'container' | 'item' | 'cached_content' | 'skill' | 'file_search_store';

export interface CarriedObject {
  kind: UpstreamObjectKind;
  id: string;
  /** Where in the request: `tools[0].vector_store_ids[1]`, `conversation`, `input[2].id`. */
  param: string;
}

/**
 * What a request that passes through carries beyond plain tokens, as inspected (no I/O): what
 * the relay must allow and price before it is sent.
 */
export interface PassthroughCarriage {
  tools: CarriedTool[];
  /** A service tier other than the standard one, lower case. */
  serviceTier?: { tier: string; param: string };
  /** The answer is asked for in audio. */
  audioOutput?: { param: string };
  objects: CarriedObject[];
  /** Tool types the relay cannot tell the kind of (newer than it): never passed through unpoliced. */
  unknownTools?: { name: string; param: string }[];
}

/** Objects an answer created at the provider, which the relay records as the caller's. */
export interface CreatedObject {
  kind: 'item' | 'container';
  id: string;
}

/** What a passthrough answer says ran beyond tokens. */
export interface PassthroughRun {
  /** Hosted tool calls the provider ran, by kind. */
  toolCalls: Partial<Record<HostedToolKind, number>>;
  /** The tier the provider says it served, lower case (`default` for any standard one), when it says. */
  serviceTier?: string;
  created: CreatedObject[];
}

export const emptyCarriage = (): PassthroughCarriage => ({ tools: [], objects: [] });

/** Whether the request carries nothing beyond plain tokens. */
export const carriesNothing = (carriage: PassthroughCarriage): boolean =>
  carriage.tools.length === 0 && carriage.objects.length === 0 && !carriage.serviceTier && !carriage.audioOutput && !carriage.unknownTools?.length;

/** A tier as the request or answer names it, lower case; undefined for the standard ones (`auto`, `default` …). */
export function premiumTier(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tier = value.toLowerCase();
  return STANDARD_SERVICE_TIERS.has(tier) ? undefined : tier;
}

/** Adds `count` calls of `kind` to a run's tally. */
export function addCalls(calls: Partial<Record<HostedToolKind, number>>, kind: HostedToolKind, count = 1): void {
  if (count > 0) calls[kind] = (calls[kind] ?? 0) + count;
}

/** A string id at `value`, else undefined. */
export const idOf = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The run of an answer that only says which tier served it (Chat Completions); undefined when it says nothing. */
export function servedTierRun(tier: unknown): PassthroughRun | undefined {
  if (typeof tier !== 'string') return undefined;
  return { toolCalls: {}, serviceTier: premiumTier(tier) ?? 'default', created: [] };
}
