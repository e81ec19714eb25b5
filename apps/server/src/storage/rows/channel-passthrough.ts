import { HostedToolKindSchema } from '@chat-relay/contract';
import { NOTHING_PASSES, type ChannelPassthroughRecord } from '../types';

/** A channel's passthrough setting as both backends store it: JSON, `{}` (the default) when nothing passes. */
export function passthroughColumn(passthrough: ChannelPassthroughRecord | undefined): string {
  return JSON.stringify(passthrough ?? {});
}

/** The stored JSON read back; a field it lacks (or cannot be read) lets nothing through. */
export function passthroughFromColumn(stored: unknown): ChannelPassthroughRecord {
  let value: unknown = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return NOTHING_PASSES;
    }
  }
  if (typeof value !== 'object' || value === null) return NOTHING_PASSES;
  const fields = value as Partial<Record<keyof ChannelPassthroughRecord, unknown>>;
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : []);
  return {
    hostedTools: strings(fields.hostedTools).flatMap((kind) => {
      const parsed = HostedToolKindSchema.safeParse(kind);
      return parsed.success ? [parsed.data] : [];
    }),
    serviceTiers: strings(fields.serviceTiers),
    audioOutput: fields.audioOutput === true,
    upstreamObjects: fields.upstreamObjects === true,
  };
}
