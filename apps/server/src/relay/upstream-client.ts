import { Agent, request, type Dispatcher } from 'undici';
import type { ChannelRecord } from '../storage/types';

export interface UpstreamCall {
  channel: ChannelRecord;
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

export type UpstreamResponse = Dispatcher.ResponseData;

/**
 * Keep-alive connection pools to upstreams: one undici Agent per channel (so each channel's
 * connect timeout applies), reused across requests, replaced when the channel changes.
 */
export class UpstreamClient {
  private readonly agents = new Map<number, { agent: Agent; version: string }>();

  async post(call: UpstreamCall): Promise<UpstreamResponse> {
    const { channel } = call;
    return request(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      signal: call.signal,
      dispatcher: this.agentFor(channel),
      headersTimeout: channel.timeouts.firstByteMs,
      bodyTimeout: channel.timeouts.idleMs,
    });
  }

  async close(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(agents.map(({ agent }) => agent.close()));
  }

  private agentFor(channel: ChannelRecord): Agent {
    const version = `${channel.updatedAt}|${channel.timeouts.connectMs}`;
    const existing = this.agents.get(channel.id);
    if (existing && existing.version === version) return existing.agent;
    if (existing) void existing.agent.close();
    const agent = new Agent({
      connect: { timeout: channel.timeouts.connectMs },
      // No cap per origin: every concurrent caller stream needs its own upstream socket.
      connections: null,
      pipelining: 1,
    });
    this.agents.set(channel.id, { agent, version });
    return agent;
  }
}

/** What went wrong on the way to an upstream, in routing terms. */
export type TransportFailure = 'timeout' | 'unreachable' | 'connection' | 'aborted';

export function classifyTransportError(error: unknown): TransportFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED') return 'aborted';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return 'timeout';
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') {
    return 'unreachable';
  }
  return 'connection';
}
