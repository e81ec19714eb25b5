import { DEFAULT_VIDEO_MODEL, DEFAULT_VIDEO_SECONDS, DEFAULT_VIDEO_SIZE, videosContract, type Video, type VideoDeleted, type VideoList } from '@chat-relay/contract';
import { notFound, videoDeletedView, videoListView, videoView, type VideoSubmitRequest } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { closedBy } from '../core/caller-gone';
import { callerAccountId } from '../pipeline/run-pipeline';
import type { TaskRecord } from '../storage/types';
import { submitTask, type TaskDeps } from '../tasks/submit-task';

/** OpenAI's default page of videos. */
const DEFAULT_PAGE = 20;

/**
 * OpenAI's `/v1/videos` over the task engine (SPEC §7a): a submit runs the one pipeline to an
 * `openai` channel serving `videos` and answers the task at once; reads ask the upstream when the
 * task still runs; the content is streamed from the upstream with the key that submitted it.
 */
export function videosRouter(deps: TaskDeps) {
  async function ownVideo(res: Response, id: string): Promise<TaskRecord> {
    const task = await deps.tasks.get(callerAccountId(res.locals.caller), id);
    // Another account's video is as unknown as one that never existed.
    if (!task || task.kind !== 'video') throw notFound('video_not_found', `No video found with id '${id}'.`);
    return task;
  }

  return initServer().router(videosContract, {
    createVideo: async ({ body, req, res }) => {
      const upload = res.locals.upload;
      const model = body.model ?? DEFAULT_VIDEO_MODEL;
      const seconds = body.seconds ?? DEFAULT_VIDEO_SECONDS;
      const size = body.size ?? DEFAULT_VIDEO_SIZE;
      const task = await submitTask<VideoSubmitRequest>(deps, req, res, {
        kind: 'video',
        route: '/v1/videos',
        model,
        request: upload ? { kind: 'multipart', upload } : { kind: 'json', body },
        bound: { promptTokens: 0, completionTokens: 0, units: Number(seconds), unitVariant: size },
        lower: 'ask for fewer seconds or a smaller size',
        params: { prompt: body.prompt, size, seconds },
      });
      return { status: 200, body: videoView(task) as Video };
    },

    listVideos: async ({ query, res }) => {
      const page = await deps.tasks.list({
        accountId: callerAccountId(res.locals.caller),
        kind: 'video',
        limit: query.limit ?? DEFAULT_PAGE,
        order: query.order ?? 'desc',
        after: query.after,
      });
      return { status: 200, body: videoListView(page.rows, page.hasMore) as VideoList };
    },

    retrieveVideo: async ({ params, res }) => ({ status: 200, body: videoView(await deps.engine.refresh(await ownVideo(res, params.id))) as Video }),

    deleteVideo: async ({ params, res }) => {
      const task = await ownVideo(res, params.id);
      await deps.engine.delete(task, closedBy(res));
      return { status: 200, body: videoDeletedView(task.id) as VideoDeleted };
    },

    downloadVideoContent: async ({ params, query, res }) => {
      const task = await ownVideo(res, params.id);
      const content = await deps.engine.openContent(task, query.variant ?? 'video', closedBy(res));
      res.setHeader('content-type', content.contentType);
      if (content.contentLength !== undefined) res.setHeader('content-length', content.contentLength);
      return { status: 200, body: content.body as unknown };
    },
  });
}
