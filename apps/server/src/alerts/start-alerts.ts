import { Counter, type Registry } from 'prom-client';
import { systemClock, type Clock } from '../core/limit-windows';
import type { Logger } from '../logger';
import type { Storage } from '../storage/types';
import { channelEventSink, type ChannelEventSink } from './channel-events';
import { LimitAlerts } from './limit-alerts';
import { WebhookEvents } from './webhook-events';
import { WebhookWorker, type DeliveryOutcome, type WebhookWorkerOptions } from './webhook-worker';

/** The alerts' settings (config.ts `alerts`). */
export interface AlertOptions extends WebhookWorkerOptions {
  /** RELAY_ALERT_THRESHOLDS: percent of a limit, for owners with none of their own. */
  thresholds: number[];
  /** RELAY_LIMITS_TIME_ZONE: where windows are counted for owners with no zone of their own. */
  defaultTimeZone: string;
}

export const DEFAULT_ALERTS: AlertOptions = {
  thresholds: [80, 100],
  defaultTimeZone: 'UTC',
  timeoutMs: 10_000,
  maxAttempts: 8,
  firstDelayMs: 5_000,
  retentionDays: 7,
};

/** Alerts and webhooks as the services hold them. */
export interface Alerts {
  events: WebhookEvents;
  /** What routing and circuit breakers tell about channels. */
  channelEvents: ChannelEventSink;
  limits: LimitAlerts;
  worker: WebhookWorker;
  /** After the usage recorder closed: the last threshold pass ends, the worker stops. */
  close(): Promise<void>;
}

export interface AlertDeps {
  storage: Storage;
  logger: Logger;
  /** `/metrics`: deliveries counted by outcome. */
  registry: Registry;
  /** A channel's name for its events. */
  channelName(channelId: number): Promise<string>;
  clock?: Clock;
}

/** Builds the alert parts and starts the delivery worker on its timers. */
export function startAlerts(deps: AlertDeps, options: AlertOptions = DEFAULT_ALERTS): Alerts {
  const clock = deps.clock ?? systemClock;
  const deliveries = new Counter({
    name: 'relay_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered (2xx), retried (to be tried again), failed (no attempt left).',
    labelNames: ['outcome'] as const,
    registers: [deps.registry],
  });
  for (const outcome of ['delivered', 'retried', 'failed'] satisfies DeliveryOutcome[]) deliveries.labels(outcome).inc(0);
  const worker = new WebhookWorker(
    { store: deps.storage.webhooks, logger: deps.logger, clock, observe: (outcome) => deliveries.labels(outcome).inc() },
    options,
  );
  const events = new WebhookEvents(deps.storage.webhooks, deps.logger, clock, () => worker.poke());
  const limits = new LimitAlerts({
    tokens: deps.storage.tokens,
    accounts: deps.storage.accounts,
    quota: deps.storage.quota,
    events,
    logger: deps.logger,
    clock,
    defaultThresholds: options.thresholds,
    defaultTimeZone: options.defaultTimeZone,
  });
  worker.start();
  return {
    events,
    channelEvents: channelEventSink(events, deps.channelName, deps.logger),
    limits,
    worker,
    close: async () => {
      await limits.settled();
      await worker.close();
    },
  };
}
