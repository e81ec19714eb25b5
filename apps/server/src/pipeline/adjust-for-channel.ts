import type { ChatCompletionRequest } from '@chat-relay/contract';
import {
  adjustForModel,
  refusedParameter,
  renderAdjustments,
  sendsHubAsIs,
  upstreamFormatOf,
  type Adjustment,
  type AdjustedRequest,
  type ModelFacts,
  type ParameterRefusal,
} from '@chat-relay/wire';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import type { LiveChannel } from '../channels/channel-registry';
import type { ParameterRefusals } from '../channels/parameter-refusals';
import type { Logger } from '../logger';
import type { CallerDialect } from './caller-dialect';
import type { RelayTrace } from './request-context';

export interface AdjustDeps {
  /** What each model accepts (issue 28). Absent: requests go as bridged (only the relay's own core tests leave it out). */
  catalogue?: Pick<ModelCatalogueService, 'facts'>;
  /** What each channel's upstream refused by name before. */
  refusals?: ParameterRefusals;
}

/**
 * Whether the request sent to `channel` is the relay's adaptation rather than the caller's own:
 * bridged from another dialect, or sent to a channel that does not take the hub request as it is.
 * Only then may the relay change it to suit the model — a Chat Completions caller's own fields on
 * an OpenAI-compatible channel are its explicit choice, and the upstream's 400 reaches it.
 */
export function isAdapted(dialect: CallerDialect | undefined, channel: LiveChannel): boolean {
  return dialect?.bridge !== undefined || !sendsHubAsIs(channel.record.type);
}

/**
 * The adapted request for one attempt, adjusted to what its upstream model takes and what the
 * channel refused before; with the model's facts, which the channel's converter reads too (how
 * the model thinks).
 */
export function adjustForChannel(
  deps: AdjustDeps,
  request: ChatCompletionRequest,
  channel: LiveChannel,
  upstreamModel: string,
  refused?: ParameterRefusal,
): AdjustedRequest & { facts?: ModelFacts } {
  const catalogue = deps.catalogue;
  if (!catalogue) return { request, adjustments: [] };
  const remembered = deps.refusals?.of(channel.id, upstreamModel);
  const all = refused ? [...(remembered ?? []), refused] : remembered;
  const facts = catalogue.facts(upstreamModel);
  return { ...adjustForModel(request, facts, { format: upstreamFormatOf(channel.record.type), refused: all }), facts };
}

/**
 * The parameter an upstream's 400 refuses by name, when the relay may leave it out and try once
 * more: it was in the request (a limit: the request asked for more), and is not one this
 * attempt already left out. Remembered for the channel and model either way.
 */
export function refusalToRetry(
  deps: AdjustDeps,
  sent: ChatCompletionRequest,
  channel: LiveChannel,
  upstreamModel: string,
  status: number,
  text: string,
): ParameterRefusal | undefined {
  const refusal = refusedParameter(upstreamFormatOf(channel.record.type), status, text);
  if (!refusal) return undefined;
  const fields = sent as Record<string, unknown>;
  const asked = refusal.atMost === undefined ? fields[refusal.field] : Math.max(numberOr0(fields['max_tokens']), numberOr0(fields['max_completion_tokens']));
  const inRequest = refusal.atMost === undefined ? asked !== undefined && asked !== null : (asked as number) > refusal.atMost;
  if (!inRequest) return undefined;
  deps.refusals?.remember(channel.id, upstreamModel, refusal);
  return refusal;
}

const numberOr0 = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** The served attempt's adjustments: logged once, with the request id, and named in the answer's header. */
export function reportAdjustments(logger: Logger, trace: RelayTrace): string | undefined {
  const adjustments = trace.adjustments;
  if (!adjustments || adjustments.length === 0) return undefined;
  const adjusted = renderAdjustments(adjustments);
  logger.info(
    { requestId: trace.requestId, channelId: trace.channelId, upstreamModel: trace.upstreamModel, adjusted, adjustments: adjustments.map(logged) },
    'request adjusted for the model',
  );
  return adjusted;
}

const logged = ({ kind, field, reason }: Adjustment) => `${field} ${kind}: ${reason}`;
