import type { ChannelType } from '@chat-relay/contract';
import { musicTaskProvider, videoTaskProvider, type TaskKind, type TaskProvider } from '@chat-relay/wire';
import { randomBytes } from 'node:crypto';

/** Each kind's provider lookup (videos natively on `openai` channels, songs on `suno` ones) and public ids (OpenAI's `video_…`, new-api's `task_…`). */
const KINDS: Readonly<Record<TaskKind, { providerFor(type: ChannelType): TaskProvider<unknown> | undefined; newId(): string }>> = {
  video: {
    providerFor: (type) => videoTaskProvider(type) as TaskProvider<unknown> | undefined,
    newId: () => `video_${randomBytes(16).toString('hex')}`,
  },
  music: {
    providerFor: (type) => musicTaskProvider(type) as TaskProvider<unknown> | undefined,
    newId: () => `task_${randomBytes(24).toString('base64url')}`,
  },
};

/** The provider of `kind` for a channel type; undefined: such channels cannot run it. */
export const taskProviderFor = (kind: TaskKind, type: ChannelType): TaskProvider<unknown> | undefined => KINDS[kind].providerFor(type);

export const newTaskId = (kind: TaskKind): string => KINDS[kind].newId();
