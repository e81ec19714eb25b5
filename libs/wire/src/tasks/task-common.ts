import { upstreamError, type RelayError } from '../errors/relay-error';
import type { EndpointUsage } from '../hub/endpoint-adapter';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import type { TaskFailure, TaskState } from './task-provider';

/**
 * What the relay keeps of a task that the views show (the server's TaskRecord fits): the views
 * answer from it, never from an upstream's object as it is.
 */
export interface TaskViewSource {
  /** The relay's public id. */
  id: string;
  /** The model name the caller used. */
  model: string;
  status: TaskState;
  progress: number;
  error: TaskFailure | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, when the upstream first reported it running. */
  startedAt?: string | null;
  /** ISO 8601, when it ended (completed, failed or cancelled). */
  completedAt: string | null;
  /** What the caller asked that the views show (a video's prompt, size, seconds; a Suno action). */
  params: Record<string, unknown>;
  /** The upstream's last object about the task; null before the first answer. */
  result: Record<string, unknown> | null;
}

/** A task's submit is priced when the task completes, not when it is accepted. */
export const TASK_SUBMIT_USAGE: Readonly<EndpointUsage> = { promptTokens: 0, completionTokens: 0, units: 0 };

/** A 2xx body about a task that says nothing the relay can read: the upstream's fault. */
export const malformedTaskAnswer = (what: string): RelayError => upstreamError(`The upstream provider sent a malformed ${what}.`, 'bad_response');

/** The answer's JSON object, or the failure that it is none. */
export function readTaskJson(text: string, what: string): { ok: true; json: JsonObject } | { ok: false; error: RelayError } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: upstreamError(`The upstream provider sent a ${what} that is not JSON.`, 'bad_response') };
  }
  return isJsonObject(json) ? { ok: true, json } : { ok: false, error: malformedTaskAnswer(what) };
}

/** A percentage as callers read it: a whole number from 0 to 100 (upstreams send fractions, or overshoot). */
export function clampProgress(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, Math.round(value)));
}

/** Unix seconds of an ISO time; null when it is absent or unreadable. */
export function unixSeconds(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const millis = Date.parse(iso);
  return Number.isNaN(millis) ? null : Math.floor(millis / 1000);
}

/** An upstream's short text for an error message: trimmed, cut, and nothing when it is a page of HTML. */
export function upstreamTextExcerpt(text: string, limit = 300): string {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.startsWith('<')) return '';
  return trimmed.length > limit ? `${trimmed.slice(0, limit)}…` : trimmed;
}
