import { buildOpenApiDocument, systemContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { RelayError } from '@chat-relay/wire';
import type { Storage } from '../storage/types';

export interface SystemRouteDeps {
  storage: Pick<Storage, 'ping'>;
  version: string;
  startedAt: number;
}

export function systemRouter(deps: SystemRouteDeps) {
  const s = initServer();
  return s.router(systemContract, {
    health: async () => {
      try {
        await deps.storage.ping();
      } catch {
        throw new RelayError({ status: 503, type: 'service_unavailable', code: 'storage_unavailable', message: 'Storage does not answer.' });
      }
      return { status: 200, body: { status: 'ok' as const, version: deps.version, uptime_s: Math.round((Date.now() - deps.startedAt) / 1000) } };
    },
    openApi: async () => ({ status: 200, body: buildOpenApiDocument(deps.version) }),
  });
}
