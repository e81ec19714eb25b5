import { AZURE_DEFAULT_API_VERSION, regionOfBedrockUrl, type ChannelCloud, type ChannelType } from '@chat-relay/contract';

export { regionOfBedrockUrl };

/** Azure's api-version the form suggests (the contract's, with its reasons). */
export const AZURE_API_VERSION_SUGGESTED = AZURE_DEFAULT_API_VERSION;

/** What the channel form asks of one type beyond the common fields. */
export interface TypeFields {
  baseUrl: { placeholder: string; hint: string };
  /** The Keys field's hint beyond "one per line". */
  keys?: string;
  /** A `.json` key file may be added from disk. */
  keyFile?: boolean;
  /** The Region field (`cloud.region`), for the types that take one. */
  region?: { placeholder: string; hint: string };
  /** The API version field (`cloud.api_version`), for Azure. */
  apiVersion?: { placeholder: string; hint: string };
}

const WITH_VERSION_PATH = "With the version path, as an SDK's base URL.";

/** Per type, in one place: a new type in the catalogue fails the typecheck until it has a row. */
export const TYPE_FIELDS: Readonly<Record<ChannelType, TypeFields>> = {
  openai: { baseUrl: { placeholder: 'https://api.openai.com/v1', hint: WITH_VERSION_PATH } },
  anthropic: { baseUrl: { placeholder: 'https://api.anthropic.com/v1', hint: WITH_VERSION_PATH } },
  gemini: { baseUrl: { placeholder: 'https://generativelanguage.googleapis.com/v1beta', hint: WITH_VERSION_PATH } },
  azure: {
    // https://learn.microsoft.com/en-us/azure/ai-foundry/openai/reference — the endpoint is the resource's origin.
    baseUrl: { placeholder: 'https://my-resource.openai.azure.com', hint: "The resource's endpoint (…openai.azure.com, …cognitiveservices.azure.com or …services.ai.azure.com), without /openai/v1." },
    keys: "An api-key, or an Entra service principal's JSON {tenant_id, client_id, client_secret}: paste it whole, over several lines if need be, or add its file.",
    keyFile: true,
    apiVersion: {
      placeholder: AZURE_API_VERSION_SUGGESTED,
      hint: `Empty: the v1 API (…/openai/v1, model = deployment name). A date such as ${AZURE_API_VERSION_SUGGESTED} (the latest GA): the deployments API at that api-version.`,
    },
  },
  bedrock: {
    // https://docs.aws.amazon.com/general/latest/gr/bedrock.html — Bedrock Runtime's endpoints per region.
    baseUrl: { placeholder: 'https://bedrock-runtime.us-east-1.amazonaws.com', hint: "The region's Bedrock Runtime endpoint, or a VPC endpoint." },
    keys: 'ACCESS_KEY_ID:SECRET_ACCESS_KEY, with :SESSION_TOKEN for temporary credentials, or a Bedrock API key.',
    region: { placeholder: 'us-east-1', hint: 'The AWS region requests are signed for.' },
  },
  vertex: {
    // https://cloud.google.com/vertex-ai/generative-ai/docs/learn/locations — the global host; the region picks a regional one.
    baseUrl: { placeholder: 'https://aiplatform.googleapis.com', hint: "Google's global endpoint: the relay turns it into the region's. Any other URL is used as it is." },
    keys: "A service account's JSON key file: paste it whole (it spans lines), or add the file. The project is read from it.",
    keyFile: true,
    region: { placeholder: 'global', hint: 'Vertex location such as us-east5 or europe-west1. Empty: global.' },
  },
  suno: { baseUrl: { placeholder: 'https://suno-api.example.com', hint: 'The server serving the /suno routes, without /suno.' } },
  tavily: { baseUrl: { placeholder: 'https://api.tavily.com', hint: "Tavily's API." } },
  searxng: { baseUrl: { placeholder: 'http://searxng.internal:8080', hint: 'Your SearXNG instance, JSON format enabled.' } },
};

/** The Region field's hint: for Bedrock, what the base URL already says. */
export function regionHint(type: ChannelType, baseUrl: string, region: string): string | undefined {
  const fields = TYPE_FIELDS[type].region;
  if (!fields) return undefined;
  const named = type === 'bedrock' ? regionOfBedrockUrl(baseUrl) : undefined;
  if (!named) return type === 'bedrock' ? `${fields.hint} Needed unless the base URL names it.` : fields.hint;
  if (region.trim() === '' || region.trim() === named) return `The base URL names ${named}: leave empty to sign for it.`;
  return `The base URL names ${named}; requests are signed for ${region.trim()}, as typed here.`;
}

/** `cloud` as the form holds it: only the settings the type takes, `{}` for none; an error for a Bedrock channel with no region at all. */
export function readCloud(values: { type: ChannelType; baseUrl: string; region: string; apiVersion: string }): { cloud: ChannelCloud } | { error: string } {
  const fields = TYPE_FIELDS[values.type];
  const region = fields.region ? values.region.trim() : '';
  const apiVersion = fields.apiVersion ? values.apiVersion.trim() : '';
  if (values.type === 'bedrock' && region === '' && !regionOfBedrockUrl(values.baseUrl.trim())) {
    return { error: 'Region: a bedrock channel signs its requests for an AWS region; type one (us-east-1) or use a base URL https://bedrock-runtime.{region}.amazonaws.com' };
  }
  return { cloud: { ...(region !== '' ? { region } : {}), ...(apiVersion !== '' ? { api_version: apiVersion } : {}) } };
}

/** Whether the type takes any cloud setting (`azure`, `bedrock`, `vertex`). */
export const takesCloud = (type: ChannelType): boolean => Boolean(TYPE_FIELDS[type].region ?? TYPE_FIELDS[type].apiVersion);
