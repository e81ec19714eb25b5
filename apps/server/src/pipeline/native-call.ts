import type { ChannelType } from '@chat-relay/contract';
import type { NativeAdapter, PassthroughCarriage } from '@chat-relay/wire';
import type { LiveChannel } from '../channels/channel-registry';
import type { ChannelRecord } from '../storage/types';

/** A request in a dialect some channel type speaks natively. */
export interface NativeCall {
  channelType: ChannelType;
  adapter: NativeAdapter;
  body: Readonly<Record<string, unknown>>;
  /** The caller's bytes, when `body` is exactly what they parsed to. */
  rawBody?: Buffer;
  /** The dialect's headers as the caller sent them, forwarded to a native channel. */
  headers: Readonly<Record<string, string>>;
  /** What a request of the dialect carries beyond plain tokens (libs/wire's inspection): policed before it passes through. */
  inspect(body: Readonly<Record<string, unknown>>): PassthroughCarriage;
  /** Whether a channel takes the request natively; every channel of `channelType` when absent. */
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
