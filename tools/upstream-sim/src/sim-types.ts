/** A failure the simulator plays instead of a normal answer (SPEC §10). */
export type SimFault =
  /** `contextLength`: the 400 each provider answers a prompt longer than the model's context window with, in its own words (context-length-fault.ts). */
  | { kind: 'status'; status: number; contextLength?: true }
  | { kind: 'timeout' }
  | { kind: 'cut' }
  | { kind: 'malformed' }
  | { kind: 'stream-error' };

export interface UpstreamSimOptions {
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0: the OS picks a free port. */
  port?: number;
  /** Delay between streamed chunks (and per token before a non-streamed answer). Default 0. */
  latencyMsPerToken?: number;
  /**
   * When set, any other key is refused: OpenAI bearer → 401 `invalid_api_key`, Anthropic
   * `x-api-key` → 401 `authentication_error`, Gemini `x-goog-api-key` → 403 `PERMISSION_DENIED`,
   * Bedrock → 403 `UnrecognizedClientException`. An entry `AKID:SECRET[:SESSION_TOKEN]` is an AWS
   * access key: Bedrock checks SigV4 signatures made with it.
   */
  acceptedKeys?: string[];
  /**
   * Listed by `GET /v1/models`; default `defaultOpenAiModels` (chat, instruct, embedding,
   * moderation, image, speech and transcription models). The endpoints answer any model.
   */
  modelsServed?: string[];
  /** Listed by Gemini's `GET /v1beta/models`; default `defaultGeminiModels`. */
  geminiModels?: GeminiModelEntry[];
  /**
   * Delay between the chunks of `/v1/audio/speech` audio (about 0.1 s of sound each) unless
   * the request sets a latency directive. Default 5 ms: a client can abort mid-stream.
   */
  speechChunkDelayMs?: number;
  /**
   * The Anthropic side's models: listed by `GET /v1/models` with `anthropic-version`, and the
   * only ones `POST /v1/messages/count_tokens` knows (404 otherwise). `POST /v1/messages`
   * answers any model. Default: current Claude ids and aliases (`claude-sonnet-4-5`, …).
   */
  anthropicModels?: string[];
  /** The `anthropic-beta` values accepted (others → 400); default `defaultAnthropicBetas`. */
  anthropicBetas?: string[];
  /**
   * The OpenAI Responses API (`/v1/responses…`), on by default. `false` or `404` answers its
   * routes as OpenAI answers an unknown URL (404 `Invalid URL (POST /v1/responses)`), `405` as
   * a framework-based compatible server does (`{"detail": "Method Not Allowed"}`): an
   * OpenAI-compatible upstream without it, so the relay's bridge through Chat Completions is tested.
   */
  responsesApi?: false | 404 | 405;
  /**
   * How long a task runs — an OpenAI video job, a Suno song or lyrics — from submit to
   * completed (queued, then in progress with rising progress). Default 2000 ms; a request sets
   * its own with `[sim:task_ms=N]` or `"x_sim": {"task_ms": N}`.
   */
  taskDurationMs?: number;
  /**
   * Google service accounts the Vertex token endpoint (`POST {origin}/token`) knows: client
   * email (`name@project.iam.gserviceaccount.com`, whose project it may call) → the public key
   * of its key pair, as PEM. More with `registerVertexServiceAccount`.
   */
  vertexServiceAccounts?: Record<string, string>;
}

/** A model of Gemini's `GET /v1beta/models`: its id (without `models/`) and what it serves. */
export interface GeminiModelEntry {
  id: string;
  /** `generateContent`, `countTokens`, `embedContent`, `batchEmbedContents`, `predict`… */
  supportedGenerationMethods: string[];
}

/** A `multipart/form-data` request as received. */
export interface RecordedMultipart {
  /** Text fields in order, as sent (`timestamp_granularities[]` keeps its brackets). */
  fields: [string, string][];
  /** Each file's size and SHA-256, so a test can tell the upload arrived whole. */
  files: { field: string; filename: string; contentType: string; size: number; sha256: string }[];
}

/** The Anthropic headers a request arrived with. */
export interface AnthropicHeadersSeen {
  /** `anthropic-version`, undefined when absent. */
  version: string | undefined;
  /** The `anthropic-beta` values, split at commas and trimmed; [] when absent. */
  betas: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without `?` (`alt=sse`), '' when there is none. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw string when it does not parse, undefined when empty or multipart. */
  body: unknown;
  /** Bytes of the body as received. */
  bodyBytes: number;
  /** Set on `multipart/form-data` requests (image edits, transcriptions). */
  multipart?: RecordedMultipart;
  /** Set on requests to the Anthropic side (`/v1/messages…`, or `anthropic-version` sent). */
  anthropic?: AnthropicHeadersSeen;
}

export interface UpstreamSim {
  /** OpenAI Chat Completions and Responses API, e.g. `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  /**
   * The same OpenAI side without the Responses API (404 `Invalid URL` on `/responses…`), e.g.
   * `http://127.0.0.1:4010/chat-only/v1`: a chat-only channel next to a native one on one simulator.
   */
  chatOnlyBaseUrl: string;
  /** Anthropic Messages API (`POST {anthropicBaseUrl}/messages`), e.g. `http://127.0.0.1:4010/v1` */
  anthropicBaseUrl: string;
  /** Gemini API (`POST {geminiBaseUrl}/models/{model}:generateContent`), e.g. `http://127.0.0.1:4010/v1beta` */
  geminiBaseUrl: string;
  port: number;
  /**
   * `http://127.0.0.1:<port>`: the base URL of the routes at the root — the Suno-style task API
   * (`/suno/…`), Tavily (`POST /search`) and SearXNG (`GET /search`).
   */
  origin: string;
  /**
   * Vertex AI's base URL (`{origin}`: `/v1/projects/{p}/locations/{r}/publishers/…`, Model Garden's
   * `/v1beta1/publishers/google/models`), and its token endpoint, the `token_uri` of a key file.
   */
  vertexBaseUrl: string;
  vertexTokenUri: string;
  /** Registers a service account with the Vertex token endpoint: client email → public key PEM. */
  registerVertexServiceAccount(clientEmail: string, publicKeyPem: string): void;
  /** Access tokens the Vertex token endpoint minted since the start or the last `reset()`. */
  vertexTokensMinted(): number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /**
   * Queue `fault` for the next `times` answering requests of any format (chat, responses,
   * messages, generateContent, and the endpoints beside chat), consumed in order.
   */
  failNext(fault: SimFault, times?: number): void;
  /** Clears recorded requests, queued faults, the Anthropic prompt cache, stored responses, images, videos, Suno tasks and the count of Vertex tokens minted (the tokens stay valid). */
  reset(): void;
  close(): Promise<void>;
}
