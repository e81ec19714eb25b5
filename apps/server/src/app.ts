import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type Express } from 'express';
import type { Logger } from './logger';
import { acceptResponsesWebSocket } from './routes/responses-websocket.route';
import { countResponses } from './metrics/count-responses';
import { bearerAuth } from './middleware/bearer-auth';
import { cors, type CorsPolicy } from './middleware/cors';
import { errorHandler, undecodablePath, unknownRoute } from './middleware/error-handler';
import { geminiMethodRoute } from './middleware/gemini-method-route';
import { admitToken } from './middleware/admit-token';
import { bodyReader, readBody } from './middleware/json-body';
import { multipartBody } from './middleware/multipart-body';
import { refuseNulInManagementBodies } from './middleware/nul-strings';
import { parseJsonBody } from './middleware/parse-json-body';
import { requestId } from './middleware/request-id';
import { requestValidationErrorHandler } from './middleware/request-validation-error';
import { usageLog } from './middleware/usage-log';
import { accountsRouter } from './routes/accounts.route';
import { assistantsRouter } from './routes/assistants.route';
import { catalogueRouter } from './routes/catalogue.route';
import { channelsRouter } from './routes/channels.route';
import { consoleStatic } from './routes/console-static';
import { docsRouter, type DocsOptions } from './routes/docs.route';
import { chatRouter } from './routes/chat-completions.route';
import { endpointsRouter } from './routes/endpoints.route';
import { geminiRouter } from './routes/gemini.route';
import { messagesRouter } from './routes/messages.route';
import { cloudMessagesRouter } from './routes/cloud-messages.route';
import { responsesRouter } from './routes/responses.route';
import { sunoRouter } from './routes/suno.route';
import { videosRouter } from './routes/videos.route';
import type { PipelineDeps } from './pipeline/run-pipeline';
import { digestKey } from './security/keys';
import { systemRouter } from './routes/system.route';
import { serverContract } from './routes/server-contract';
import { tokensRouter } from './routes/tokens.route';
import { fallbacksRouter } from './routes/fallbacks.route';
import { webhooksRouter } from './routes/webhooks.route';
import type { RelayServices } from './services';
import type { Storage } from './storage/types';
import type { ToolLimits } from './validation/tool-limits';

export interface AppDeps {
  storage: Storage;
  services: RelayServices;
  logger: Logger;
  maxBodyBytes: number;
  /** Multipart audio uploads (RELAY_MAX_UPLOAD_BYTES); `maxBodyBytes` when not given. */
  maxUploadBytes?: number;
  maxRetries: number;
  /** RELAY_WEB_SEARCH_MAX_CALLS: web searches one bridged Response runs at most (5 when not given). */
  webSearchMaxCalls?: number;
  /** RELAY_MAX_TOOLS, RELAY_MAX_TOOLS_BYTES; the defaults of validation/tool-limits.ts when not given. */
  toolLimits?: ToolLimits;
  version: string;
  startedAt?: number;
  /** Express `trust proxy` (RELAY_TRUST_PROXY): whose X-Forwarded-For sets `req.ip`. */
  trustProxy?: string | readonly string[];
  /** Browser origins (RELAY_CORS_ORIGINS, RELAY_CORS_API_ORIGINS); default: every origin for /v1, none for /api. */
  cors?: CorsPolicy;
  /** RELAY_QUOTA_DEFAULT_COMPLETION_TOKENS; 1024 when not given. */
  quotaDefaultCompletionTokens?: number;
  /** RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS; no cap when not given. */
  quotaOutputReservationTokens?: number;
  /** RELAY_UNPRICED_MODELS; `refuse` when not given. */
  unpricedModels?: 'refuse' | 'free';
  /** The built console (dist/apps/console) served at /console; not served when not given. */
  consoleDir?: string;
  /** RELAY_METRICS_TOKEN: admits `GET /metrics` besides the admin key. */
  metricsToken?: string;
  /** The help pages at /docs (where the guides are read from). */
  docs?: DocsOptions;
}

/** The Express app implementing the contract; no listen — `main.ts` and supertest do that. */
export function createApp(deps: AppDeps): Express {
  const { storage, services, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
  app.use(requestId);
  app.use(countResponses(services.metrics));
  app.use(cors(deps.cors ?? { v1: '*', api: [] }));
  // Claude Code checks the base URL it was given with `HEAD /` before its first request.
  app.head('/', (_req, res) => void res.status(200).end());
  if (deps.consoleDir) app.use(consoleStatic(deps.consoleDir));

  const pipeline: PipelineDeps = {
    ...services,
    assistants: storage.assistants,
    quota: storage.quota,
    defaultCompletionTokens: deps.quotaDefaultCompletionTokens,
    outputReservationTokens: deps.quotaOutputReservationTokens,
    unpricedModels: deps.unpricedModels ?? 'refuse',
    maxRetries: deps.maxRetries,
    logger,
  };
  const auth = {
    tokens: storage.tokens,
    accounts: storage.accounts,
    failures: services.authFailures,
    metricsTokenDigest: deps.metricsToken === undefined ? undefined : digestKey(deps.metricsToken),
  };
  const bodies = bodyReader(
    deps.maxBodyBytes,
    multipartBody({ bodyBytes: (req) => (/^\/v1\/(?:audio\/|videos\/?$)/.test(req.path) ? (deps.maxUploadBytes ?? deps.maxBodyBytes) : deps.maxBodyBytes) }),
  );
  const s = initServer();
  const router = s.router(serverContract, {
    chat: chatRouter({ ...pipeline, catalogue: services.catalogue }),
    messages: messagesRouter(pipeline),
    cloudMessages: cloudMessagesRouter(pipeline),
    responses: responsesRouter({ ...pipeline, responses: services.responses, recorder: services.recorder, webSearchMaxCalls: deps.webSearchMaxCalls }),
    gemini: geminiRouter({ ...pipeline, catalogue: services.catalogue }),
    endpoints: endpointsRouter(pipeline),
    videos: videosRouter({ ...pipeline, tasks: storage.tasks, engine: services.tasks }),
    suno: sunoRouter({ ...pipeline, tasks: storage.tasks, engine: services.tasks }),
    channels: channelsRouter({
      channels: storage.channels,
      registry: services.registry,
      health: services.health,
      refusals: services.refusals,
      upstream: services.upstream,
      modelSync: services.modelSync,
      checks: services.channelChecks.log,
    }),
    tokens: tokensRouter({ tokens: storage.tokens, accounts: storage.accounts, usageLog: storage.usageLog }),
    assistants: assistantsRouter({ assistants: storage.assistants }),
    accounts: accountsRouter({
      accounts: storage.accounts,
      tokens: storage.tokens,
      assistants: storage.assistants,
      usageLog: storage.usageLog,
      prices: storage.prices,
      priceBook: services.prices,
      catalogue: services.catalogue,
      registry: services.registry,
      storedResponses: services.responses,
      logger,
    }),
    catalogue: catalogueRouter({
      store: storage.catalogue,
      catalogue: services.catalogue,
      priceBook: services.prices,
      registry: services.registry,
    }),
    system: systemRouter({
      storage,
      cluster: services.cluster,
      draining: () => services.inFlight.isDraining,
      usageBacklogFull: () => services.recorder.backlogFull,
      version: deps.version,
      startedAt: deps.startedAt ?? Date.now(),
      metrics: services.metrics,
    }),
    fallbacks: fallbacksRouter(),
    webhooks: webhooksRouter({ webhooks: storage.webhooks, events: services.alerts.events }),
  });
  createExpressEndpoints(serverContract, router, app, {
    logInitialization: false,
    jsonQuery: false,
    responseValidation: false,
    // Order matters: a Gemini method finds its route first, the usage row is opened next, the key is checked before any body is read,
    // an API token's policy and its model's admission are decided before any body is parsed.
    globalMiddleware: [
      geminiMethodRoute,
      usageLog({ recorder: services.recorder, prices: services.prices, rateLimiter: services.rateLimiter, logger }, services.inFlight),
      bearerAuth(auth),
      admitToken({ rateLimiter: services.rateLimiter, registry: services.registry, accounts: storage.accounts, readBody: bodies }),
      readBody(bodies),
      parseJsonBody(deps.toolLimits),
      refuseNulInManagementBodies,
    ],
    requestValidationErrorHandler,
  });

  // Responses over WebSocket: the upgrade of `GET /v1/responses`, once the caller is authenticated.
  app.get('/v1/responses', acceptResponsesWebSocket(auth, () => services.inFlight.isDraining));

  // Public help pages, outside /v1 and /api: no key, and the unknown-path rule below is untouched.
  app.use('/docs', docsRouter(deps.docs));

  // Unknown paths: a caller without a valid key learns nothing about which routes exist.
  app.use(undecodablePath);
  app.use('/v1', bearerAuth(auth, 'token'));
  app.use('/v1beta', bearerAuth(auth, 'token'));
  app.use('/suno', bearerAuth(auth, 'token'));
  app.use('/api', bearerAuth(auth, 'management'));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return app;
}
