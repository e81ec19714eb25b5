import { responsesContract } from '@chat-relay/contract';
import { notFound } from '@chat-relay/wire';
import { initServer } from '@ts-rest/express';
import type { PipelineDeps } from '../relay/run-pipeline';

const notYet = () => {
  throw notFound('unknown_url', 'The Responses API is being wired (issue 13).');
};

/** OpenAI's Responses API on the one pipeline (work in progress: answered as not found until wired). */
export function responsesRouter(_deps: PipelineDeps) {
  const s = initServer();
  return s.router(responsesContract, {
    createResponse: notYet,
    retrieveResponse: notYet,
    deleteResponse: notYet,
    listResponseInputItems: notYet,
    cancelResponse: notYet,
  });
}
