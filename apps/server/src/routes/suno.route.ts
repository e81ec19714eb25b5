import { sunoContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';

const pending = async (): Promise<never> => {
  throw new Error('suno not implemented yet');
};

/** The Suno-style task routes as new-api exposes them, over the task engine (issue 17). */
export function sunoRouter() {
  return initServer().router(sunoContract, { submitSuno: pending, fetchSunoTasks: pending, fetchSunoTask: pending });
}
