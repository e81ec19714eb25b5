import { z } from 'zod';
import type { MultipartRequest } from '../hub/endpoint-adapter';
import { trimBaseUrl } from '../hub/native-request-body';
import type { JsonObject } from '../json/json-checks';
import { mapOpenAiErrorResponse } from '../openai-chat/upstream/openai-error';
import { openAiJsonPassthrough } from '../openai-endpoints/endpoint-common';
import { openAiMultipartPassthrough } from '../openai-endpoints/multipart-passthrough';
import { clampProgress, malformedTaskAnswer, readTaskJson, TASK_SUBMIT_USAGE } from './task-common';
import type { TaskCall, TaskCallArgs, TaskFailure, TaskProvider, TaskReading, TaskSnapshot, TaskSubmitted } from './task-provider';
import { openAiAuthHeaders } from '../providers/provider-auth';

/**
 * `POST /v1/videos` as the server hands it over: the caller's JSON body, or the multipart form
 * as received (its files spooled by the server). `model` is the caller's; the adapter maps it.
 */
export type VideoSubmitRequest =
  | { kind: 'json'; body: Readonly<Record<string, unknown>> }
  | { kind: 'multipart'; upload: MultipartRequest };

/** Given when an upstream says a video failed without saying why. */
export const VIDEO_FAILED_CODE = 'video_generation_failed';

/**
 * The fields of OpenAI's Video object the relay reads; the rest is kept as it came. Tolerant:
 * a field of an unexpected type is read as absent rather than failing the whole poll.
 */
const UpstreamVideoSchema = z
  .object({
    status: z.string(),
    progress: z.number().optional().catch(undefined),
    seconds: z.union([z.string(), z.number()]).optional().catch(undefined),
    size: z.string().optional().catch(undefined),
    error: z
      .object({ code: z.string().nullish().catch(undefined), message: z.string().nullish().catch(undefined) })
      .passthrough()
      .nullish()
      .catch(undefined),
  })
  .passthrough();
type UpstreamVideo = z.infer<typeof UpstreamVideoSchema>;

/**
 * OpenAI's four statuses; any other is read as still running: the relay keeps polling until its
 * deadline rather than end (and refund) a task an upstream may yet deliver.
 */
function videoStateOf(status: string): TaskSnapshot['state'] {
  switch (status) {
    case 'queued':
      return 'queued';
    case 'in_progress':
      return 'in_progress';
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    default:
      return 'in_progress';
  }
}

function videoFailureOf(error: UpstreamVideo['error']): TaskFailure {
  return {
    code: error?.code || VIDEO_FAILED_CODE,
    message: error?.message || 'The upstream provider could not generate the video.',
  };
}

/** Seconds of video made, as priced: a positive number, or undefined (the reserved seconds stand). */
function secondsOf(value: string | number | undefined): number | undefined {
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** A Video object as the task's state; `result` is the object exactly as the upstream sent it. */
function videoSnapshot(video: UpstreamVideo, json: JsonObject, state: TaskSnapshot['state']): TaskSnapshot {
  const snapshot: TaskSnapshot = {
    state,
    progress: state === 'completed' ? 100 : clampProgress(video.progress ?? 0),
    error: state === 'failed' ? videoFailureOf(video.error) : null,
    result: json,
  };
  if (state === 'completed') {
    const units = secondsOf(video.seconds);
    if (units !== undefined) snapshot.units = units;
    if (video.size) snapshot.unitVariant = video.size;
  }
  return snapshot;
}

function readSubmittedVideo(body: JsonObject): TaskSubmitted {
  const id = body['id'];
  if (typeof id !== 'string' || id === '') return { ok: false, error: malformedTaskAnswer('video object (it has no id)') };
  // The task exists upstream once it has an id: a submit answer without a readable status is queued, not lost.
  const parsed = UpstreamVideoSchema.safeParse({ ...body, status: typeof body['status'] === 'string' ? body['status'] : 'queued' });
  if (!parsed.success) return { ok: false, error: malformedTaskAnswer('video object') };
  return { ok: true, upstreamId: id, snapshot: videoSnapshot(parsed.data, body, videoStateOf(parsed.data.status)) };
}

const videoUrl = (args: TaskCallArgs, suffix = ''): string => `${trimBaseUrl(args.channel.baseUrl)}/videos/${encodeURIComponent(args.upstreamId)}${suffix}`;

/**
 * Videos on an `openai` channel (base URL with `/v1`): the submit passed through with `model`
 * mapped, polled with `GET /videos/{id}`, deleted with `DELETE`, downloaded from `/content`.
 */
export const openaiVideosProvider: TaskProvider<VideoSubmitRequest> = {
  kind: 'video',
  endpoint: 'videos',
  submit: {
    endpoint: 'videos',
    buildRequest: ({ channel, key, request, upstreamModel, rawBody }) =>
      request.kind === 'multipart'
        ? openAiMultipartPassthrough('videos', { channel, key, request: request.upload, upstreamModel })
        : openAiJsonPassthrough('videos', { channel, key, request: request.body, upstreamModel, rawBody }),
    // Checked here so that an answer without a task id fails inside the pipeline (another channel may be tried).
    convertResponse: (text) => {
      const read = readTaskJson(text, 'video object');
      if (!read.ok) return read;
      const submitted = readSubmittedVideo(read.json);
      if (!submitted.ok) return submitted;
      return { ok: true, kind: 'json', body: read.json, text, usage: { ...TASK_SUBMIT_USAGE } };
    },
    mapErrorResponse: mapOpenAiErrorResponse,
  },
  readSubmitted: readSubmittedVideo,
  buildPoll: (args): TaskCall => ({ method: 'GET', url: videoUrl(args), headers: openAiAuthHeaders(args.key) }),
  readPoll: (text): TaskReading => {
    const read = readTaskJson(text, 'video object');
    if (!read.ok) return read;
    const parsed = UpstreamVideoSchema.safeParse(read.json);
    if (!parsed.success) return { ok: false, error: malformedTaskAnswer('video object (it has no status)') };
    return { ok: true, snapshot: videoSnapshot(parsed.data, read.json, videoStateOf(parsed.data.status)) };
  },
  buildCancel: (args): TaskCall => ({ method: 'DELETE', url: videoUrl(args), headers: openAiAuthHeaders(args.key) }),
  // `video` is OpenAI's default variant: left out, so servers that know no variants still serve the video.
  buildContent: ({ variant, ...args }): TaskCall => ({
    method: 'GET',
    url: videoUrl(args, variant === 'video' ? '/content' : `/content?variant=${encodeURIComponent(variant)}`),
    headers: openAiAuthHeaders(args.key),
  }),
  mapErrorResponse: mapOpenAiErrorResponse,
};
