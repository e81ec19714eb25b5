import type { ChannelType } from '@chat-relay/contract';
import { openaiVideosProvider, sunoProvider, type TaskKind, type TaskProvider } from '@chat-relay/wire';
import { randomBytes } from 'node:crypto';

/**
 * What each kind of task is spoken to: its provider per channel type (videos natively on
 * `openai` channels, songs on `suno` ones) and how its public ids look (OpenAI's `video_…`,
 * new-api's `task_…`).
 */
interface KindSpec {
  providers: Partial<Record<ChannelType, TaskProvider<unknown>>>;
  newId(): string;
}

const KINDS: Readonly<Record<TaskKind, KindSpec>> = {
  video: {
    providers: { openai: openaiVideosProvider as TaskProvider<unknown> },
    newId: () => `video_${randomBytes(16).toString('hex')}`,
  },
  music: {
    providers: { suno: sunoProvider as TaskProvider<unknown> },
    newId: () => `task_${randomBytes(24).toString('base64url')}`,
  },
};

/** The provider of `kind` for a channel type; undefined: such channels cannot run it. */
export const taskProviderFor = (kind: TaskKind, type: ChannelType): TaskProvider<unknown> | undefined => KINDS[kind].providers[type];

export const newTaskId = (kind: TaskKind): string => KINDS[kind].newId();
