import type { ChannelType } from '@chat-relay/contract';
import { openaiVideosProvider, type VideoSubmitRequest } from './openai-videos-provider';
import { sunoProvider, type SunoTaskRequest } from './suno-provider';
import type { TaskProvider } from './task-provider';

const VIDEO_PROVIDERS: Readonly<Partial<Record<ChannelType, TaskProvider<VideoSubmitRequest>>>> = { openai: openaiVideosProvider };
const MUSIC_PROVIDERS: Readonly<Partial<Record<ChannelType, TaskProvider<SunoTaskRequest>>>> = { suno: sunoProvider };

/** The video provider for a channel type; undefined: that channel type cannot serve `videos`. */
export const videoTaskProvider = (channelType: ChannelType): TaskProvider<VideoSubmitRequest> | undefined => VIDEO_PROVIDERS[channelType];

/** The music provider for a channel type; undefined: that channel type cannot serve `music`. */
export const musicTaskProvider = (channelType: ChannelType): TaskProvider<SunoTaskRequest> | undefined => MUSIC_PROVIDERS[channelType];
