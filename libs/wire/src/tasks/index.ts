export * from './task-provider';
export { type TaskViewSource, clampProgress, unixSeconds } from './task-common';
export { openaiVideosProvider, type VideoSubmitRequest, VIDEO_FAILED_CODE } from './openai-videos-provider';
export { videoView, videoListView, videoDeletedView, VIDEO_CANCELLED_ERROR } from './video-views';
export { sunoProvider, type SunoTaskRequest, SUNO_DEFAULT_MV, MUSIC_FAILED_CODE } from './suno-provider';
export { mapSunoErrorResponse } from './suno-error';
export { sunoTaskView, sunoEnvelope, type SunoEnvelope } from './suno-views';
