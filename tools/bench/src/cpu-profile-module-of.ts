// Which module of issue 30's list a profile frame's code belongs to: by its TypeScript source
// (relay frames mapped through the bundle's source map), its npm package, or Node's own module.

/** The rows of the module table, in the order it prints them. */
export const moduleNames = [
  'wire: stream transformers',
  'wire: other',
  'pump',
  'pipeline',
  'accounting',
  'usage log',
  'metrics',
  'logging',
  'middleware',
  'policy/auth',
  'routes',
  'channels',
  'other relay',
  'Express/ts-rest',
  'undici',
  'node http',
  'sockets',
  'streams/events',
  'microtasks',
  'GC',
  '(program)',
  'other',
] as const;

export type ModuleName = (typeof moduleNames)[number];

/** Express 4, its middleware and their dependencies, and ts-rest's server side. */
const expressFamily: ReadonlySet<string> = new Set([
  'express', 'body-parser', 'raw-body', 'type-is', 'qs', 'parseurl', 'finalhandler', 'router', 'send', 'serve-static',
  'on-finished', 'on-headers', 'content-type', 'content-disposition', 'accepts', 'negotiator', 'mime', 'mime-types',
  'mime-db', 'media-typer', 'cookie', 'cookie-signature', 'etag', 'fresh', 'range-parser', 'proxy-addr', 'forwarded',
  'ipaddr.js', 'vary', 'depd', 'debug', 'ms', 'encodeurl', 'escape-html', 'merge-descriptors', 'methods',
  'path-to-regexp', 'utils-merge', 'statuses', 'http-errors', 'setprototypeof', 'toidentifier', 'inherits',
  'iconv-lite', 'safer-buffer', 'bytes', 'unpipe', 'destroy', 'ee-first', 'array-flatten', 'side-channel',
]);
const loggingPackages: ReadonlySet<string> = new Set([
  'pino', 'pino-std-serializers', 'pino-abstract-transport', 'sonic-boom', 'thread-stream', 'quick-format-unescaped',
  'fast-redact', '@pinojs/redact', 'safe-stable-stringify', 'on-exit-leak-free', 'atomic-sleep',
]);
const metricsPackages: ReadonlySet<string> = new Set(['prom-client', 'tdigest', 'bintrees']);

/** `…/node_modules/@scope/pkg/…` → `@scope/pkg` (the innermost node_modules), else undefined. */
export function packageOf(pathOrUrl: string): string | undefined {
  const marker = '/node_modules/';
  const at = pathOrUrl.lastIndexOf(marker);
  if (at < 0) return undefined;
  const [first = '', second = ''] = pathOrUrl.slice(at + marker.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

function moduleOfPackage(name: string): ModuleName {
  if (expressFamily.has(name) || name.startsWith('@ts-rest/')) return 'Express/ts-rest';
  if (name === 'undici') return 'undici';
  if (name === 'better-sqlite3') return 'usage log';
  if (loggingPackages.has(name)) return 'logging';
  if (metricsPackages.has(name)) return 'metrics';
  return 'other';
}

/** `node:_http_server`, `node:internal/streams/writable`, … */
function moduleOfNode(specifier: string): ModuleName {
  if (specifier.startsWith('_http_')) return 'node http';
  if (specifier.startsWith('internal/deps/undici/')) return 'undici';
  if (specifier === 'net' || specifier === 'internal/stream_base_commons') return 'sockets';
  if (specifier === 'events' || specifier === 'stream' || specifier.startsWith('internal/streams/')) return 'streams/events';
  if (specifier.startsWith('internal/process/')) return 'microtasks';
  return 'other';
}

const wireStreamFile = /^libs\/wire\/src\/(?:.+\/)?(?:upstream\/[^/]*stream[^/]*|edit-chunk-text[^/]*|[^/]*chunk-frame[^/]*|read-[^/]*-chunk[^/]*)$/;

/** A relay source path relative to the workspace root (`apps/server/src/…`, `libs/wire/src/…`). */
function moduleOfRelaySource(source: string): ModuleName | undefined {
  if (wireStreamFile.test(source)) return 'wire: stream transformers';
  if (source.startsWith('libs/wire/')) return 'wire: other';
  const server = 'apps/server/src/';
  if (!source.startsWith(server)) return source.startsWith('apps/') || source.startsWith('libs/') ? 'other relay' : undefined;
  const inServer = source.slice(server.length);
  const file = inServer.slice(inServer.lastIndexOf('/') + 1);
  if (inServer.startsWith('pipeline/stream/')) return 'pump';
  if (/^pipeline\/(?:settle|usage-recorder|account-usage)[.-]/.test(inServer) || inServer.startsWith('billing/')) return 'accounting';
  if (inServer.startsWith('storage/') && file.includes('usage')) return 'usage log';
  if (inServer.startsWith('pipeline/')) return 'pipeline';
  if (inServer.startsWith('metrics/')) return 'metrics';
  if (inServer === 'logger.ts') return 'logging';
  if (inServer.startsWith('middleware/')) return 'middleware';
  if (/^(?:policy|auth|security)\//.test(inServer)) return 'policy/auth';
  if (inServer.startsWith('routes/')) return 'routes';
  if (inServer.startsWith('channels/')) return 'channels';
  return 'other relay';
}

/** What the classifier knows of one frame. */
export interface FrameOrigin {
  /** The frame's script URL (`file:///…`, `node:…`), empty for natives. */
  url: string;
  /** Its TypeScript source relative to the workspace root, when a source map gave one. */
  source: string | undefined;
  /** True when `url` is the relay bundle itself (its unmapped frames are still the relay's). */
  isRelayBundle: boolean;
}

/** The module of a frame with a script of its own (natives take their caller's; the table does that). */
export function moduleOfFrame({ url, source, isRelayBundle }: FrameOrigin): ModuleName {
  const mapped = source?.replace(/\\/g, '/');
  if (mapped !== undefined) {
    const pkg = packageOf(`/${mapped}`);
    if (pkg) return moduleOfPackage(pkg);
    const relay = moduleOfRelaySource(mapped);
    if (relay) return relay;
  }
  if (url.startsWith('node:')) return moduleOfNode(url.slice('node:'.length));
  const pkg = packageOf(url.replace(/\\/g, '/'));
  if (pkg) return moduleOfPackage(pkg);
  return isRelayBundle ? 'other relay' : 'other';
}
