import type { Endpoint } from '@chat-relay/contract';
import type { RelayError } from '../errors/relay-error';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import type { UpstreamFailure, UpstreamTarget } from '../hub/upstream-adapter';

/** What a long-running task makes (SPEC §7a): each kind has its routes, its provider and its unit of cost. */
export type TaskKind = 'video' | 'music';

/** A task's state as the relay keeps it, whatever the provider calls it. */
export type TaskState = 'queued' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** A task's failure as callers see it (OpenAI's video `error`, new-api's `fail_reason`). */
export interface TaskFailure {
  code: string;
  message: string;
}

/** What the upstream says about a task, read from its answer to a submit or a poll. */
export interface TaskSnapshot {
  state: Exclude<TaskState, 'cancelled'>;
  /** 0–100. */
  progress: number;
  /** Set when `state` is `failed`. */
  error: TaskFailure | null;
  /**
   * The upstream's own object about the task, kept for the views (a video's `expires_at`, a
   * song's `data`); its ids are the upstream's and never reach a caller as they are.
   */
  result: Record<string, unknown>;
  /**
   * When `completed`: what it is priced by — seconds of video and its size (`unitVariant`), or
   * songs. Absent: the units reserved at submit stand.
   */
  units?: number;
  unitVariant?: string;
}

/** One call about a submitted task (a poll, a cancel, its content): no body, or a JSON one whose `content-type` its headers give. */
export interface TaskCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TaskCallArgs {
  channel: UpstreamTarget;
  key: string;
  /** The upstream's id of the task. */
  upstreamId: string;
}

/** The answer to a poll: a snapshot, or why there is none (`gone`: the upstream does not know the task). */
export type TaskReading = { ok: true; snapshot: TaskSnapshot } | { ok: false; error: RelayError; gone?: true };

/** The answer to a submit: the upstream's id of the new task and its first state. */
export type TaskSubmitted = { ok: true; upstreamId: string; snapshot: TaskSnapshot } | { ok: false; error: RelayError };

/**
 * One kind of task spoken to one channel type: the submit is an endpoint adapter (so it runs the
 * one pipeline: policy, quota reservation, routing with retries), polls and content are calls the
 * server sends with the key that submitted. Pure: the server sends, stores and accounts.
 */
export interface TaskProvider<Req> {
  kind: TaskKind;
  endpoint: Endpoint;
  /** Builds the submit; its `convertResponse` answers the upstream's body unchanged (JSON), usage zero. */
  submit: EndpointAdapter<Req>;
  /** The submit's 2xx body → the upstream's id and the task's first state. */
  readSubmitted(body: Record<string, unknown>): TaskSubmitted;
  buildPoll(args: TaskCallArgs): TaskCall;
  /** A poll's 2xx text → the task's state. */
  readPoll(text: string, upstreamId: string): TaskReading;
  /** Cancels or deletes the task upstream; absent: the provider has no such call (the relay forgets it). */
  buildCancel?(args: TaskCallArgs): TaskCall;
  /** Downloads a result (`variant`: video, thumbnail, spritesheet); absent: results are URLs in `result`. */
  buildContent?(args: TaskCallArgs & { variant: string }): TaskCall;
  /** A non-2xx answer to any of these calls → the caller's error (the channel's keys redacted). */
  mapErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure;
}
