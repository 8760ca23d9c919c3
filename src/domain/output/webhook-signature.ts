/**
 * Webhook signatures (Firecrawl's format has its own, below): HMAC-SHA256 of `<timestamp>.<body>` with the crawl's webhook secret, sent as
 * `Edgecrawl-Signature: t=<unix seconds>,v1=<hex>`. A receiver recomputes it over the raw body and
 * rejects old timestamps (replays); verifyWebhook is that check, for receivers written in TypeScript.
 */
const encoder = new TextEncoder();

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function signWebhook(secret: string, body: string, timestampSeconds: number): Promise<string> {
  return `t=${timestampSeconds},v1=${await hmacHex(secret, `${timestampSeconds}.${body}`)}`;
}

/** Firecrawl's X-Firecrawl-Signature: `sha256=<hex HMAC-SHA256 of the exact body>`, no timestamp. */
export async function signFirecrawlWebhook(secret: string, body: string): Promise<string> {
  return `sha256=${await hmacHex(secret, body)}`;
}

/** Compares in time that does not depend on where the strings differ. */
function equalConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** True when `header` signs `body` with `secret` and its timestamp is within `toleranceSeconds` of now. */
export async function verifyWebhook(
  secret: string,
  body: string,
  header: string | null,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): Promise<boolean> {
  const parts = new Map((header ?? '').split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isInteger(t) || !v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  return equalConstantTime(await hmacHex(secret, `${t}.${body}`), v1);
}
