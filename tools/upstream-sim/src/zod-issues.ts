import type { ZodError, ZodIssue } from 'zod';

export type IssuePath = ZodIssue['path'];

export interface DescribedIssue {
  path: IssuePath;
  message: string;
  /** The field is absent (zod's `invalid_type` with nothing received). */
  missing: boolean;
}

/** A union field that is simply absent: every branch says it got nothing. */
function isAbsentUnion(issue: Extract<ZodIssue, { code: 'invalid_union' }>): boolean {
  const branches = issue.unionErrors.flatMap((branch) => branch.issues);
  return branches.length > 0 && branches.every((branch) => branch.code === 'invalid_type' && branch.received === 'undefined');
}

/**
 * The issue a person should read first. A union (`string | blocks`) that fails reports every
 * branch; the branch that got furthest into the value (longest path) is the one that explains.
 */
export function firstIssue(error: ZodError): DescribedIssue {
  let issue: ZodIssue | undefined = error.issues[0];
  while (issue?.code === 'invalid_union') {
    const branches = issue.unionErrors.flatMap((branch) => branch.issues);
    const deepest = branches.reduce<ZodIssue | undefined>(
      (best, candidate) => (!best || candidate.path.length > best.path.length ? candidate : best),
      undefined,
    );
    if (!deepest || deepest.path.length <= issue.path.length) break;
    issue = deepest;
  }
  if (!issue) return { path: [], message: 'Invalid request', missing: false };
  const missing = issue.code === 'invalid_union' ? isAbsentUnion(issue) : issue.code === 'invalid_type' && issue.received === 'undefined';
  return { path: issue.path, message: issue.message, missing };
}

/** `messages.0.content.1.text`, Anthropic's way of naming a field. */
export function dottedPath(path: IssuePath): string {
  return path.map(String).join('.');
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `contents[2].parts[0].function_response.name`, Google's (proto field) way. */
export function protoPath(path: IssuePath): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${snakeCase(key)}` : snakeCase(key)),
    '',
  );
}
