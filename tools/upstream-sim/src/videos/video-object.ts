import { taskProgress, unixSeconds, type TaskTiming } from '../tasks/task-clock';
import type { VideoCreate } from './video-request';

/** How long OpenAI keeps a finished video's files downloadable. */
export const videoExpirySeconds = 3600;

/** A video job as the simulator keeps it: what was asked, when, for how long, and how it ends. */
export interface StoredVideo {
  id: string;
  job: VideoCreate;
  timing: TaskTiming;
  fails: boolean;
}

/** What a failed video's `error` says: the simulator was asked (`[sim:task=fail]`) to fail it. */
export const videoFailure = {
  code: 'video_generation_failed',
  message: 'Video generation failed: the simulator was asked to fail this job.',
} as const;

export type VideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

/** The video's status at `nowMs`: queued for its first fifth, in progress, then completed or failed. */
export function videoStatus(video: StoredVideo, nowMs: number): { status: VideoStatus; progress: number; endedAtMs: number | undefined } {
  const progress = taskProgress(video.timing, nowMs);
  switch (progress.phase) {
    case 'submitted':
    case 'queued':
      return { status: 'queued', progress: 0, endedAtMs: undefined };
    case 'running':
      return { status: 'in_progress', progress: progress.percent, endedAtMs: undefined };
    case 'ended':
      return { status: video.fails ? 'failed' : 'completed', progress: 100, endedAtMs: progress.endedAtMs };
    default: {
      const unknown: never = progress.phase;
      throw new Error(`unknown task phase ${String(unknown)}`);
    }
  }
}

/** OpenAI's Video object (VideoResource) at `nowMs`. */
export function videoObject(video: StoredVideo, nowMs: number): Record<string, unknown> {
  const { status, progress, endedAtMs } = videoStatus(video, nowMs);
  const completedAt = status === 'completed' && endedAtMs !== undefined ? unixSeconds(endedAtMs) : null;
  return {
    id: video.id,
    object: 'video',
    model: video.job.model,
    status,
    progress,
    created_at: unixSeconds(video.timing.submittedAtMs),
    completed_at: completedAt,
    expires_at: completedAt === null ? null : completedAt + videoExpirySeconds,
    prompt: video.job.prompt,
    size: video.job.size,
    seconds: video.job.seconds,
    remixed_from_video_id: null,
    error: status === 'failed' ? { ...videoFailure } : null,
  };
}
