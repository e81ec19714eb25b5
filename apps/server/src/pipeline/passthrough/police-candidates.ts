import { carriesNothing, sendsHubAsIs, type PassthroughCarriage, type RelayError } from '@chat-relay/wire';
import { NOTHING_PASSES } from '../../storage/types';
import type { LiveChannel } from '../../channels/channel-registry';
import type { PassthroughPlan } from './plan-passthrough';
import { policePassthrough } from './police-passthrough';
import { nativeAdapterOn, type NativeCall } from '../native-call';

/** Whether `channel` takes the caller's own request for `model` natively (see nativeAdapterOn). */
export const speaksNatively = (native: NativeCall | undefined, channel: LiveChannel, model: string): boolean =>
  native !== undefined && nativeAdapterOn(native, channel, model) !== undefined;

/** How a request reaches a channel, as far as passthrough goes. */
export interface PassthroughRoute {
  /** The model asked for: which of a channel's upstream models it maps to decides whether it speaks the dialect. */
  request: { model: string };
  native?: NativeCall;
  /** Set when only a native channel can serve the request: a refused passthrough cannot be bridged instead. */
  nativeOnly?: RelayError;
  passthrough?: PassthroughPlan;
}

/**
 * What the request carries to `channel` unpoliced by any bridge: the caller's own request to a
 * channel speaking its dialect, the hub request to an OpenAI-compatible one (it goes as it is,
 * unknown fields and all); nothing to the others, whose converters refuse what they cannot express.
 */
export function carriageFor(route: PassthroughRoute, channel: LiveChannel, bridging: boolean): PassthroughCarriage | undefined {
  const plan = route.passthrough;
  if (!plan) return undefined;
  if (!bridging && speaksNatively(route.native, channel, route.request.model)) return plan.native;
  return sendsHubAsIs(channel.record.type) ? plan.hub : undefined;
}

/** Why the request may not pass through to `channel` as it would be sent (see policePassthrough), or undefined. */
function refusalFor(route: PassthroughRoute, channel: LiveChannel, bridging: boolean): RelayError | undefined {
  const carriage = carriageFor(route, channel, bridging);
  if (!carriage || carriesNothing(carriage) || !route.passthrough) return undefined;
  return policePassthrough(carriage, channel.record.passthrough ?? NOTHING_PASSES, route.passthrough.context);
}

/**
 * How the request goes to `channel` (bridged when `forceBridge`), or why it may not: a native call
 * the channel's setting refuses is bridged instead where the channel allows both (a Responses
 * request on an `auto` channel) and the request can be bridged; the bridged call is policed too.
 */
export function passthroughDecision(route: PassthroughRoute, channel: LiveChannel, forceBridge: boolean): { bridging: boolean } | { refused: RelayError } {
  let bridging = forceBridge || !speaksNatively(route.native, channel, route.request.model);
  if (!bridging) {
    const refused = refusalFor(route, channel, false);
    if (!refused) return { bridging };
    if (route.nativeOnly || route.native?.bridgesWhenRefused?.(channel.record) !== true) return { refused };
    bridging = true;
  }
  const refused = refusalFor(route, channel, true);
  return refused ? { refused } : { bridging };
}

/**
 * The candidates the request may go to; when none may, the refusal of the one routing would have
 * tried first (highest priority), so the caller learns what to change.
 */
export function policedCandidates(candidates: readonly LiveChannel[], route: PassthroughRoute): LiveChannel[] {
  if (!route.passthrough || candidates.length === 0) return [...candidates];
  const refusals = candidates.map((channel) => {
    const decision = passthroughDecision(route, channel, false);
    return 'refused' in decision ? decision.refused : undefined;
  });
  const kept = candidates.filter((_, index) => refusals[index] === undefined);
  if (kept.length > 0) return kept;
  const first = candidates.reduce((best, channel, index) => (channel.record.priority > (candidates[best]?.record.priority ?? -Infinity) ? index : best), 0);
  throw refusals[first] ?? refusals.find((refusal) => refusal !== undefined);
}
