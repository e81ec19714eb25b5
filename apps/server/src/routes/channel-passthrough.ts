import type { ChannelPassthrough, ChannelPassthroughInput } from '@chat-relay/contract';
import { NOTHING_PASSES, type ChannelPassthroughRecord } from '../storage/types';

/** A create's or update's `passthrough` over what the channel had (nothing, for a new one): only the fields sent change. */
export function passthroughFrom(input: ChannelPassthroughInput, base: ChannelPassthroughRecord = NOTHING_PASSES): ChannelPassthroughRecord {
  return {
    hostedTools: input.hosted_tools ?? base.hostedTools,
    serviceTiers: input.service_tiers ?? base.serviceTiers,
    audioOutput: input.audio_output ?? base.audioOutput,
    upstreamObjects: input.upstream_objects ?? base.upstreamObjects,
  };
}

export function passthroughView(passthrough: ChannelPassthroughRecord = NOTHING_PASSES): ChannelPassthrough {
  return {
    hosted_tools: [...passthrough.hostedTools],
    service_tiers: [...passthrough.serviceTiers],
    audio_output: passthrough.audioOutput,
    upstream_objects: passthrough.upstreamObjects,
  };
}
