const compiled = new Map<string, RegExp>();

export const isGlob = (pattern: string): boolean => pattern.includes('*') || pattern.includes('?');

/** Glob → anchored RegExp: `*` any run of characters (including none), `?` exactly one. */
function compile(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    const body = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
      .join('');
    regex = new RegExp(`^${body}$`, 's');
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Does a channel's model entry (a name or a glob) cover `model`? */
export function matchesModelPattern(pattern: string, model: string): boolean {
  return isGlob(pattern) ? compile(pattern).test(model) : pattern === model;
}
