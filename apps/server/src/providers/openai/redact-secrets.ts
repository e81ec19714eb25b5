const KEY_LIKE = /\b(sk|key|pk|rk)-[A-Za-z0-9_*.-]{6,}/g;

/** Upstream messages can quote the key they were sent ("Incorrect API key provided: sk-ab***yz"). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_LIKE, '[redacted]');
}
