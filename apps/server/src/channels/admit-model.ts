import { microUsdToUsd, parseGizmoModel, type Endpoint } from '@chat-relay/contract';
import { modelNotFound, RelayError } from '@chat-relay/wire';
import type { ChannelRegistry } from './channel-registry';
import { candidatesFor } from './candidates-for';
import type { AccountStore, TokenRecord } from '../storage/types';

/**
 * Whether any channel could serve `model` on `endpoint` — decided before a request's body is
 * parsed, so a large body for a model nobody serves costs little. The same refusals the routing
 * gives later (404 model_not_found, or the endpoints it is served on); a gizmo name passes when
 * its family (a custom assistant's) or the full name (relay chaining) is served — whether the
 * assistant exists is the model resolution's to say.
 */
export async function assertModelServed(registry: ChannelRegistry, model: string, endpoint: Endpoint): Promise<void> {
  const gizmo = parseGizmoModel(model);
  if (!gizmo) {
    await candidatesFor(registry, model, endpoint);
    return;
  }
  if ((await registry.candidatesFor(gizmo.family, endpoint)).length > 0) return;
  if ((await registry.candidatesFor(model, endpoint)).length > 0) return;
  throw modelNotFound(gizmo.family);
}

const insufficientQuota = (owner: string, limit: number) =>
  new RelayError({
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message: `No quota left on ${owner} (limit ${microUsdToUsd(limit)} USD): every request is refused until the quota is raised.`,
  });

/**
 * 429 insufficient_quota when the token or its account has nothing left at all — the cheap part
 * of the reservation (reserve-quota.ts), which still decides whether what a request may cost fits.
 * The token's figures come with it from authentication; the account's are read only when it has
 * a limit.
 */
export async function assertQuotaLeft(accounts: AccountStore, token: TokenRecord): Promise<void> {
  if (token.quotaLimit !== null && token.quotaUsed >= token.quotaLimit) throw insufficientQuota('this API key', token.quotaLimit);
  if (token.account?.quotaLimit === null || token.account?.quotaLimit === undefined) return;
  const account = await accounts.get(token.accountId);
  if (account && account.quotaLimit !== null && account.quotaUsed >= account.quotaLimit) {
    throw insufficientQuota('the account of this API key', account.quotaLimit);
  }
}
