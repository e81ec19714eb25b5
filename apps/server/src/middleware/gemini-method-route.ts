import { parseGeminiTarget } from '@chat-relay/contract';
import type { RequestHandler } from 'express';
import { routeMetadata } from './route-metadata';

/**
 * Gemini's model methods share one path, `/v1beta/models/{model}:{method}`: each route of that
 * path takes its own methods (`metadata.geminiMethods`) and hands any other method the relay
 * serves to the next route of the path (Express's `next('route')`), before anything else runs
 * for it (its usage row, its key, its body). A method no route serves stays with the first
 * route, whose validation answers 404 as Google does.
 */
export const geminiMethodRoute: RequestHandler = (req, _res, next) => {
  const methods = routeMetadata(req)?.geminiMethods;
  if (!methods) return next();
  const method = parseGeminiTarget(String(req.params['target'] ?? ''))?.method;
  if (method !== undefined && !methods.includes(method)) return next('route');
  next();
};
