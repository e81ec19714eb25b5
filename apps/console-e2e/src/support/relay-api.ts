import { ChatCompletionSchema, LogPageSchema, TokenCreatedSchema, type LogEntry, type TokenCreated } from '@chat-relay/contract';
import type { z } from 'zod';

/** What the test does beside the browser, like a script of the operator: plain HTTP with a key. */
export class RelayApi {
  constructor(private readonly url: string) {}

  private async call<T>(method: string, route: string, key: string, schema: z.ZodType<T>, body?: unknown): Promise<{ value: T; requestId: string }> {
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route} → ${response.status}: ${text}`);
    return { value: schema.parse(JSON.parse(text)), requestId: response.headers.get('x-request-id') ?? '' };
  }

  /** Any system API call with a management key, its answer checked with `schema`. */
  async json<T>(method: string, route: string, key: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    return (await this.call(method, route, key, schema, body)).value;
  }

  /** `POST /api/tokens` with a management key: the new token for that key's account. */
  async createToken(managementKey: string, name: string): Promise<TokenCreated> {
    return (await this.call('POST', '/api/tokens', managementKey, TokenCreatedSchema, { name })).value;
  }

  /** One non-streamed chat completion; resolves with the relay's request id (`x-request-id`). */
  async chat(apiToken: string, model: string, text: string): Promise<string> {
    const body = { model, messages: [{ role: 'user', content: text }] };
    return (await this.call('POST', '/v1/chat/completions', apiToken, ChatCompletionSchema, body)).requestId;
  }

  /**
   * The log entry of `requestId` once the relay has written it (usage rows are flushed in
   * batches), so a page opened afterwards lists it.
   */
  async waitForLog(managementKey: string, requestId: string, timeoutMs = 10_000): Promise<LogEntry> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { value } = await this.call('GET', '/api/logs?per_page=100', managementKey, LogPageSchema);
      const entry = value.data.find((log) => log.request_id === requestId);
      if (entry) return entry;
      if (Date.now() > deadline) throw new Error(`no log entry for ${requestId} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** `GET /metrics` with its bearer token, as Prometheus scrapes it. */
  async metricsText(metricsToken: string): Promise<string> {
    const response = await fetch(`${this.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET /metrics → ${response.status}: ${text}`);
    return text;
  }
}
