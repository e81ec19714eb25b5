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
  /** When set, any other bearer key gets 401 `invalid_api_key`. */
  acceptedKeys?: string[];
  /** Listed by `GET /v1/models`; default `['gpt-4o', 'gpt-4o-mini']`. */
  modelsServed?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, the raw string when it does not parse, undefined when empty. */
  body: unknown;
}

export interface UpstreamSim {
  /** e.g. `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Queue `fault` for the next `times` chat requests (consumed in order). */
  failNext(fault: SimFault, times?: number): void;
  /** Clears recorded requests and queued faults. */
  reset(): void;
  close(): Promise<void>;
}
