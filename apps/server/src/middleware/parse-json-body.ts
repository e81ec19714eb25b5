import type { RequestHandler } from 'express';
import { takeTurn } from '../core/take-turn';
import { unparsable } from '../validation/json-body-errors';
import { memberBytes, parseScannedBody } from '../validation/scanned-body';
import { countTools, DEFAULT_MAX_TOOLS, DEFAULT_MAX_TOOLS_BYTES, TOOL_MEMBERS, tooManyTools, toolsTooLarge, type ToolLimits } from '../validation/tool-limits';

const DEFAULT_LIMITS: ToolLimits = { maxTools: DEFAULT_MAX_TOOLS, maxToolsBytes: DEFAULT_MAX_TOOLS_BYTES };

/**
 * The body as the route's validation sees it (`req.body`), once the token policy and the model's
 * admission have let the request in: a large JSON body the reader only scanned is parsed here, in
 * slices that leave the event loop to other requests between them — but first its tool
 * definitions are measured from the scan, so that a body of too many is refused unparsed. Every
 * JSON body's tools are then counted against the limits.
 */
export function parseJsonBody(limits: ToolLimits = DEFAULT_LIMITS): RequestHandler {
  return (req, res, next) => {
    const scan = res.locals.jsonScan;
    // Without the caller's bytes (a compressed body) their size is not known: measured when it has tools.
    if (!scan) return next(toolsRefusal(req.body, res.locals.rawBody?.length ?? Number.POSITIVE_INFINITY, limits));
    const toolsBytes = TOOL_MEMBERS.reduce((sum, key) => sum + memberBytes(scan, key), 0);
    if (toolsBytes > limits.maxToolsBytes) return next(toolsTooLarge(toolsBytes, limits));
    res.locals.jsonScan = undefined;
    parseScannedBody(scan).then(
      async (body) => {
        req.body = body;
        const refusal = toolsRefusal(body, 0, limits);
        // Validation walks the whole body at once: on a turn of its own (see take-turn.ts).
        if (!refusal) await takeTurn();
        next(refusal);
      },
      () => next(unparsable()),
    );
  };
}

/** Too many tools, or (when the body could hold more bytes of them than allowed) too large ones. */
function toolsRefusal(body: unknown, bodyBytes: number, limits: ToolLimits) {
  const tools = countTools(body);
  if (tools === 0) return undefined;
  if (tools > limits.maxTools) return tooManyTools(tools, limits);
  // Only a body larger than the limit can hold more: the common request is not serialised again.
  if (bodyBytes > limits.maxToolsBytes) {
    const { tools: list, functions } = body as { tools?: unknown; functions?: unknown };
    const bytes = Buffer.byteLength(JSON.stringify(list ?? null)) + Buffer.byteLength(JSON.stringify(functions ?? null));
    if (bytes > limits.maxToolsBytes) return toolsTooLarge(bytes, limits);
  }
  return undefined;
}
