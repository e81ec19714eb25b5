import type { ZodError, ZodIssue } from 'zod';

/** `['messages', 0, 'role']` → `messages[0].role`, the way OpenAI names a field in `param`. */
export function formatParamPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${segment}` : segment;
  }
  return out;
}

/**
 * The most useful issue of a ZodError: inside unions zod reports "Invalid input" at the union;
 * the branch whose issue goes deepest is nearly always the one the caller meant.
 */
export function mostSpecificIssue(error: ZodError): ZodIssue {
  let best: ZodIssue | undefined;
  for (const issue of error.issues) {
    const candidate = issue.code === 'invalid_union' ? deepestUnionIssue(issue.unionErrors) ?? issue : issue;
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  if (!best) throw new Error('ZodError without issues');
  return best;
}

function deepestUnionIssue(unionErrors: ZodError[]): ZodIssue | undefined {
  let best: ZodIssue | undefined;
  for (const unionError of unionErrors) {
    const issue = mostSpecificIssue(unionError);
    if (!best || issue.path.length > best.path.length) best = issue;
  }
  return best;
}

/** One readable sentence for an issue, naming the field. */
export function describeIssue(issue: ZodIssue, param: string): string {
  if (issue.code === 'unrecognized_keys') {
    return `Unrecognized request argument supplied: ${issue.keys.join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.received === 'undefined') {
    return `Missing required parameter: '${param}'.`;
  }
  return param ? `Invalid value for '${param}': ${issue.message}` : `Invalid request: ${issue.message}`;
}
