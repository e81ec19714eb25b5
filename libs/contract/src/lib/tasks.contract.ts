import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonResponses, meta, sunoCommonResponses } from './common-responses';
import {
  SunoActionParamsSchema,
  SunoFetchRequestSchema,
  SunoIdParamsSchema,
  SunoSubmitRequestSchema,
  SunoSubmitResponseSchema,
  SunoTaskListResponseSchema,
  SunoTaskResponseSchema,
} from './schemas/tasks/suno.schema';
import {
  VideoContentQuerySchema,
  VideoCreateRequestSchema,
  VideoDeletedSchema,
  VideoListQuerySchema,
  VideoListSchema,
  VideoSchema,
} from './schemas/tasks/video.schema';

const c = initContract();
const videoParams = z.object({ id: z.string().min(1).max(200) });

/**
 * Long-running generation (SPEC §7a): a task is submitted, polled and its result fetched; it is
 * charged once when it completes and its reservation given back when it fails or is cancelled.
 * Videos in OpenAI's `/v1/videos` shape, native to `openai` channels serving `videos`; music in
 * the Suno-style routes new-api exposes, to `suno` channels. A caller sees its own account's
 * tasks only (another account's id is a 404).
 */
export const videosContract = c.router(
  {
    createVideo: {
      method: 'POST',
      path: '/v1/videos',
      summary:
        'Submit a video generation task (JSON, or multipart with an `input_reference` image). Answers at once with the task, `queued`; priced per second of video by model and size, charged when it completes.',
      body: VideoCreateRequestSchema,
      responses: { 200: VideoSchema },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'videos', multipartToo: true }),
    },
    listVideos: {
      method: 'GET',
      path: '/v1/videos',
      query: VideoListQuerySchema,
      summary: "List the caller's account's videos, newest first (cursor pagination with `after`).",
      responses: { 200: VideoListSchema },
      metadata: meta({ auth: 'token', endpoint: 'videos' }),
    },
    retrieveVideo: {
      method: 'GET',
      path: '/v1/videos/:id',
      pathParams: videoParams,
      summary: 'A video task: its status and progress (asked of the upstream when still running).',
      responses: { 200: VideoSchema },
      metadata: meta({ auth: 'token', endpoint: 'videos' }),
    },
    deleteVideo: {
      method: 'DELETE',
      path: '/v1/videos/:id',
      pathParams: videoParams,
      body: c.noBody(),
      summary: 'Delete a video; a task still running is cancelled and its reserved quota given back.',
      responses: { 200: VideoDeletedSchema },
      metadata: meta({ auth: 'token', endpoint: 'videos' }),
    },
    downloadVideoContent: {
      method: 'GET',
      path: '/v1/videos/:id/content',
      pathParams: videoParams,
      query: VideoContentQuerySchema,
      summary: 'The video (video/mp4), its thumbnail or spritesheet, streamed from the upstream as it comes.',
      responses: { 200: c.otherResponse({ contentType: 'video/mp4', body: z.unknown() }) },
      metadata: meta({ auth: 'token', endpoint: 'videos' }),
    },
  },
  { commonResponses, strictStatusCodes: true },
);

export const sunoContract = c.router(
  {
    submitSuno: {
      method: 'POST',
      path: '/suno/submit/:action',
      pathParams: SunoActionParamsSchema,
      summary: 'Submit a Suno-style task (`music`: a song from a prompt, or lyrics with a style and title; `lyrics`: write lyrics). Answers with the task id; priced per song, charged when it completes.',
      body: SunoSubmitRequestSchema,
      responses: { 200: SunoSubmitResponseSchema },
      metadata: meta({ auth: 'token', streaming: true, endpoint: 'music', dialect: 'suno' }),
    },
    fetchSunoTasks: {
      method: 'POST',
      path: '/suno/fetch',
      summary: "Several Suno-style tasks by id (the caller's account's only; others are left out).",
      body: SunoFetchRequestSchema,
      responses: { 200: SunoTaskListResponseSchema },
      metadata: meta({ auth: 'token', endpoint: 'music', dialect: 'suno' }),
    },
    fetchSunoTask: {
      method: 'GET',
      path: '/suno/fetch/:id',
      pathParams: SunoIdParamsSchema,
      summary: 'One Suno-style task: status, progress and, once done, the songs (or lyrics).',
      responses: { 200: SunoTaskResponseSchema },
      metadata: meta({ auth: 'token', endpoint: 'music', dialect: 'suno' }),
    },
  },
  { commonResponses: sunoCommonResponses, strictStatusCodes: true },
);
