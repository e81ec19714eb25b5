import type { RequestHandler } from 'express';
import { invalidRequest } from '@chat-relay/wire';
import { matchedRoute } from './route-metadata';

/** The path of the first string (or key) in `value` holding U+0000, e.g. `tools[0].name`; null when none does. */
export function nulStringPath(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = nulStringPath(value[index], `${at}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = at ? `${at}.${key}` : key;
      if (key.includes('\u0000')) return path;
      const found = nulStringPath(item, path);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * What the management API stores or looks up (names, instructions, model lists, URLs, filters) must fit every
 * backend, and PostgreSQL's text cannot hold U+0000: such a body is refused with a 400 naming the
 * field, on SQLite too, so the API means the same on both. It runs on the contract's routes only. Relayed bodies (prompts) are not
 * stored and pass as they are.
 */
export const refuseNulInManagementBodies: RequestHandler = (req, _res, next) => {
  // By the route's template, not the request's path: routes match `/API/…` too, and `req.path` parses the URL again.
  if (matchedRoute(req)?.path.startsWith('/api/') !== true) return next();
  if (/%00/.test(req.path)) return next(invalidRequest('The path must not contain the NUL character (U+0000).', null, 'invalid_value'));
  const path = nulStringPath(req.query) ?? nulStringPath(req.body ?? null);
  next(path === null ? undefined : invalidRequest(`'${path}' must not contain the NUL character (U+0000).`, path, 'invalid_value'));
};
