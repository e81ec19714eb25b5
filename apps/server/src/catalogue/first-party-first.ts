import { modelsDevSeedVersion } from '@chat-relay/wire';

/** The providers whose own entries describe their models (the seed's, in its order). */
const FIRST_PARTY: readonly string[] = modelsDevSeedVersion.providers;

/**
 * models.dev's api.json with the first-party providers first. The catalogue keeps the first
 * entry of an id several providers list, and the full file holds resellers and gateways too
 * (`azure`, `github-copilot`, `openrouter` …), whose entries of the same id may carry their own
 * limits and prices, and which may come first in the file: the maker's own entry must win.
 */
export function firstPartyFirst(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const providers = json as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const id of FIRST_PARTY) if (Object.prototype.hasOwnProperty.call(providers, id)) ordered[id] = providers[id];
  for (const [id, provider] of Object.entries(providers)) if (!Object.prototype.hasOwnProperty.call(ordered, id)) ordered[id] = provider;
  return ordered;
}
