import type { ServerResponse } from 'node:http';

/**
 * Azure OpenAI's error bodies, as the service sends them: `{"error": {"code", "message"}}` — a
 * code that is often the status as a string — unlike OpenAI's `{message, type, param, code}`.
 */
export interface AzureErrorBody {
  error: { code: string; message: string; param?: string | null; type?: null; status?: number; innererror?: Record<string, unknown> };
}

export function sendAzureError(res: ServerResponse, status: number, body: AzureErrorBody | Record<string, unknown>, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** No key, or a key the resource does not have (the text every Cognitive Services resource answers). */
export const accessDenied: AzureErrorBody = {
  error: {
    code: '401',
    message:
      'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  },
};

/** A bearer token Entra did not mint for this resource's audience. */
export const badToken: AzureErrorBody = {
  error: {
    code: '401',
    message: 'Unauthorized. Access token is missing, invalid, audience is incorrect (https://cognitiveservices.azure.com), or have expired.',
  },
};

/** A path the resource has no route for — the deployments API without `api-version` among them. */
export const resourceNotFound: AzureErrorBody = { error: { code: '404', message: 'Resource not found' } };

export const deploymentNotFound: AzureErrorBody = {
  error: {
    code: 'DeploymentNotFound',
    message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.',
  },
};

const SAFE = { filtered: false, severity: 'safe' } as const;

/** The verdicts of a prompt or a piece of output; `violence` filtered when `filtered`. */
export function filterVerdicts(filtered: boolean): Record<string, unknown> {
  return { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: filtered ? { filtered: true, severity: 'medium' } : SAFE };
}

/**
 * A prompt the content filter refuses: 400 `content_filter`, `innererror.code:
 * ResponsibleAIPolicyViolation` with the verdicts (https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/content-filter).
 */
export const promptFiltered: AzureErrorBody = {
  error: {
    message:
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
    type: null,
    param: 'prompt',
    code: 'content_filter',
    status: 400,
    innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { ...filterVerdicts(true), jailbreak: { filtered: false, detected: false } } },
  },
};

/**
 * What a status fault plays on an Azure route: 429 with Azure's rate-limit text and its two
 * retry headers (`retry-after-ms` before `retry-after`, as Azure sends them); other statuses
 * with Azure's `{code, message}` body.
 */
export function azureStatusAnswer(status: number): { body: AzureErrorBody; headers: Record<string, string> } {
  if (status === 429) {
    return {
      body: {
        error: {
          code: '429',
          message:
            'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.',
        },
      },
      headers: { 'retry-after-ms': '6000', 'retry-after': '6', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-remaining-tokens': '0' },
    };
  }
  if (status === 401) return { body: accessDenied, headers: {} };
  if (status === 404) return { body: deploymentNotFound, headers: {} };
  if (status >= 500) return { body: { error: { code: 'InternalServerError', message: 'The service is temporarily unable to process your request. Please try again later.' } }, headers: {} };
  return { body: { error: { code: String(status), message: `The simulator answered ${status}.` } }, headers: {} };
}
