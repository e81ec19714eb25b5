import { videosContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';

const pending = async (): Promise<never> => {
  throw new Error('videos not implemented yet');
};

/** OpenAI's `/v1/videos` over the task engine (issue 17). */
export function videosRouter() {
  return initServer().router(videosContract, {
    createVideo: pending,
    listVideos: pending,
    retrieveVideo: pending,
    deleteVideo: pending,
    downloadVideoContent: pending,
  });
}
