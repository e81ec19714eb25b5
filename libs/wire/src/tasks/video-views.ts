import { DEFAULT_VIDEO_SECONDS, DEFAULT_VIDEO_SIZE, type Video, type VideoDeleted, type VideoList } from '@chat-relay/contract';
import { clampProgress, unixSeconds, type TaskViewSource } from './task-common';
import { VIDEO_FAILED_CODE } from './openai-videos-provider';

/** Said of a video its owner cancelled: OpenAI's statuses have no `cancelled`, so it shows as failed. */
export const VIDEO_CANCELLED_ERROR = { code: 'cancelled', message: 'The video generation was cancelled.' } as const;

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const secondsText = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? String(value) : stringOf(value);

/**
 * A stored video task in OpenAI's Video shape, as the caller sees it: the relay's id, the
 * caller's model name; size and seconds as the upstream last reported them, else as asked, else
 * OpenAI's defaults. Nothing of the upstream's own ids is shown.
 */
export function videoView(task: TaskViewSource): Video {
  const result = task.result ?? {};
  const cancelled = task.status === 'cancelled';
  const failed = cancelled || task.status === 'failed';
  const expiresAt = result['expires_at'];
  return {
    id: task.id,
    object: 'video',
    model: task.model,
    status: task.status === 'cancelled' ? 'failed' : task.status,
    progress: task.status === 'completed' ? 100 : clampProgress(task.progress),
    created_at: unixSeconds(task.createdAt) ?? 0,
    completed_at: unixSeconds(task.completedAt),
    expires_at: typeof expiresAt === 'number' && Number.isInteger(expiresAt) ? expiresAt : null,
    prompt: stringOf(task.params['prompt']) ?? null,
    size: stringOf(result['size']) ?? stringOf(task.params['size']) ?? DEFAULT_VIDEO_SIZE,
    seconds: secondsText(result['seconds']) ?? secondsText(task.params['seconds']) ?? DEFAULT_VIDEO_SECONDS,
    remixed_from_video_id: null,
    error: cancelled
      ? { code: VIDEO_CANCELLED_ERROR.code, message: task.error?.message || VIDEO_CANCELLED_ERROR.message }
      : failed
        ? { code: task.error?.code || VIDEO_FAILED_CODE, message: task.error?.message || 'The video generation failed.' }
        : null,
  };
}

/** A page of videos in OpenAI's list shape, in the order given. */
export function videoListView(rows: readonly TaskViewSource[], hasMore: boolean): VideoList {
  const data = rows.map(videoView);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: hasMore };
}

/** The answer to `DELETE /v1/videos/{id}`. */
export function videoDeletedView(id: string): VideoDeleted {
  return { id, object: 'video.deleted', deleted: true };
}
