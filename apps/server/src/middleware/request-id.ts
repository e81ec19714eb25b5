import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Generated ids: 16 random hex digits drawn once per process, then a counter — unique across
 * relay instances and restarts, and with no random draw or string rewrite per request.
 */
const PROCESS_PREFIX = randomBytes(8).toString('hex');
let sequence = 0;
export const newRequestId = (): string => `req_${PROCESS_PREFIX}${(++sequence).toString(16).padStart(16, '0')}`;

/** Every response carries `x-request-id`: the caller's when it is a safe token, else a new one. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : newRequestId();
  res.locals.requestId = id;
  res.setHeader('x-request-id', id);
  next();
};
