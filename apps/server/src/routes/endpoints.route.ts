import { endpointsContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { RelayError } from '@chat-relay/wire';
import type { PipelineDeps } from '../relay/run-pipeline';

// Wired in the next commit: the endpoint pipeline (relay/run-endpoint.ts).
const pending = () => {
  throw new RelayError({ status: 404, type: 'invalid_request_error', code: 'unknown_url', message: 'Not served yet.' });
};

/** The OpenAI endpoints beside chat (SPEC §7a). */
export function endpointsRouter(_deps: PipelineDeps) {
  const s = initServer();
  return s.router(endpointsContract, {
    createCompletion: pending,
    createEmbedding: pending,
    createRerank: pending,
    createModeration: pending,
    createImage: pending,
    editImage: pending,
    createSpeech: pending,
    createTranscription: pending,
    createTranslation: pending,
  });
}
