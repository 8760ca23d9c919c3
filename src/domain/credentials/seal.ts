import { type Secrets, secretsSchema } from './access';

/**
 * Credentials are sealed with AES-256-GCM before anything stores them: the key derived (HKDF-SHA-256) from the
 * deployment's CREDENTIALS_KEY secret, a random 96-bit IV per seal. A sealed value reads `v1.<iv>.<ciphertext>`
 * (base64url); without the key it says nothing but its length.
 */

const VERSION = 'v1';
/** The shortest CREDENTIALS_KEY taken: 128 bits of base64 or hex, at least. */
export const MIN_KEY_LENGTH = 24;

const encoder = new TextEncoder();

/** The AES key of a CREDENTIALS_KEY secret. */
export async function sealingKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode('edgecrawl'), info: encoder.encode('credentials v1') },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A JSON value sealed with `key` (the secrets, a cookie jar). */
export async function sealJson(key: CryptoKey, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = encoder.encode(JSON.stringify(value));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain));
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(sealed)}`;
}

/** The secrets sealed with `key`. */
export const seal = (key: CryptoKey, secrets: Secrets): Promise<string> => sealJson(key, secrets);

/** The JSON value of a sealed one (unchecked: its reader parses it), or undefined: another key sealed it, or not one. */
export async function unsealJson(key: CryptoKey, sealed: string): Promise<unknown> {
  const [version, ivText, dataText] = sealed.split('.');
  const iv = fromBase64Url(ivText ?? '');
  const data = fromBase64Url(dataText ?? '');
  if (version !== VERSION || !iv || !data) return undefined;
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, key, data);
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    return undefined;
  }
}

/** The secrets of a sealed value, or null: another key sealed it (the secret changed), or it is not one. */
export async function unseal(key: CryptoKey, sealed: string): Promise<Secrets | null> {
  const parsed = secretsSchema.safeParse(await unsealJson(key, sealed));
  return parsed.success ? parsed.data : null;
}
