/** The contract route ts-rest matched: one object per route, the same for every request to it. */
export interface MatchedRoute {
  /** The path template (`/api/tokens/:id`), never the request's own path. */
  readonly path: string;
  readonly metadata?: unknown;
}
