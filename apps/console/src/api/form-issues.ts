import type { ZodIssue } from 'zod';

/** A form checked before sending: the request body, or what to fix in the form's words. */
export type FormOutcome<Body> = { ok: true; body: Body } | { ok: false; errors: string[] };

/**
 * A schema's complaints in the form's words: the field's label instead of its wire name, and
 * the line or row (1-based) for a list item, e.g. `Keys (line 2): String must contain …`.
 */
export function formIssues(issues: readonly ZodIssue[], labels: Readonly<Record<string, string>>, itemWord = 'item'): string[] {
  const messages = issues.map((issue) => {
    const [field, item] = issue.path;
    if (field === undefined) return issue.message;
    const label = labels[String(field)] ?? String(field);
    const where = typeof item === 'number' ? ` (${itemWord} ${item + 1})` : typeof item === 'string' ? ` (${item})` : '';
    return `${label}${where}: ${issue.message}`;
  });
  return [...new Set(messages)];
}

/** A whole number typed in a form, or an error naming the field. */
export function parseWholeNumber(text: string, label: string): { value: number } | { error: string } {
  const trimmed = text.trim();
  if (!/^-?\d+$/.test(trimmed)) return { error: `${label}: must be a whole number` };
  return { value: Number(trimmed) };
}
