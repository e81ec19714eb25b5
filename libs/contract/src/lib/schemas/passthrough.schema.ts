import { z } from 'zod';

/**
 * The tools a provider runs (or hosts) itself when a request passes through to a channel that
 * speaks the caller's dialect, one name per kind across the dialects:
 * - `web_search`: OpenAI `web_search`/`web_search_preview` and Chat's `web_search_options`,
 *   Anthropic `web_search_*`, Gemini `googleSearch`, `googleSearchRetrieval`, `enterpriseWebSearch`;
 * - `web_fetch`: Anthropic `web_fetch_*`, Gemini `urlContext`;
 * - `file_search`: OpenAI `file_search`, Gemini `fileSearch`;
 * - `code_execution`: OpenAI `code_interpreter`, Anthropic `code_execution_*`, Gemini `codeExecution`;
 * - `image_generation`: OpenAI `image_generation` (its own `model` is checked against the token's models);
 * - `code_execution` also: OpenAI `shell` in a hosted container (`container_auto`, `container_reference`);
 * - `mcp`: OpenAI `mcp`, Anthropic `mcp_servers` / `mcp_toolset`;
 * - `google_maps`: Gemini `googleMaps`.
 *
 * Not among them, never policed: the caller's own tools, which the provider only asks the caller
 * to run — functions, custom tools, OpenAI `local_shell`, `shell` in a local environment,
 * `apply_patch`, `computer`/`computer_use_preview`, Anthropic `bash_*`, `text_editor_*`,
 * `computer_*`, `memory_*`, Gemini `computerUse` — and tool search (OpenAI `tool_search`,
 * Anthropic `tool_search_tool_*`), which searches only the request's own deferred tools. They cost
 * tokens only and reach nothing of the channel's account: Codex and Claude Code send them on every
 * turn.
 */
export const HostedToolKindSchema = z.enum([
  'web_search',
  'web_fetch',
  'file_search',
  'code_execution',
  'image_generation',
  'mcp',
  'google_maps',
]);
export type HostedToolKind = z.infer<typeof HostedToolKindSchema>;
export const HOSTED_TOOL_KINDS: readonly HostedToolKind[] = HostedToolKindSchema.options;

/**
 * Kinds the providers charge per call (a search, a container, an image, a grounded prompt), so a
 * price per call must be set before they pass (0 is free on purpose). The others cost tokens only.
 */
export const PER_CALL_TOOL_KINDS: ReadonlySet<HostedToolKind> = new Set<HostedToolKind>(['web_search', 'file_search', 'code_execution', 'image_generation', 'google_maps']);

/**
 * A service tier other than the standard one, as the request or answer names it, lower case:
 * OpenAI's `flex`, `scale`, `priority`; Anthropic's `fast` (`speed`) and `priority` (answered).
 */
export const ServiceTierNameSchema = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'a lower-case tier name such as priority or flex');

/** Tier values that ask for nothing beyond the standard tier: never policed. */
export const STANDARD_SERVICE_TIERS: ReadonlySet<string> = new Set(['auto', 'default', 'standard', 'standard_only', 'unspecified', 'service_tier_unspecified']);

const uniqueList = <T extends z.ZodTypeAny>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((list) => new Set(list).size === list.length, 'each entry may appear once');

/**
 * What a channel lets through beyond plain tokens when a request passes through to it in the
 * caller's own dialect (SPEC §7a). Nothing by default: a hosted tool, premium tier, audio answer or
 * upstream object id is refused with a 400 naming the field until the operator lists it here — and
 * a per-call kind or a tier also needs its price (PriceSchema `tool_calls`, `service_tiers`,
 * `audio_output`).
 * - `hosted_tools`: tool kinds the provider may run;
 * - `service_tiers`: tiers a caller may ask for (`priority`, `flex`, `scale`, `fast`);
 * - `audio_output`: answers in audio (Chat `modalities`/`audio`, Gemini `responseModalities: AUDIO`);
 * - `upstream_objects`: ids of objects kept at the provider that the relay did not create (files,
 *   vector stores, conversations, prompts, containers, caches): every tenant of the channel's key
 *   shares them, so only for a single-tenant install.
 */
export const ChannelPassthroughSchema = z
  .object({
    hosted_tools: uniqueList(HostedToolKindSchema, HOSTED_TOOL_KINDS.length),
    service_tiers: uniqueList(ServiceTierNameSchema, 16),
    audio_output: z.boolean(),
    upstream_objects: z.boolean(),
  })
  .strict();
export type ChannelPassthrough = z.infer<typeof ChannelPassthroughSchema>;

/** A create or update names only what it changes; the rest is the default (create) or as it was (update). */
export const ChannelPassthroughInputSchema = ChannelPassthroughSchema.partial().strict();
export type ChannelPassthroughInput = z.infer<typeof ChannelPassthroughInputSchema>;

/** Nothing beyond plain tokens. */
export const DEFAULT_CHANNEL_PASSTHROUGH: ChannelPassthrough = { hosted_tools: [], service_tiers: [], audio_output: false, upstream_objects: false };
