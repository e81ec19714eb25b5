import { nativeAdapterFor, type NativeAdapter, type NativeDialect, type PassthroughCarriage } from '@chat-relay/wire';
import type { LiveChannel } from '../channels/channel-registry';
import type { ChannelRecord } from '../storage/types';
import type { NativeConversation } from './let-go-of-conversation';

/** A request in a dialect some channel types speak natively (for some of their models: Claude on Vertex speaks Messages). */
export interface NativeCall {
  dialect: NativeDialect;
  /** The route's own reading of a passthrough answer around the channel's adapter (Responses learns the response's id). */
  wrap?(adapter: NativeAdapter): NativeAdapter;
  body: Readonly<Record<string, unknown>>;
  /** The caller's bytes, when `body` is exactly what they parsed to. */
  rawBody?: Buffer;
  /** How `body` holds its conversation: with it, the conversation is let go of while an answer forwarded as `rawBody` is awaited. */
  conversation?: NativeConversation;
  /** The dialect's headers as the caller sent them, forwarded to a native channel. */
  headers: Readonly<Record<string, string>>;
  /** What a request of the dialect carries beyond plain tokens (libs/wire's inspection): policed before it passes through. */
  inspect(body: Readonly<Record<string, unknown>>): PassthroughCarriage;
  /** Whether a channel whose type speaks the dialect for the model takes the request natively (its setting); every such channel when absent. */
  serves?(channel: ChannelRecord): boolean;
  /**
   * A channel of the type may lack the endpoint (an OpenAI-compatible server without the
   * Responses API): `test` recognises its answer, `remember` records it on the channel, and the
   * same channel is tried again bridged — no retry spent, nothing held against its circuit.
   */
  endpointMissing?: { test(status: number, text: string, channel: ChannelRecord): boolean; remember(channel: LiveChannel): Promise<void> };
  /** Whether a channel whose passthrough setting refuses the request may take it bridged instead (a Responses `auto` channel). */
  bridgesWhenRefused?(channel: ChannelRecord): boolean;
}

/**
 * The adapter through which `channel` takes the caller's own request for `model` (the public name,
 * mapped by the channel), or undefined when it must be bridged: its type does not speak the
 * dialect for that upstream model, or the route's setting says no.
 */
export function nativeAdapterOn(native: NativeCall | undefined, channel: LiveChannel, model: string): NativeAdapter | undefined {
  if (!native || (native.serves && !native.serves(channel.record))) return undefined;
  return nativeAdapterOfType(native, channel.record, channel.upstreamModel(model));
}

/** The adapter of a channel for the upstream model, as the route reads it; undefined when the type does not speak the dialect for it. */
export function nativeAdapterOfType(native: NativeCall, channel: ChannelRecord, upstreamModel: string): NativeAdapter | undefined {
  const adapter = nativeAdapterFor(channel.type, native.dialect, upstreamModel, channel);
  return adapter && native.wrap ? native.wrap(adapter) : adapter;
}
