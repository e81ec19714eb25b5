import type { ChatCompletionRequest } from '@chat-relay/contract';
import { carriesNothing, inspectChatRequest, type CreatedObject, type PassthroughCarriage, type PassthroughRun } from '@chat-relay/wire';
import type { UpstreamObjectKind } from '../../storage/types';
import type { PassthroughContext } from './police-passthrough';
import type { PassthroughBound, PriceBook } from '../../billing/price-book';
import type { RelayTrace } from '../request-context';
import type { UpstreamObjects } from './upstream-objects';

export interface PassthroughDeps {
  prices: PriceBook;
  upstreamObjects: UpstreamObjects;
}

/** How one request's passthrough is policed and what it created is recorded (issue 26), worked out once before routing. */
export interface PassthroughPlan {
  /** What the caller's own request carries, for a channel that speaks its dialect. */
  native: PassthroughCarriage | undefined;
  /** What the hub request carries, for an OpenAI-compatible channel that gets it as it is. */
  hub: PassthroughCarriage;
  context: PassthroughContext;
  /** A native answer from `channelId` is under way: call the result, once, with what it created. */
  expectCreated(channelId: number): (created: readonly CreatedObject[]) => Promise<void>;
}

export interface PassthroughRequest {
  accountId: number;
  /** The caller's model allow-list (null: every model). */
  allowList: readonly string[] | null;
  /** The hub request as routed (an assistant applied): its model is the priced one. */
  request: ChatCompletionRequest;
  /** What the caller's own request carries, when a channel may take it natively. */
  native: PassthroughCarriage | undefined;
  /** Whether what native answers create is kept at the provider (a Responses request with `store: false` keeps nothing). */
  recordCreated: boolean;
}

const OWNABLE: readonly UpstreamObjectKind[] = ['item', 'container'];

/**
 * The plan of a request that may pass through: what it carries either way, and — only when it
 * carries something, so a plain request costs no lookup — the price of its model and which of the
 * ids it names this account created through the relay. A plan that carries nothing is made at
 * once, without a promise.
 */
export function planPassthrough(deps: PassthroughDeps, asked: PassthroughRequest): PassthroughPlan | Promise<PassthroughPlan> {
  const { native } = asked;
  const hub = inspectChatRequest(asked.request);
  const context: PassthroughContext = { allowList: asked.allowList, pricedModel: asked.request.model, price: undefined, owned: new Set() };
  const plan: PassthroughPlan = {
    native,
    hub,
    context,
    expectCreated: (channelId) => (asked.recordCreated ? deps.upstreamObjects.expect(asked.accountId, channelId) : noRecord),
  };
  if (carriesNothing(hub) && (!native || carriesNothing(native))) return plan;
  return lookUpCarried(deps, asked, plan);
}

const noRecord = async (): Promise<undefined> => undefined;

/** What a plan that carries something needs looked up: its model's price, and which of the ids it names are the account's. */
async function lookUpCarried(deps: PassthroughDeps, asked: PassthroughRequest, plan: PassthroughPlan): Promise<PassthroughPlan> {
  const { context, native } = plan;
  context.price = await deps.prices.priceOf(context.pricedModel);
  const owned = new Set<string>();
  for (const kind of OWNABLE) {
    const ids = [...new Set((native?.objects ?? []).filter((object) => object.kind === kind).map((object) => object.id))];
    for (const id of await deps.upstreamObjects.owned(asked.accountId, kind, ids)) owned.add(`${kind}:${id}`);
  }
  context.owned = owned;
  return plan;
}

/**
 * A passthrough answer's extras on its trace, charged with its row: the hosted calls it ran (and a
 * tool that runs with every answer, once), their sum as the row's `units`, and the tier it was
 * served at — as the answer says, else as asked.
 */
export function chargePassthrough(trace: RelayTrace, carriage: PassthroughCarriage | undefined, run: PassthroughRun | undefined): void {
  const calls = { ...(run?.toolCalls ?? {}) };
  for (const tool of carriage?.tools ?? []) if (tool.runsOncePerAnswer) calls[tool.kind] = Math.max(calls[tool.kind] ?? 0, 1);
  const total = Object.values(calls).reduce((sum, count) => sum + (count ?? 0), 0);
  if (total > 0) {
    trace.hostedToolCalls = calls;
    trace.units = total;
  }
  const served = run?.serviceTier;
  trace.serviceTier = served !== undefined ? (served === 'default' ? null : served) : (carriage?.serviceTier?.tier ?? null);
}

/** What the plan may add to the request's cost, for its reservation: the tier asked for and one call of each hosted kind offered, either way it goes. */
export function passthroughBound(plan: PassthroughPlan): PassthroughBound | undefined {
  const { native, hub } = plan;
  // The native carriage's tier when it asks one, else the hub's.
  const serviceTier = (native?.serviceTier ? native : hub).serviceTier?.tier;
  // Most requests offer no hosted tool: no arrays built for them.
  if (hub.tools.length === 0 && (native?.tools.length ?? 0) === 0) return serviceTier ? { serviceTier, toolKinds: [] } : undefined;
  const toolKinds = [...new Set([...(native?.tools ?? []), ...hub.tools].map((tool) => tool.kind))];
  return { serviceTier, toolKinds };
}
