import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultAnthropicBetas } from './anthropic/anthropic-headers';
import { defaultAnthropicModels } from './anthropic/anthropic-models';
import { PromptCache } from './anthropic/prompt-cache';
import { ImageStore } from './endpoints/image-store';
import { defaultGeminiModels } from './gemini/gemini-models';
import { chatOnlyPrefix, handleRequest, type SimContext } from './handle-request';
import { errorForStatus } from './openai-error';
import { defaultOpenAiModels } from './openai-models';
import { sendError } from './http-io';
import { ResponseStore } from './responses/response-store';
import { defaultTaskDurationMs } from './tasks/task-clock';
import { TaskStore } from './tasks/task-store';
import type { StoredVideo } from './videos/video-object';
import type { StoredSunoTask } from './suno/suno-task';
import type { RecordedRequest, SimFault, UpstreamSim, UpstreamSimOptions } from './sim-types';
import { VertexTokenStore } from './vertex/vertex-oauth';

/** Audio chunks this far apart let a client stop reading a speech stream midway. */
const defaultSpeechChunkDelayMs = 5;

/** Pending connections the kernel may queue (capped by net.core.somaxconn): bursts of thousands. */
const LISTEN_BACKLOG = 4096;

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, LISTEN_BACKLOG, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Idle keep-alive sockets and hung (timeout-fault) requests would keep close() waiting.
    server.closeAllConnections();
  });
}

function answerUnexpectedError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  sendError(res, 500, errorForStatus(500));
}

/**
 * Starts the upstream simulator (SPEC §10) — OpenAI (chat and every endpoint beside it),
 * Anthropic and Gemini formats — on a real port.
 */
export async function startUpstreamSim(options: UpstreamSimOptions = {}): Promise<UpstreamSim> {
  const host = options.host ?? '127.0.0.1';
  const requests: RecordedRequest[] = [];
  const queuedFaults: SimFault[] = [];
  const promptCache = new PromptCache();
  const responseStore = new ResponseStore();
  const imageStore = new ImageStore();
  const videoStore = new TaskStore<StoredVideo>();
  const sunoStore = new TaskStore<StoredSunoTask>();
  const vertexTokens = new VertexTokenStore();
  for (const [clientEmail, publicKeyPem] of Object.entries(options.vertexServiceAccounts ?? {})) vertexTokens.register(clientEmail, publicKeyPem);
  const context: SimContext = {
    defaultLatencyMsPerToken: options.latencyMsPerToken ?? 0,
    acceptedKeys: options.acceptedKeys ? new Set(options.acceptedKeys) : undefined,
    modelsServed: options.modelsServed ?? defaultOpenAiModels,
    geminiModels: options.geminiModels ?? defaultGeminiModels,
    imageStore,
    speechChunkDelayMs: options.speechChunkDelayMs ?? defaultSpeechChunkDelayMs,
    anthropicModels: options.anthropicModels ?? defaultAnthropicModels,
    knownBetas: new Set(options.anthropicBetas ?? defaultAnthropicBetas),
    promptCache,
    responseStore,
    responsesMissing: options.responsesApi === false ? 404 : options.responsesApi || undefined,
    taskDurationMs: options.taskDurationMs ?? defaultTaskDurationMs,
    videoStore,
    sunoStore,
    vertexTokens,
    record: (request) => requests.push(request),
    takeQueuedFault: () => queuedFaults.shift(),
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handleRequest(req, res, context).catch((error: unknown) => answerUnexpectedError(res, error));
  });
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const origin = `http://${urlHost}:${port}`;
  return {
    baseUrl: `${origin}/v1`,
    chatOnlyBaseUrl: `${origin}${chatOnlyPrefix}/v1`,
    anthropicBaseUrl: `${origin}/v1`,
    geminiBaseUrl: `${origin}/v1beta`,
    port,
    origin,
    vertexBaseUrl: origin,
    vertexTokenUri: `${origin}/token`,
    registerVertexServiceAccount: (clientEmail, publicKeyPem) => vertexTokens.register(clientEmail, publicKeyPem),
    vertexTokensMinted: () => vertexTokens.minted,
    requests,
    failNext(fault: SimFault, times = 1): void {
      for (let count = 0; count < times; count += 1) queuedFaults.push(fault);
    },
    reset(): void {
      // Cleared in place: callers may hold on to `sim.requests`.
      requests.length = 0;
      queuedFaults.length = 0;
      promptCache.clear();
      responseStore.clear();
      imageStore.clear();
      videoStore.clear();
      sunoStore.clear();
      vertexTokens.resetCount();
    },
    close: () => {
      responseStore.clear();
      return closeServer(server);
    },
  };
}
