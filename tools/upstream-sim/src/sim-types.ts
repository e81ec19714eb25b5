/** A failure the simulator plays instead of a normal answer (SPEC §10). */
export type SimFault =
  | { kind: 'status'; status: number }
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
   * `x-api-key` → 401 `authentication_error`, Gemini `x-goog-api-key` → 403 `PERMISSION_DENIED`.
   */
  acceptedKeys?: string[];
  /** Listed by `GET /v1/models`; default `['gpt-4o', 'gpt-4o-mini']`. */
  modelsServed?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string without `?` (`alt=sse`), '' when there is none. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw string when it does not parse, undefined when empty. */
  body: unknown;
}

export interface UpstreamSim {
  /** OpenAI Chat Completions, e.g. `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  /** Anthropic Messages API (`POST {anthropicBaseUrl}/messages`), e.g. `http://127.0.0.1:4010/v1` */
  anthropicBaseUrl: string;
  /** Gemini API (`POST {geminiBaseUrl}/models/{model}:generateContent`), e.g. `http://127.0.0.1:4010/v1beta` */
  geminiBaseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue `fault` for the next `times` chat, messages or generateContent requests (consumed in order). */
  failNext(fault: SimFault, times?: number): void;
  /** Clears recorded requests and queued faults. */
  reset(): void;
  close(): Promise<void>;
}
