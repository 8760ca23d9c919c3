import { site } from './api';
import { checkWebhookBody } from './firecrawl-api';

/** A delivery the test site's receiver got (POST /__hook/<ns>): its headers (names in lower case), body and answer. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  status: number;
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** HMAC-SHA256 of `message` with `secret`, in hex, computed here as a receiver would. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)));
}

/** The deliveries so far; each in Firecrawl's format is checked against Firecrawl's webhooks document. */
export async function received(ns: string): Promise<Received[]> {
  const got = (await (await fetch(`${site()}/__hook/${ns}`)).json()) as Received[];
  for (const delivery of got) checkWebhookBody(delivery.body);
  return got;
}

/** The deliveries once `count` of them were answered 204. */
export async function waitForDeliveries(ns: string, count: number, timeoutMs = 30_000): Promise<Received[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await received(ns);
    if (got.filter((r) => r.status === 204).length >= count) return got;
    if (Date.now() > deadline)
      throw new Error(`${got.length} deliveries, waiting for ${count}: ${JSON.stringify(got.map((r) => r.body))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
