import { invalidRequest, type RelayError } from '@chat-relay/wire';

/** How many tools one request may define, and how many bytes their definitions may take (RELAY_MAX_TOOLS, RELAY_MAX_TOOLS_BYTES). */
export interface ToolLimits {
  maxTools: number;
  maxToolsBytes: number;
}

/**
 * 2,048 tools: OpenAI takes 128 a request and Vertex AI 128 function declarations, Anthropic
 * documents no count for plain tools (its tool search takes catalogues of up to 10,000), and
 * Claude Code with a dozen MCP servers sends about 260 — an agent with many MCP servers stays
 * far below; more needs RELAY_MAX_TOOLS.
 */
export const DEFAULT_MAX_TOOLS = 2048;
/**
 * 8 MiB of definitions: Claude Code's two dozen built-in tools take about 17 KB, 260 MCP tools
 * about 0.5 MB; converting 8 MiB of schemas for a bridged channel stays within tens of ms.
 */
export const DEFAULT_MAX_TOOLS_BYTES = 8 * 1024 * 1024;

/** The top-level members that hold tool definitions in any dialect (`functions`: Chat's legacy form). */
export const TOOL_MEMBERS = ['tools', 'functions'] as const;

const count = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * The tools a parsed body defines, whatever its dialect: Chat's `tools` and legacy `functions`,
 * Responses' and Messages' `tools`, Gemini's `tools[].functionDeclarations` (a Gemini tool without
 * declarations — search, code execution — counts as one).
 */
export function countTools(body: unknown): number {
  if (typeof body !== 'object' || body === null) return 0;
  const { tools, functions } = body as { tools?: unknown; functions?: unknown };
  let total = count(functions);
  if (!Array.isArray(tools)) return total;
  for (const tool of tools as unknown[]) {
    const declarations = typeof tool === 'object' && tool !== null ? (tool as { functionDeclarations?: unknown }).functionDeclarations : undefined;
    total += Array.isArray(declarations) ? Math.max(1, declarations.length) : 1;
  }
  return total;
}

const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** 400 in the caller's dialect naming the limit and its setting. */
export function tooManyTools(tools: number, limits: ToolLimits): RelayError {
  return invalidRequest(
    `This request defines ${tools} tools; this relay takes at most ${limits.maxTools} a request (RELAY_MAX_TOOLS). Send fewer tools, or ask the operator to raise the limit.`,
    'tools',
    'too_many_tools',
  );
}

export function toolsTooLarge(bytes: number, limits: ToolLimits): RelayError {
  return invalidRequest(
    `The tool definitions of this request take ${megabytes(bytes)}; this relay takes at most ${megabytes(limits.maxToolsBytes)} of them a request (RELAY_MAX_TOOLS_BYTES). Shorten the tool schemas or send fewer tools, or ask the operator to raise the limit.`,
    'tools',
    'tools_too_large',
  );
}
