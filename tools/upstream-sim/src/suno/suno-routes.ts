import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SunoFetchRequestSchema, SunoSubmitRequestSchema } from '@chat-relay/contract';
import type { z } from 'zod';
import { bearerKeyOf } from '../check-bearer';
import {
  planEndpointCall,
  queuedFaultPlan,
  replacesAnswer,
  sendEndpointAnswer,
  type EndpointFaultContext,
  type EndpointPlan,
} from '../endpoints/endpoint-answer';
import { readTaskDirectives } from '../tasks/task-directives';
import type { TaskStore } from '../tasks/task-store';
import { sendTaskFile } from '../tasks/send-task-file';
import { dottedPath, firstIssue } from '../zod-issues';
import { sendSunoError, sunoDialect } from './suno-error';
import { simulatedSongFile, songsPerTask, type SongFile } from './suno-songs';
import { sunoTaskView, type StoredSunoTask, type SunoAction } from './suno-task';

export interface SunoContext extends EndpointFaultContext {
  acceptedKeys: ReadonlySet<string> | undefined;
  taskDurationMs: number;
  sunoStore: TaskStore<StoredSunoTask>;
}

export interface SunoRequest {
  method: string;
  path: string;
  rawBody: string;
}

const submitPath = /^\/suno\/submit\/([^/]+)$/;
const fetchOnePath = /^\/suno\/fetch\/([^/]+)$/;
const filePath = /^\/suno\/files\/([0-9a-f-]{36})(_large\.jpeg|\.jpeg|\.mp3|\.mp4)$/;
const fileKinds: Record<string, SongFile> = { '.mp3': 'audio', '.jpeg': 'image', '_large.jpeg': 'image_large', '.mp4': 'video' };

/** The key check of a new-api-style upstream: `Authorization: Bearer`, 401 in the task shape. */
function checkKey(req: IncomingMessage, res: ServerResponse, acceptedKeys: ReadonlySet<string> | undefined): boolean {
  const key = bearerKeyOf(req.headers);
  if (key && (!acceptedKeys || acceptedKeys.has(key))) return true;
  sendSunoError(res, 401, 'invalid_api_key', key ? 'Invalid API key.' : 'Missing API key: send Authorization: Bearer <key>.');
  return false;
}

function parseBody<Schema extends z.ZodTypeAny>(res: ServerResponse, rawBody: string, schema: Schema): z.infer<Schema> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    sendSunoError(res, 400, 'invalid_request', 'The request body is not JSON.');
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = firstIssue(parsed.error);
  sendSunoError(res, 400, 'invalid_request', `${dottedPath(issue.path) || 'body'}: ${issue.message}`);
  return undefined;
}

function sendPlanned(res: ServerResponse, plan: EndpointPlan, body: unknown): Promise<void> {
  return sendEndpointAnswer(res, plan, sunoDialect, { body: JSON.stringify(body), work: 1 });
}

/**
 * POST /suno/submit/{music|lyrics} (any case: new-api sends MUSIC): a task that runs
 * `taskDurationMs` (or `[sim:task_ms=N]`), then succeeds or fails (`[sim:task=fail]`);
 * `[sim:task=refuse]` refuses it (400 `moderation_blocked`).
 */
async function submit(res: ServerResponse, actionText: string, rawBody: string, context: SunoContext): Promise<void> {
  const action = actionText.toLowerCase();
  if (action !== 'music' && action !== 'lyrics') {
    sendSunoError(res, 400, 'invalid_action', `Unknown action '${actionText}': use music or lyrics.`);
    return;
  }
  const request = parseBody(res, rawBody, SunoSubmitRequestSchema);
  if (!request) return;
  const hasPrompt = (request.prompt ?? '').trim() !== '';
  if (!hasPrompt && (action === 'lyrics' || (request.gpt_description_prompt ?? '').trim() === '')) {
    sendSunoError(res, 400, 'prompt_empty', action === 'lyrics' ? 'prompt is required.' : 'prompt or gpt_description_prompt is required.');
    return;
  }
  const text = `${request.gpt_description_prompt ?? ''} ${request.prompt ?? ''}`;
  const directives = readTaskDirectives(request['x_sim'], text, 'prompt');
  if (directives.kind === 'invalid') {
    sendSunoError(res, 400, 'invalid_request', directives.message);
    return;
  }
  const { durationMs, outcome } = directives.directives;
  if (outcome === 'refuse') {
    sendSunoError(res, 400, 'moderation_blocked', 'The prompt was blocked by the moderation system.');
    return;
  }
  const planned = planEndpointCall(request['x_sim'], text, 'prompt', context);
  if (planned.kind === 'invalid') {
    sendSunoError(res, 400, 'invalid_request', planned.message);
    return;
  }
  const task: StoredSunoTask = {
    id: randomUUID(),
    action: action satisfies SunoAction,
    source: request,
    timing: { submittedAtMs: Date.now(), durationMs: durationMs ?? context.taskDurationMs },
    fails: outcome === 'fail',
    itemIds: Array.from({ length: action === 'music' ? songsPerTask : 1 }, () => randomUUID()),
  };
  if (!replacesAnswer(planned.plan.fault)) context.sunoStore.put(task);
  await sendPlanned(res, planned.plan, { code: 'success', message: '', data: task.id });
}

/** POST /suno/fetch `{ids}`: the tasks known, in the order asked; unknown ids are left out. */
async function fetchMany(res: ServerResponse, rawBody: string, origin: string, context: SunoContext): Promise<void> {
  const request = parseBody(res, rawBody, SunoFetchRequestSchema);
  if (!request) return;
  const planned = planEndpointCall(request['x_sim'], '', 'ids', context);
  if (planned.kind === 'invalid') {
    sendSunoError(res, 400, 'invalid_request', planned.message);
    return;
  }
  const now = Date.now();
  const tasks = request.ids.flatMap((id) => {
    const task = context.sunoStore.get(id);
    return task ? [sunoTaskView(task, now, origin)] : [];
  });
  await sendPlanned(res, planned.plan, { code: 'success', message: '', data: tasks });
}

/** GET /suno/files/<song id>.mp3 (and .jpeg, _large.jpeg, .mp4): no key, as Suno's CDN URLs need none. */
async function serveSongFile(res: ServerResponse, path: string, context: SunoContext): Promise<void> {
  const [, songId = '', suffix = ''] = filePath.exec(path) ?? [];
  const kind = fileKinds[suffix];
  const task = context.sunoStore.all().find((each) => each.action === 'music' && each.itemIds.includes(songId));
  const status = task ? sunoTaskView(task, Date.now(), '')['status'] : undefined;
  const available = status === 'SUCCESS' || (status === 'IN_PROGRESS' && kind !== 'video');
  if (!task || !kind || !available) {
    sendSunoError(res, 404, 'not_found', `No file ${path}.`);
    return;
  }
  await sendTaskFile(res, simulatedSongFile(task.source, task.itemIds.indexOf(songId), kind), undefined);
}

/** The Suno-style task API at the root (`/suno/…`); false when `request` is none of its routes. */
export async function handleSunoRoute(req: IncomingMessage, res: ServerResponse, request: SunoRequest, context: SunoContext): Promise<boolean> {
  const { method, path } = request;
  if (!path.startsWith('/suno/')) return false;
  if (method === 'GET' && filePath.test(path)) {
    await serveSongFile(res, path, context);
    return true;
  }
  const submitAction = submitPath.exec(path)?.[1];
  const fetchId = fetchOnePath.exec(path)?.[1];
  const known = method === 'POST' ? submitAction !== undefined || path === '/suno/fetch' : method === 'GET' && fetchId !== undefined;
  if (!known) return false;
  if (!checkKey(req, res, context.acceptedKeys)) return true;
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  if (submitAction !== undefined) {
    await submit(res, decodeURIComponent(submitAction), request.rawBody, context);
    return true;
  }
  if (fetchId === undefined) {
    await fetchMany(res, request.rawBody, origin, context);
    return true;
  }
  const task = context.sunoStore.get(decodeURIComponent(fetchId));
  if (!task) {
    sendSunoError(res, 404, 'task_not_exist', 'task_not_exist');
    return true;
  }
  await sendPlanned(res, queuedFaultPlan(context), { code: 'success', message: '', data: sunoTaskView(task, Date.now(), origin) });
  return true;
}
