import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkBearer } from '../check-bearer';
import {
  openAiDialect,
  planEndpointCall,
  playFaultInsteadOfAnswer,
  queuedFaultPlan,
  replacesAnswer,
  sendEndpointAnswer,
  type EndpointFaultContext,
} from '../endpoints/endpoint-answer';
import type { FormResult } from '../endpoints/multipart';
import { sendError } from '../http-io';
import { openAiError } from '../openai-error';
import { readTaskDirectives } from '../tasks/task-directives';
import type { TaskStore } from '../tasks/task-store';
import { sendTaskFile } from '../tasks/send-task-file';
import { simulatedVideoContent, type VideoContentVariant } from './video-content';
import { videoObject, videoStatus, type StoredVideo } from './video-object';
import { readVideoCreate } from './video-request';

export interface VideosContext extends EndpointFaultContext {
  acceptedKeys: ReadonlySet<string> | undefined;
  /** How long a job runs unless its request says (`[sim:task_ms=N]`). */
  taskDurationMs: number;
  videoStore: TaskStore<StoredVideo>;
}

export interface VideoRequest {
  method: string;
  /** Under `/v1`, the `/chat-only` prefix already taken off. */
  path: string;
  query: string;
  rawBody: string;
  form: FormResult | undefined;
}

const videoPath = /^\/v1\/videos(?:\/([^/]+)(\/content)?)?$/;
const variants: readonly VideoContentVariant[] = ['video', 'thumbnail', 'spritesheet'];
const defaultListLimit = 20;

function sendNotFound(res: ServerResponse, id: string): void {
  sendError(res, 404, openAiError(`No video found with id '${id}'.`, 'invalid_request_error', null, 'not_found'));
}

function sendInvalid(res: ServerResponse, param: string, message: string): void {
  sendError(res, 400, openAiError(message, 'invalid_request_error', param));
}

/**
 * POST /v1/videos: a job `queued` at first that runs `taskDurationMs` (or `[sim:task_ms=N]`),
 * then completes — or fails (`[sim:task=fail]`); `[sim:task=refuse]` refuses it at once (400
 * `moderation_blocked`). A job whose answer a fault replaced (status, timeout) is not created.
 */
async function createVideo(res: ServerResponse, request: VideoRequest, context: VideosContext): Promise<void> {
  const job = readVideoCreate(res, request.rawBody, request.form);
  if (!job) return;
  const directives = readTaskDirectives(job.xSim, job.prompt, 'prompt');
  if (directives.kind === 'invalid') {
    sendInvalid(res, directives.param, directives.message);
    return;
  }
  const { durationMs, outcome } = directives.directives;
  if (outcome === 'refuse') {
    const message = 'Your request was blocked by our moderation system.';
    sendError(res, 400, openAiError(message, 'invalid_request_error', null, 'moderation_blocked'));
    return;
  }
  const planned = planEndpointCall(job.xSim, job.prompt, 'prompt', context);
  if (planned.kind === 'invalid') {
    sendInvalid(res, planned.param, planned.message);
    return;
  }
  const video: StoredVideo = {
    id: `video_${randomBytes(16).toString('hex')}`,
    job,
    timing: { submittedAtMs: Date.now(), durationMs: durationMs ?? context.taskDurationMs },
    fails: outcome === 'fail',
  };
  // A broken answer (cut, malformed) still leaves the job running upstream, as a real one would.
  if (!replacesAnswer(planned.plan.fault)) context.videoStore.put(video);
  const body = JSON.stringify(videoObject(video, video.timing.submittedAtMs));
  await sendEndpointAnswer(res, planned.plan, openAiDialect, { body, work: 1 });
}

/** GET /v1/videos: newest first by default, `limit` (default 20, 0–100), `after` (an id), `order`. */
async function listVideos(res: ServerResponse, query: string, context: VideosContext): Promise<void> {
  const params = new URLSearchParams(query);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? defaultListLimit : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 0 || limit > 100) {
    sendInvalid(res, 'limit', `Invalid 'limit': expected an integer from 0 to 100, got '${rawLimit ?? ''}'.`);
    return;
  }
  const order = params.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    sendError(res, 400, openAiError(`Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`, 'invalid_request_error', 'order', 'invalid_value'));
    return;
  }
  const ordered = order === 'asc' ? context.videoStore.all() : context.videoStore.all().reverse();
  const after = params.get('after');
  const start = after === null ? 0 : ordered.findIndex((video) => video.id === after) + 1;
  if (after !== null && start === 0) {
    sendNotFound(res, after);
    return;
  }
  const now = Date.now();
  const page = ordered.slice(start, start + limit).map((video) => videoObject(video, now));
  const body = {
    object: 'list',
    data: page,
    first_id: page[0]?.['id'] ?? null,
    last_id: page.at(-1)?.['id'] ?? null,
    has_more: start + limit < ordered.length,
  };
  await sendEndpointAnswer(res, queuedFaultPlan(context), openAiDialect, { body: JSON.stringify(body), work: 1 });
}

/** GET /v1/videos/{id}/content: the file once completed (409 before, or when failed), in 64 KiB chunks. */
async function sendContent(res: ServerResponse, video: StoredVideo, query: string, context: VideosContext): Promise<void> {
  const asked = new URLSearchParams(query).get('variant') ?? 'video';
  const variant = variants.find((known) => known === asked);
  if (!variant) {
    const message = `Invalid value: '${asked}'. Supported values are: 'video', 'thumbnail', and 'spritesheet'.`;
    sendError(res, 400, openAiError(message, 'invalid_request_error', 'variant', 'invalid_value'));
    return;
  }
  const { status } = videoStatus(video, Date.now());
  if (status !== 'completed') {
    const message = `Video '${video.id}' is ${status}: its content can be downloaded once it is completed.`;
    sendError(res, 409, openAiError(message, 'invalid_request_error', null, 'video_not_ready'));
    return;
  }
  const plan = queuedFaultPlan(context);
  if (playFaultInsteadOfAnswer(res, plan, openAiDialect)) return;
  await sendTaskFile(res, simulatedVideoContent(video.job, variant), plan.fault);
}

/** The OpenAI Videos API under `/v1`; false when `request` is none of its routes. */
export async function handleVideoRoute(
  req: IncomingMessage,
  res: ServerResponse,
  request: VideoRequest,
  context: VideosContext,
): Promise<boolean> {
  const match = videoPath.exec(request.path);
  if (!match) return false;
  const [, rawId, content] = match;
  const { method } = request;
  const known = rawId === undefined ? method === 'GET' || method === 'POST' : content ? method === 'GET' : method === 'GET' || method === 'DELETE';
  if (!known) return false;
  if (!checkBearer(req, res, context.acceptedKeys)) return true;
  if (rawId === undefined) {
    if (method === 'POST') await createVideo(res, request, context);
    else await listVideos(res, request.query, context);
    return true;
  }
  const id = decodeURIComponent(rawId);
  const video = context.videoStore.get(id);
  if (!video) {
    sendNotFound(res, id);
    return true;
  }
  if (content) {
    await sendContent(res, video, request.query, context);
    return true;
  }
  if (method === 'DELETE') {
    const plan = queuedFaultPlan(context);
    // Deleted unless a fault stands for the whole answer: the caller then cannot know it was.
    if (!replacesAnswer(plan.fault)) context.videoStore.delete(id);
    await sendEndpointAnswer(res, plan, openAiDialect, { body: JSON.stringify({ id, object: 'video.deleted', deleted: true }), work: 1 });
    return true;
  }
  await sendEndpointAnswer(res, queuedFaultPlan(context), openAiDialect, { body: JSON.stringify(videoObject(video, Date.now())), work: 1 });
  return true;
}
