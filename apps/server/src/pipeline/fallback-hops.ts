import type { ChatCompletionRequest, FallbackTrigger } from '@chat-relay/contract';
import { modelNotFound, RelayError } from '@chat-relay/wire';
import type { Caller } from '../auth/caller';
import { countPromptTokens } from '../billing/estimate-usage';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import type { LiveChannel } from '../channels/channel-registry';
import type { AbortLike } from '../core/caller-gone';
import type { Logger } from '../logger';
import { assertModelAllowed } from '../policy/enforce-token-policy';
import { exceedsEveryWindow, fallsBack, hopRequest, withoutChainFields, type FallbackChain } from './fallback-chain';
import type { ChatRelayResult, NativeCall } from './relay-chat-completion';
import type { RelayTrace } from './request-context';
import { resolveModel, type ResolveDeps, type ResolvedModel } from './resolve-model';
import type { CountPrompt } from './reservation-bound';

/** What a hop of a chain needs resolved before anything is reserved or sent. */
export interface HopModel {
  /** The public name the caller (or the rule) gave: the answer's `model` when this hop serves. */
  model: string;
  resolved: ResolvedModel;
}

export interface HopDeps extends ResolveDeps {
  logger: Logger;
  catalogue?: Pick<ModelCatalogueService, 'facts'>;
  countPrompt?: CountPrompt;
}

/** The caller's own request for a channel speaking its dialect, with an assistant applied when the name selects one. */
export interface NativeSource extends NativeCall {
  applyAssistant(assistant: NonNullable<ResolvedModel['assistant']>, family: string): Readonly<Record<string, unknown>>;
}

/**
 * Every hop of `chain` resolved (each gizmo name its own assistant) and admitted for the caller:
 * each entry checked against the token's allow-list. A request's own list is refused up front
 * for an entry it may not use (403) or that no channel serves (404), naming it; a rule's entry
 * that cannot serve this caller is left out of the chain instead (logged), the rest still apply.
 */
export async function resolveHops(
  deps: HopDeps,
  chain: FallbackChain,
  first: ResolvedModel,
  request: ChatCompletionRequest,
  caller: Caller | undefined,
  accountId: number,
): Promise<HopModel[]> {
  const hops: HopModel[] = [{ model: chain.models[0] as string, resolved: { ...first, request: withoutChainFields(first.request) } }];
  for (const model of chain.models.slice(1)) {
    try {
      if (caller?.kind === 'token') assertModelAllowed(caller.token, model);
      const resolved = await resolveModel(deps, hopRequest(request, model), accountId);
      if ((await deps.registry.candidatesFor(resolved.request.model, 'chat')).length === 0) throw modelNotFound(model);
      hops.push({ model, resolved });
    } catch (error) {
      if (chain.source === 'request' || !(error instanceof RelayError)) throw error;
      deps.logger.warn({ model, code: error.code }, 'fallback rule entry left out for this request');
    }
  }
  return hops;
}

/**
 * The caller's own request for one hop: without the chain fields, naming the hop's model (the
 * channel maps it upstream), an assistant applied for a gizmo name. Never the caller's bytes: they
 * carry the chain fields.
 */
export function nativeForHop(native: NativeSource, hop: HopModel): NativeCall {
  const { assistant, family } = hop.resolved;
  const applied = assistant && family !== null ? native.applyAssistant(assistant, family) : native.body;
  const body = withoutChainFields(applied);
  return { ...native, body: 'model' in body && !assistant ? { ...body, model: hop.model } : body, rawBody: undefined };
}

/** One hop as the pipeline planned it: what the relay sends for it. */
export interface PlannedHop extends HopModel {
  channels: readonly LiveChannel[];
}

/** What went through a chain: the answer and the hop that served. */
export interface ChainOutcome<H extends PlannedHop = PlannedHop> {
  result: ChatRelayResult;
  served: H;
}

/** The request the hops are tried for; `tried` is filled with each model tried, in order (skipped ones included), even when all fail. */
export interface HopRun {
  trace: RelayTrace;
  signal: AbortLike;
  tried: string[];
}

/**
 * The hops tried in order until one answers (SPEC §6 within each; issue 32 across them). A model's
 * failure moves on only when its class is one of the chain's triggers and the caller is still
 * there; otherwise, and after the last hop, the last failure is the answer. A hop whose every
 * upstream model has a known context window smaller than the prompt is skipped before sending
 * (context_length), unless it is the last. Each hop is priced by its own model (trace.pricedModel).
 */
export async function relayHops<H extends PlannedHop>(
  deps: HopDeps,
  chain: FallbackChain,
  hops: readonly H[],
  run: HopRun,
  relay: (hop: H) => Promise<ChatRelayResult>,
  onFallback?: (from: string, to: string, trigger: FallbackTrigger) => void,
): Promise<ChainOutcome<H>> {
  const { trace, signal, tried } = run;
  let promptTokens: number | undefined;
  for (const [index, hop] of hops.entries()) {
    const next = hops[index + 1];
    tried.push(hop.model);
    if (next && chain.triggers.has('context_length')) {
      const windows = hop.channels.map((channel) => deps.catalogue?.facts(channel.upstreamModel(hop.resolved.request.model)).contextWindow);
      if (windows.every((window) => window !== undefined)) {
        promptTokens ??= await (deps.countPrompt ?? countPromptTokens)(hop.resolved.request);
        if (exceedsEveryWindow(promptTokens, windows)) {
          deps.logger.info({ requestId: trace.requestId, model: hop.model, next: next.model, promptTokens }, 'fallback: prompt exceeds the context window, skipped before sending');
          onFallback?.(hop.model, next.model, 'context_length');
          continue;
        }
      }
    }
    trace.pricedModel = hop.resolved.request.model;
    trace.assistantId = hop.resolved.assistantId;
    trace.adjustments = undefined;
    try {
      return { result: await relay(hop), served: hop };
    } catch (error) {
      if (!next || !(error instanceof RelayError) || signal.aborted) throw error;
      const trigger = fallsBack(chain, error);
      if (!trigger) throw error;
      deps.logger.warn({ requestId: trace.requestId, model: hop.model, next: next.model, trigger, status: error.status, code: error.code }, 'fallback to the next model');
      onFallback?.(hop.model, next.model, trigger);
    }
  }
  // Unreachable: the last hop returns or throws.
  throw new Error('a fallback chain ended without an answer');
}
