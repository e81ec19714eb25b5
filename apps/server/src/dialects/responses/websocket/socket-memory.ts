/**
 * What a Responses WebSocket keeps of its last response, so that `previous_response_id` works
 * with `store: false` on the same connection (OpenAI's WebSocket mode keeps it in memory the same
 * way, and only the most recent one): the items it was given and the items it answered.
 */
export interface RememberedResponse {
  id: string;
  /** A stored response is continued by the store (or its channel), as over HTTP. */
  stored: boolean;
  /** The conversation up to and including that response: its whole input, then its output. */
  items: readonly unknown[];
}

type Body = Readonly<Record<string, unknown>>;

/** A request's `input` as items: a string is one user message. */
export function inputItemsOf(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/**
 * The request with the remembered response in place of its reference: `previous_response_id`
 * naming the connection's last, unstored response becomes that response's items before the new
 * input. Any other reference is left for the relay's store to resolve (or refuse) as over HTTP.
 */
export function continueFromMemory(body: Body, last: RememberedResponse | undefined): Body {
  const previousId = body['previous_response_id'];
  if (typeof previousId !== 'string' || !last || last.stored || last.id !== previousId) return body;
  const { previous_response_id: _continued, ...rest } = body;
  return { ...rest, input: [...last.items, ...inputItemsOf(body['input'])] };
}

/** What to keep of a finished response, given the request as it was sent. */
export function rememberResponse(sent: Body, response: { id: string; output: readonly unknown[] }): RememberedResponse {
  return { id: response.id, stored: sent['store'] !== false, items: [...inputItemsOf(sent['input']), ...response.output] };
}
