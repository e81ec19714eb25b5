import { validateResponse, type ApiFetcher } from '@ts-rest/core';
import type { AxiosInstance, AxiosResponse } from 'axios';

/** Axios' response headers as the `Headers` ts-rest expects (repeated headers kept). */
export function toFetchHeaders(headers: AxiosResponse['headers']): Headers {
  const result = new Headers();
  // Header names are own properties both of a plain object and of an AxiosHeaders instance.
  const entries: [string, unknown][] = Object.entries(headers);
  for (const [name, value] of entries) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item === 'string' || typeof item === 'number') result.append(name, String(item));
    }
  }
  return result;
}

/**
 * The ts-rest `api` fetcher implemented with axios: every status comes back as
 * `{ status, body, headers }` (ts-rest, not axios, decides what is an error).
 */
export function createAxiosFetcher(args: { http: AxiosInstance; timeoutMs?: number }): ApiFetcher {
  const { http, timeoutMs } = args;
  return async (request) => {
    const signal = request.fetchOptions?.signal ?? request.signal ?? undefined;
    const response = await http.request<unknown>({
      url: request.path,
      method: request.method,
      headers: request.headers,
      data: request.body ?? undefined,
      responseType: 'json',
      validateStatus: () => true,
      signal,
      timeout: timeoutMs,
    });
    // An empty body (204, or a 200 without content) is "no body", not the empty string.
    const body = response.data === '' ? undefined : response.data;
    const headers = toFetchHeaders(response.headers);
    if (request.validateResponse ?? request.route.validateResponseOnClient) {
      const validated = validateResponse({ appRoute: request.route, response: { status: response.status, body } });
      return { status: response.status, body: validated.body, headers };
    }
    return { status: response.status, body, headers };
  };
}
