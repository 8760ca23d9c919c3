import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/domain/output/webhook-signature';

/** HMAC-SHA256 hex computed here, independently of the module under test. */
async function hmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return Array.from(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message))), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

describe('webhook signatures', () => {
  const secret = 'a-secret-of-some-length';
  const body = '{"id":"x","type":"crawl.completed"}';

  it('sign t=<seconds>,v1=HMAC-SHA256(secret, "<t>.<body>")', async () => {
    expect(await signWebhook(secret, body, 1_800_000_000)).toBe(
      `t=1800000000,v1=${await hmac(secret, `1800000000.${body}`)}`,
    );
    // RFC 4231 test case 2, to pin the primitive: key "Jefe".
    expect(await hmac('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('verify accepts its own signature and refuses tampering, other secrets, old timestamps and junk', async () => {
    const now = 1_800_000_000;
    const header = await signWebhook(secret, body, now);
    expect(await verifyWebhook(secret, body, header, now)).toBe(true);
    expect(await verifyWebhook(secret, body, header, now + 299)).toBe(true);
    expect(await verifyWebhook(secret, body, header, now + 301)).toBe(false);
    expect(await verifyWebhook(secret, `${body} `, header, now)).toBe(false);
    expect(await verifyWebhook(`${secret}x`, body, header, now)).toBe(false);
    expect(await verifyWebhook(secret, body, header.replace(/t=\d+/, `t=${now + 1}`), now)).toBe(false);
    for (const junk of [null, '', 'v1=abc', 't=x,v1=abc', `t=${now}`])
      expect(await verifyWebhook(secret, body, junk, now), String(junk)).toBe(false);
  });
});
