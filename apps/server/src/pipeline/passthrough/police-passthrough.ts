import { PER_CALL_TOOL_KINDS } from '@chat-relay/contract';
import { invalidRequest, RelayError, type CarriedObject, type CarriedTool, type PassthroughCarriage } from '@chat-relay/wire';
import { isModelAllowed } from '../../policy/model-allow-list';
import type { ChannelPassthroughRecord, PriceRecord } from '../../storage/types';

/** What a passthrough call is judged by besides the channel's setting: the caller and the price table. */
export interface PassthroughContext {
  /** The token's model allow-list (null: every model). */
  allowList: readonly string[] | null;
  /** The model prices are looked up by, and its entry (undefined: not priced). */
  pricedModel: string;
  price: PriceRecord | undefined;
  /** `kind:id` of the upstream objects this account created through the relay (see UpstreamObjects). */
  owned: ReadonlySet<string>;
}

const OBJECT_NAMES: Readonly<Record<CarriedObject['kind'], string>> = {
  file: 'file',
  vector_store: 'vector store',
  conversation: 'conversation',
  prompt: 'stored prompt',
  container: 'container',
  item: 'item of a stored response',
  cached_content: 'context cache',
  skill: 'skill',
  file_search_store: 'file search store',
};

const toolNotAllowed = (tool: CarriedTool) =>
  invalidRequest(
    `The hosted tool '${tool.name}' (${tool.kind}) is not passed through to this channel: the provider would run it on the channel's account. ` +
      `The operator lets hosted tools through per channel (passthrough.hosted_tools).`,
    tool.param,
    'hosted_tool_not_allowed',
  );

const toolNotPriced = (tool: CarriedTool, model: string) =>
  invalidRequest(
    `The hosted tool '${tool.name}' (${tool.kind}) has no price per call for '${model}', and the relay does not pass through what it cannot charge (price table: tool_calls.${tool.kind}).`,
    tool.param,
    'hosted_tool_not_priced',
  );

const objectNotAllowed = ({ kind, id, param }: CarriedObject) =>
  invalidRequest(
    `'${id}' names a ${OBJECT_NAMES[kind]} kept at the provider, which every tenant of the channel's key shares: the relay passes such ids only for what this account created through it` +
      `${kind === 'item' || kind === 'container' ? '' : ' (it serves no API that creates one)'}, or where the operator allows upstream objects (passthrough.upstream_objects).`,
    param,
    'upstream_object_not_allowed',
  );

/** A tool's own model (image_generation's) the token may not use: 403, as for the request's model. */
const toolModelNotAllowed = (tool: CarriedTool & { model: string }) =>
  new RelayError({
    status: 403,
    type: 'permission_error',
    code: 'model_not_allowed',
    message: `This API key is not allowed to use the model '${tool.model}', which the '${tool.name}' tool would call.`,
    param: `${tool.param}.model`,
  });

function policeTools(carriage: PassthroughCarriage, setting: ChannelPassthroughRecord, context: PassthroughContext): RelayError | undefined {
  const unknown = carriage.unknownTools?.[0];
  if (unknown) {
    return invalidRequest(
      `'${unknown.name}' is a tool this relay does not know, so it cannot tell what it reaches or costs: it is not passed through.`,
      unknown.param,
      'hosted_tool_unknown',
    );
  }
  for (const tool of carriage.tools) {
    if (!setting.hostedTools.includes(tool.kind)) return toolNotAllowed(tool);
    if (PER_CALL_TOOL_KINDS.has(tool.kind) && context.price?.toolCalls?.[tool.kind] == null) return toolNotPriced(tool, context.pricedModel);
  }
  return undefined;
}

/**
 * Whether a request that passes through to a channel may, by what it carries (issue 26): the
 * models its tools call must be the token's (403, whichever channel), every hosted tool, premium
 * tier and audio answer the channel's setting must let through and the price table must price
 * (per call where the provider charges per call, a multiplier per tier, audio tokens), and every
 * upstream object id must be one this account created through the relay — or the channel lets
 * upstream objects through (a single-tenant install). Undefined when it may; else the refusal.
 */
export function policePassthrough(carriage: PassthroughCarriage, setting: ChannelPassthroughRecord, context: PassthroughContext): RelayError | undefined {
  for (const tool of carriage.tools) {
    if (tool.model !== undefined && !isModelAllowed(context.allowList, tool.model)) return toolModelNotAllowed({ ...tool, model: tool.model });
  }
  const toolRefusal = policeTools(carriage, setting, context);
  if (toolRefusal) return toolRefusal;
  if (!setting.upstreamObjects) {
    const foreign = carriage.objects.find((object) => !context.owned.has(`${object.kind}:${object.id}`));
    if (foreign) return objectNotAllowed(foreign);
  }
  const tier = carriage.serviceTier;
  if (tier && !setting.serviceTiers.includes(tier.tier)) {
    return invalidRequest(
      `service_tier '${tier.tier}' is not passed through to this channel (passthrough.service_tiers): leave it out or ask for the standard tier.`,
      tier.param,
      'service_tier_not_allowed',
    );
  }
  if (tier && context.price?.serviceTiers?.[tier.tier] == null) {
    return invalidRequest(`service_tier '${tier.tier}' has no price multiplier for '${context.pricedModel}' (price table: service_tiers.${tier.tier}).`, tier.param, 'service_tier_not_priced');
  }
  const audio = carriage.audioOutput;
  if (audio && !setting.audioOutput) {
    return invalidRequest('Audio answers are not passed through to this channel (passthrough.audio_output).', audio.param, 'audio_output_not_allowed');
  }
  if (audio && context.price?.audioOutput == null) {
    return invalidRequest(`Audio answers have no price for '${context.pricedModel}' (price table: audio_output).`, audio.param, 'audio_output_not_priced');
  }
  return undefined;
}
