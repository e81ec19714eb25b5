import type { Logger } from './logger';
import { ChannelHealth, type CircuitOptions } from './relay/channel-health';
import { ChannelRegistry } from './relay/channel-registry';
import { UpstreamClient } from './relay/upstream-client';
import { UsageRecorder, type UsageRecorderOptions } from './relay/usage-recorder';
import type { Storage } from './storage/types';

/** The long-lived parts the routes share: routing cache, circuit breakers, pools, usage writer. */
export interface RelayServices {
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  recorder: UsageRecorder;
  /** Drains the usage log and closes upstream pools; storage is closed by its owner. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  usage?: UsageRecorderOptions;
  circuit?: CircuitOptions;
}

export function createServices(storage: Storage, logger: Logger, options: ServiceOptions = {}): RelayServices {
  const upstream = new UpstreamClient();
  const recorder = new UsageRecorder(storage.usageLog, storage.tokens, logger, options.usage);
  return {
    registry: new ChannelRegistry(storage.channels),
    health: new ChannelHealth(options.circuit),
    upstream,
    recorder,
    close: async () => {
      await recorder.close();
      await upstream.close();
    },
  };
}
