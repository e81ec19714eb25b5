import type { ProfileReport } from './cpu-profile-files';
import { difference, ratio } from './stats';

export type Mode = 'non-stream' | 'stream' | '64k' | 'embeddings';
/** `relay (PostgreSQL + Redis)`: with --shared-stores, the same relay on shared stores (SHARED_RELAY_TARGET). */
export type TargetId = 'direct' | 'floor' | 'express' | 'relay' | 'relay (PostgreSQL + Redis)' | 'portkey';

/** One target under one load (mode × connections), as the load runner measured it. */
export interface LoadMeasurement {
  target: TargetId;
  mode: Mode;
  connections: number;
  /** 2xx responses completed during the measured window. */
  requests: number;
  rps: number;
  p50Ms: number | undefined;
  p99Ms: number | undefined;
  /** Connection errors, timeouts included (autocannon counts them in both). */
  errors: number;
  timeouts: number;
  non2xx: number;
  /** CPU of the target's own process (the simulator's for `direct`). */
  cpuMicrosPerRequest: number | undefined;
  /**
   * The simulator's CPU a request of this target's (undefined for `direct`, which is the
   * simulator). On the bench's shared cores the three processes — load generator, target,
   * simulator — split the CPUs: what a target asks of its upstream, or makes the load generator
   * read, comes out of the requests a second it can serve.
   */
  upstreamCpuMicrosPerRequest: number | undefined;
  /** The load generator's (the bench's own process) CPU a request of this target's. */
  loadCpuMicrosPerRequest: number | undefined;
  peakRssBytes: number | undefined;
  /** Share of all CPUs used by processes outside the benchmark during the load: noise. */
  foreignCpuShare: number | undefined;
  /** Share of all CPUs' time the hypervisor gave another guest during the load (steal): noise no process here shows. */
  stolenCpuShare: number | undefined;
}

/** Time to the first body chunk of a stream, sequential requests on one connection. */
export interface TtfbMeasurement {
  target: TargetId;
  samples: number;
  failures: number;
  p50Ms: number | undefined;
  p99Ms: number | undefined;
}

export interface ReportRow extends LoadMeasurement {
  /** p50 minus the simulator's own p50 under the same load. */
  addedP50Ms: number | undefined;
  /** Only on stream rows at 1 connection, where the probe's conditions match. */
  ttfbP50Ms: number | undefined;
  addedTtfbP50Ms: number | undefined;
  ratioToFloor: number | undefined;
  ratioToExpress: number | undefined;
}

/** Who the slow streams ran through: the relay (what the targets are judged on) and bare Express as its reference. */
export type SlowStreamsTarget = Extract<TargetId, 'relay' | 'express'>;

export interface SlowStreamsResult {
  target: SlowStreamsTarget;
  /** Fast streams sent through the fresh process before `rssBeforeBytes` was read (see slow-streams.ts). */
  warmupStreams: number;
  requested: number;
  completed: number;
  failed: number;
  /** Most streams open (headers received, not yet ended) at one moment. */
  peakOpen: number;
  msPerToken: number;
  chunksPerStream: number;
  seconds: number;
  rssBeforeBytes: number | undefined;
  rssPeakBytes: number | undefined;
  growthPerStreamBytes: number | undefined;
  firstFailure: string | undefined;
}

/**
 * How long the targets are left without load before their idle RSS is read: V8's memory reducer
 * gives back what start-up grew (its young generation, mostly) about 8 s after a process goes
 * quiet, and a process that sits idle is what an operator sees.
 */
export const IDLE_SETTLE_MS = 12_000;

/** A target's resident memory with no load on it, once it settled after its first requests. */
export interface IdleRss {
  target: TargetId;
  rssBytes: number | undefined;
}

/** Latencies of the health check while large bodies were in flight (a probe in a process of its own). */
export interface HealthzLatency {
  samples: number;
  p50Ms: number | undefined;
  p99Ms: number | undefined;
  maxMs: number | undefined;
  /** Checks that took longer than 100 ms. */
  over100Ms: number;
}

/** One load of large bodies through a fresh relay: what they got back, and how the relay's event loop fared. */
export interface LargeBodyRow {
  name: string;
  bodyBytes: number;
  /** Callers at once, each sending `perCaller` requests one after the other. */
  callers: number;
  perCaller: number;
  /** Answers by status, e.g. `{ "200": 8 }`, and `error` for requests that got none. */
  statuses: Record<string, number>;
  requestP50Ms: number | undefined;
  requestMaxMs: number | undefined;
  /** From the first request sent to the last answer. */
  seconds: number;
  healthz: HealthzLatency;
  /** The relay's own event-loop delay, most seen during the load (`nodejs_eventloop_lag_max_seconds`). */
  loopLagMaxMs: number | undefined;
}

export interface BenchReport {
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    loadAverageAtStart: string;
    /** Share of all CPUs busy in the second before the run started (0–1). */
    busyBeforeRun: number | undefined;
    clockTicksPerSecond: number;
  };
  settings: { durationSeconds: number; warmupSeconds: number; slices: number; prewarmSeconds: number; ttfbRequests: number; quick: boolean; peers: boolean; sharedStores: boolean };
  /** Each target's RSS before any load (issue 30's idle target); empty when not measured. */
  idle: IdleRss[];
  rows: ReportRow[];
  ttfb: TtfbMeasurement[];
  /** The relay's slow streams, then the Express proxy's as a reference; empty when not run. */
  slowStreams: SlowStreamsResult[];
  /** The relay with ~18 MB bodies in flight (relayed bridged, and refused); empty when not run. */
  largeBodies: LargeBodyRow[];
  /** The relay's CPU profile, summarised, with --cpu-prof. */
  profile: ProfileReport | undefined;
  notes: string[];
}

/** Steal above this share of the CPUs' time makes a row's figures the host's as much as the target's. */
export const STOLEN_NOTE_SHARE = 0.02;

/**
 * The note for a load the hypervisor took CPU from (steal), or undefined: on a virtual machine
 * whose host runs other guests, the targets' CPU a request and throughput move with it in a way
 * that alternating windows only partly evens out — the machine was not quiet.
 */
export function stolenNote(measurement: Pick<LoadMeasurement, 'stolenCpuShare'>): string | undefined {
  const stolen = measurement.stolenCpuShare ?? 0;
  if (stolen <= STOLEN_NOTE_SHARE) return undefined;
  return `the hypervisor took ${Math.round(stolen * 100)} % of the CPUs' time (steal) during the load: not a quiet machine`;
}

/** Adds what needs the other rows of the same mode and concurrency: added latency and the ratios. */
export function buildReportRows(measurements: readonly LoadMeasurement[], ttfbs: readonly TtfbMeasurement[]): ReportRow[] {
  const find = (target: TargetId, like: LoadMeasurement): LoadMeasurement | undefined =>
    measurements.find((m) => m.target === target && m.mode === like.mode && m.connections === like.connections);
  const ttfbOf = (target: TargetId): number | undefined => ttfbs.find((t) => t.target === target)?.p50Ms;

  return measurements.map((measurement) => {
    const direct = find('direct', measurement);
    const floor = find('floor', measurement);
    const express = find('express', measurement);
    const isDirect = measurement.target === 'direct';
    const showsTtfb = measurement.mode === 'stream' && measurement.connections === 1;
    const ttfb = showsTtfb ? ttfbOf(measurement.target) : undefined;
    return {
      ...measurement,
      addedP50Ms: isDirect ? undefined : difference(measurement.p50Ms, direct?.p50Ms),
      ttfbP50Ms: ttfb,
      addedTtfbP50Ms: showsTtfb && !isDirect ? difference(ttfb, ttfbOf('direct')) : undefined,
      ratioToFloor: ratio(measurement.rps, floor?.rps),
      ratioToExpress: ratio(measurement.rps, express?.rps),
    };
  });
}
