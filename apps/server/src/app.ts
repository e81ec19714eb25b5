import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Express } from 'express';
import type { Logger } from './logger';
import { bearerAuth } from './middleware/bearer-auth';
import { errorHandler, unknownRoute } from './middleware/error-handler';
import { jsonBody } from './middleware/json-body';
import { requestId } from './middleware/request-id';
import { requestValidationErrorHandler } from './middleware/request-validation-error';
import { usageLog } from './middleware/usage-log';
import { accountsRouter } from './routes/accounts.route';
import { assistantsRouter } from './routes/assistants.route';
import { channelsRouter } from './routes/channels.route';
import { chatRouter } from './routes/chat-completions.route';
import { systemRouter } from './routes/system.route';
import { serverContract } from './routes/server-contract';
import { tokensRouter } from './routes/tokens.route';
import type { RelayServices } from './services';
import type { Storage } from './storage/types';

export interface AppDeps {
  storage: Storage;
  services: RelayServices;
  logger: Logger;
  maxBodyBytes: number;
  maxRetries: number;
  version: string;
  startedAt?: number;
  /** Express `trust proxy` (RELAY_TRUST_PROXY): whose X-Forwarded-For sets `req.ip`. */
  trustProxy?: string | readonly string[];
}

/** The Express app implementing the contract; no listen — `main.ts` and supertest do that. */
export function createApp(deps: AppDeps): Express {
  const { storage, services, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
  app.use(requestId);

  const s = initServer();
  const router = s.router(serverContract, {
    chat: chatRouter({
      ...services,
      assistants: storage.assistants,
      quota: storage.quota,
      maxRetries: deps.maxRetries,
      logger,
    }),
    channels: channelsRouter({ channels: storage.channels, registry: services.registry, health: services.health }),
    tokens: tokensRouter({ tokens: storage.tokens, accounts: storage.accounts, usageLog: storage.usageLog }),
    assistants: assistantsRouter({ assistants: storage.assistants }),
    accounts: accountsRouter({
      accounts: storage.accounts,
      tokens: storage.tokens,
      assistants: storage.assistants,
      usageLog: storage.usageLog,
      prices: storage.prices,
      priceBook: services.prices,
      registry: services.registry,
    }),
    system: systemRouter({ storage, version: deps.version, startedAt: deps.startedAt ?? Date.now() }),
  });
  createExpressEndpoints(serverContract, router, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    // Order matters: the usage row is opened first, the key is checked before any body is read.
    globalMiddleware: [
      usageLog(services.recorder, services.prices, services.rateLimiter, logger),
      bearerAuth({ tokens: storage.tokens, accounts: storage.accounts }),
      jsonBody(deps.maxBodyBytes),
    ],
    requestValidationErrorHandler,
  });

  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return app;
}
