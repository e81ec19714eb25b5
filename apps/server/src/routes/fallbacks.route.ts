import { initServer } from '@ts-rest/express';
import { fallbacksContract } from '@chat-relay/contract';
import { RelayError } from '@chat-relay/wire';

// PLACEHOLDER (issue 32, being built): replaced by the fallback helper's router.
const pending = (): never => {
  throw new RelayError({ status: 501, type: 'not_implemented', code: 'not_implemented', message: 'Fallback rules are not available yet.' });
};

export function fallbacksRouter() {
  const s = initServer();
  return s.router(fallbacksContract, {
    listFallbackRules: pending,
    createFallbackRule: pending,
    getFallbackRule: pending,
    updateFallbackRule: pending,
    deleteFallbackRule: pending,
  });
}
