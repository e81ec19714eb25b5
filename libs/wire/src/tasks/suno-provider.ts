import type { SunoAction } from '@chat-relay/contract';
import { z } from 'zod';
import { invalidRequest, upstreamError, type RelayError } from '../errors/relay-error';
import { trimBaseUrl } from '../hub/native-request-body';
import { isJsonObject, type JsonObject } from '../json/json-checks';
import { mapSunoErrorResponse } from './suno-error';
import { clampProgress, malformedTaskAnswer, readTaskJson, TASK_SUBMIT_USAGE } from './task-common';
import type { TaskCall, TaskProvider, TaskReading, TaskSnapshot, TaskSubmitted } from './task-provider';
import { sunoAuthHeaders } from '../providers/provider-auth';

/** `POST /suno/submit/:action` as the server hands it over: the action and the caller's JSON body. */
export interface SunoTaskRequest {
  action: SunoAction;
  body: Readonly<Record<string, unknown>>;
}

/** The song model new-api sends when a music request names none in `mv`. */
export const SUNO_DEFAULT_MV = 'chirp-v3-0';
/** Given when an upstream says a song failed. */
export const MUSIC_FAILED_CODE = 'music_generation_failed';

/** new-api's `{code, message, data}`: `code` is "success" when it worked. */
const SunoEnvelopeSchema = z.object({ code: z.string().catch(''), message: z.string().catch(''), data: z.unknown() }).passthrough();

/** new-api's SunoDataResponse, tolerantly: a field of an unexpected type is read as absent. */
const SunoItemSchema = z
  .object({
    task_id: z.string(),
    status: z.string().catch(''),
    fail_reason: z.string().catch(''),
    // Not in new-api's SunoDataResponse, but a new-api upstream answers its TaskDto, which has it.
    progress: z.string().optional().catch(undefined),
  })
  .passthrough();
type SunoItem = z.infer<typeof SunoItemSchema>;

/**
 * new-api's task statuses, and the words its DTO says upstreams use (queueing, processing,
 * failed), in any case; UNKNOWN, empty and anything else are read as still running: the relay
 * keeps polling until its deadline rather than end a task the upstream may yet finish.
 */
function sunoStateOf(status: string): TaskSnapshot['state'] {
  switch (status.trim().toUpperCase()) {
    case 'NOT_START':
    case 'SUBMITTED':
    case 'QUEUED':
    case 'QUEUEING':
      return 'queued';
    case 'IN_PROGRESS':
    case 'PROCESSING':
      return 'in_progress';
    case 'SUCCESS':
      return 'completed';
    case 'FAILURE':
    case 'FAILED':
      return 'failed';
    default:
      return 'in_progress';
  }
}

const RUNNING_PROGRESS = { queued: 0, in_progress: 50 } as const;

/** `"NN%"` as a percentage; undefined when it is not one. */
function percentOf(text: string | undefined): number | undefined {
  const match = text?.trim().match(/^(\d{1,3}(?:\.\d+)?)\s*%$/);
  return match ? clampProgress(Number(match[1])) : undefined;
}

function sunoSnapshot(item: SunoItem, json: JsonObject): TaskSnapshot {
  const stated = sunoStateOf(item.status);
  // new-api refunds a task whose fail_reason is set whatever its status says: so does the relay, short of a success.
  const state = stated !== 'completed' && item.fail_reason.trim() !== '' ? 'failed' : stated;
  switch (state) {
    case 'completed':
      // One song task is one unit, whatever number of clips it made.
      return { state, progress: 100, error: null, result: json, units: 1 };
    case 'failed':
      return {
        state,
        progress: 100,
        error: { code: MUSIC_FAILED_CODE, message: item.fail_reason.trim() || 'The upstream provider could not generate the music.' },
        result: json,
      };
    case 'queued':
    case 'in_progress':
      return { state, progress: percentOf(item.progress) ?? RUNNING_PROGRESS[state], error: null, result: json };
    default: {
      const unreachable: never = state;
      return unreachable;
    }
  }
}

/** A `code` other than "success" on a 2xx answer: the upstream refused, in its own words. */
const refusal = (envelope: z.infer<typeof SunoEnvelopeSchema>): RelayError =>
  upstreamError(
    envelope.message.trim() ? `The upstream provider refused the task: ${envelope.message.trim()}` : 'The upstream provider refused the task.',
    envelope.code || 'upstream_error',
  );

function readSubmittedSong(body: JsonObject): TaskSubmitted {
  const envelope = SunoEnvelopeSchema.parse(body);
  if (envelope.code !== 'success') return { ok: false, error: refusal(envelope) };
  if (typeof envelope.data !== 'string' || envelope.data === '') return { ok: false, error: malformedTaskAnswer('Suno submit answer (it has no task id)') };
  // No status yet: the first poll tells it. The upstream's id is kept for the record, never shown.
  return { ok: true, upstreamId: envelope.data, snapshot: { state: 'queued', progress: 0, error: null, result: { task_id: envelope.data } } };
}

function readPolledSong(text: string, upstreamId: string): TaskReading {
  const read = readTaskJson(text, 'Suno fetch answer');
  if (!read.ok) return read;
  const envelope = SunoEnvelopeSchema.parse(read.json);
  if (envelope.code !== 'success') return { ok: false, error: refusal(envelope) };
  // Go writes an empty list as null: new-api's fetch of ids it has none of answers `data: null`.
  const items = envelope.data ?? [];
  if (!Array.isArray(items)) return { ok: false, error: malformedTaskAnswer('Suno fetch answer') };
  const found: unknown = items.find((item) => isJsonObject(item) && item['task_id'] === upstreamId);
  if (found === undefined) return { ok: false, gone: true, error: upstreamError('The upstream provider no longer knows the task.', 'task_not_found') };
  const item = SunoItemSchema.safeParse(found);
  if (!item.success || !isJsonObject(found)) return { ok: false, error: malformedTaskAnswer('Suno task') };
  return { ok: true, snapshot: sunoSnapshot(item.data, found) };
}

const sunoHeaders = (key: string): Record<string, string> => ({ ...sunoAuthHeaders(key), 'content-type': 'application/json' });
const hasText = (value: unknown): boolean => typeof value === 'string' && value !== '';

/**
 * Songs and lyrics on a `suno` channel, spoken the way new-api speaks to a Suno-style upstream
 * (base URL: its root): submit to `/suno/submit/{action}`, poll with `POST /suno/fetch`. Songs
 * are URLs in the task's `data`, and such APIs cancel nothing: no content or cancel call.
 */
export const sunoProvider: TaskProvider<SunoTaskRequest> = {
  kind: 'music',
  endpoint: 'music',
  submit: {
    endpoint: 'music',
    // The body names its song model in `mv`: the relay's model (`suno_music`) routes and prices, and is not sent.
    buildRequest: ({ channel, key, request: { action, body }, rawBody }) => {
      if (action === 'lyrics' && !hasText(body['prompt'])) throw invalidRequest("'prompt' is required to write lyrics.", 'prompt');
      const needsMv = action === 'music' && !hasText(body['mv']);
      return {
        url: `${trimBaseUrl(channel.baseUrl)}/suno/submit/${action}`,
        headers: sunoHeaders(key),
        body: needsMv ? JSON.stringify({ ...body, mv: SUNO_DEFAULT_MV }) : (rawBody ?? JSON.stringify(body)),
      };
    },
    // Checked here so that a refusal inside a 2xx answer fails inside the pipeline (another channel may be tried).
    convertResponse: (text) => {
      const read = readTaskJson(text, 'Suno submit answer');
      if (!read.ok) return read;
      const submitted = readSubmittedSong(read.json);
      if (!submitted.ok) return submitted;
      return { ok: true, kind: 'json', body: read.json, text, usage: { ...TASK_SUBMIT_USAGE } };
    },
    mapErrorResponse: mapSunoErrorResponse,
  },
  readSubmitted: readSubmittedSong,
  buildPoll: ({ channel, key, upstreamId }): TaskCall => ({
    method: 'POST',
    url: `${trimBaseUrl(channel.baseUrl)}/suno/fetch`,
    headers: sunoHeaders(key),
    body: JSON.stringify({ ids: [upstreamId] }),
  }),
  readPoll: readPolledSong,
  mapErrorResponse: mapSunoErrorResponse,
};
