import { taskProgress, unixSeconds, type TaskPhase, type TaskTiming } from '../tasks/task-clock';
import { simulatedSunoLyrics, simulatedSunoSongs, type SunoSongSource } from './suno-songs';

export type SunoAction = 'music' | 'lyrics';

/** A Suno task as the simulator keeps it. */
export interface StoredSunoTask {
  id: string;
  action: SunoAction;
  source: SunoSongSource;
  timing: TaskTiming;
  fails: boolean;
  /** The songs' ids (music: two), or the lyrics' id. */
  itemIds: string[];
}

/** new-api's task statuses, as its Suno-style API reports them. */
export type SunoTaskStatus = 'SUBMITTED' | 'QUEUED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';

/** What a failed task says (`fail_reason`, and each song's `metadata.error_message`). */
export const sunoFailReason = 'Generation failed: the simulator was asked to fail this task.';

function statusOf(phase: TaskPhase, fails: boolean): SunoTaskStatus {
  switch (phase) {
    case 'submitted':
      return 'SUBMITTED';
    case 'queued':
      return 'QUEUED';
    case 'running':
      return 'IN_PROGRESS';
    case 'ended':
      return fails ? 'FAILURE' : 'SUCCESS';
    default: {
      const unknown: never = phase;
      throw new Error(`unknown task phase ${String(unknown)}`);
    }
  }
}

/** A song's own status, as Suno clips report it. */
const songStatus: Record<SunoTaskStatus, string> = {
  SUBMITTED: 'submitted',
  QUEUED: 'queued',
  IN_PROGRESS: 'streaming',
  SUCCESS: 'complete',
  FAILURE: 'error',
};

/** Where `/suno/files/` serves a song's file, on this simulator as the caller reached it. */
export function songFileUrl(origin: string, songId: string, name: 'mp3' | 'jpeg' | 'large.jpeg' | 'mp4'): string {
  return name === 'large.jpeg' ? `${origin}/suno/files/${songId}_large.jpeg` : `${origin}/suno/files/${songId}.${name}`;
}

function musicData(task: StoredSunoTask, status: SunoTaskStatus, origin: string): Record<string, unknown>[] {
  const songs = simulatedSunoSongs(task.source);
  const started = status === 'IN_PROGRESS' || status === 'SUCCESS';
  const done = status === 'SUCCESS';
  const failed = status === 'FAILURE';
  return songs.map((song, index) => {
    const id = task.itemIds[index] ?? '';
    return {
      id,
      video_url: done ? songFileUrl(origin, id, 'mp4') : '',
      audio_url: started ? songFileUrl(origin, id, 'mp3') : '',
      image_url: started ? songFileUrl(origin, id, 'jpeg') : '',
      image_large_url: started ? songFileUrl(origin, id, 'large.jpeg') : '',
      major_model_version: song.majorModelVersion,
      model_name: song.modelName,
      status: songStatus[status],
      title: song.title,
      text: song.lyrics,
      metadata: {
        tags: song.tags,
        prompt: song.lyrics,
        gpt_description_prompt: task.source.gpt_description_prompt ?? null,
        audio_prompt_id: null,
        duration: done ? song.durationSeconds : null,
        error_type: failed ? 'generation_failed' : null,
        error_message: failed ? sunoFailReason : null,
      },
    };
  });
}

function lyricsData(task: StoredSunoTask, status: SunoTaskStatus): Record<string, unknown> {
  const lyrics = simulatedSunoLyrics(task.source);
  const done = status === 'SUCCESS';
  return {
    id: task.itemIds[0] ?? '',
    status: status === 'FAILURE' ? 'error' : done ? 'complete' : 'running',
    title: done ? lyrics.title : '',
    text: done ? lyrics.text : '',
  };
}

/** The task at `nowMs` as new-api's SunoDataResponse / TaskDto: times in unix seconds, 0 until known. */
export function sunoTaskView(task: StoredSunoTask, nowMs: number, origin: string): Record<string, unknown> {
  const progress = taskProgress(task.timing, nowMs);
  const status = statusOf(progress.phase, task.fails);
  return {
    task_id: task.id,
    action: task.action.toUpperCase(),
    status,
    fail_reason: status === 'FAILURE' ? sunoFailReason : '',
    submit_time: unixSeconds(task.timing.submittedAtMs),
    start_time: progress.startedAtMs === undefined ? 0 : unixSeconds(progress.startedAtMs),
    finish_time: progress.endedAtMs === undefined ? 0 : unixSeconds(progress.endedAtMs),
    progress: `${progress.percent}%`,
    data: task.action === 'music' ? musicData(task, status, origin) : lyricsData(task, status),
  };
}
