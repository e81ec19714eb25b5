import type { Endpoint } from '@chat-relay/contract';
import { z } from 'zod';
import type { UpstreamCloud } from '../hub/upstream-adapter';
import type { ModelList } from '../providers/channel-provider';
import { azureAuthHeaders } from '../providers/provider-auth';
import { mapAzureErrorResponse } from './azure-error';
import { azureResourceRoot, withAzureApiVersion } from './azure-url';

/** What a listed model can do, as Azure says (https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list). */
const CapabilitiesSchema = z
  .object({
    chat_completion: z.boolean().optional(),
    completion: z.boolean().optional(),
    embeddings: z.boolean().optional(),
    inference: z.boolean().optional(),
  })
  .passthrough();

const AzureModelListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1), capabilities: CapabilitiesSchema.optional() }).passthrough()),
});

type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** The endpoints Azure's capabilities name; null when it names none the relay routes by (images, audio): the server's name table decides. */
function endpointsOf(capabilities: Capabilities | undefined): Endpoint[] | null {
  if (!capabilities) return null;
  const endpoints: Endpoint[] = [];
  if (capabilities.chat_completion) endpoints.push('chat');
  if (capabilities.completion) endpoints.push('completions');
  if (capabilities.embeddings) endpoints.push('embeddings');
  return endpoints.length > 0 ? endpoints : null;
}

/**
 * Azure OpenAI's model list: `GET {root}/openai/v1/models` on the v1 API, `GET
 * {root}/openai/models?api-version=…` with one. Both list the BASE MODELS the resource may
 * deploy (`gpt-4o-2024-08-06`, `text-embedding-3-small` …), not its deployments — Azure's data
 * plane has no list of deployments (that is the management API, with other credentials). The
 * relay sends the deployment's name as the upstream model, so a synced name works when a
 * deployment is named like its model (the portal's default), and needs a model mapping otherwise.
 * Models Azure lists as not for inference (fine-tuning bases) are left out.
 *
 * `cloud` is the channel's cloud settings when the server passes them; without, the v1 API's
 * list, which every resource serves.
 */
export const azureModelList: ModelList = {
  url: (baseUrl: string, _cursor: string | undefined, cloud?: UpstreamCloud) => {
    const root = azureResourceRoot(baseUrl);
    const apiVersion = cloud?.apiVersion?.trim() || undefined;
    return apiVersion === undefined ? `${root}/openai/v1/models` : withAzureApiVersion(`${root}/openai/models`, apiVersion);
  },
  headers: (key) => ({ ...azureAuthHeaders(key), accept: 'application/json' }),
  parse: (json) =>
    AzureModelListSchema.transform((list) => ({
      models: list.data.filter((model) => model.capabilities?.inference !== false).map((model) => ({ id: model.id, endpoints: endpointsOf(model.capabilities) })),
    })).safeParse(json),
  mapErrorResponse: (status, text, secrets) => mapAzureErrorResponse(status, text, secrets),
};
