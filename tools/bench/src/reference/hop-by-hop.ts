// Headers that describe one connection, not the message: never forwarded by a proxy (RFC 9110 §7.6.1).
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

/** The end-to-end headers of a message, ready to forward. */
export function endToEndHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !hopByHop.has(name.toLowerCase())) forwarded[name] = value;
  }
  return forwarded;
}

/** The upstream origin (`http://127.0.0.1:4010`) and listening port from the environment. */
export function proxySettings(name: string): { upstream: string; port: number } {
  const upstream = process.env['UPSTREAM_ORIGIN'];
  const port = Number(process.env['PORT']);
  if (!upstream || !Number.isInteger(port) || port <= 0) {
    console.error(`${name}: set UPSTREAM_ORIGIN (http://host:port) and PORT`);
    process.exit(2);
  }
  return { upstream, port };
}
