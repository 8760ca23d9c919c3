import type { CrawlConfig, CrawlSettings } from './domain/crawl/settings';
import {
  type Access,
  type Secrets,
  type ShownCredentials,
  type StoredCredentials,
  seedHosts,
  splitCredentials,
} from './domain/credentials/access';
import { type JarCookie, jarSchema } from './domain/credentials/cookie-jar';
import type { Cookie, CredentialRequest } from './domain/credentials/fields';
import { MIN_KEY_LENGTH, seal, sealingKey, sealJson, unseal, unsealJson } from './domain/credentials/seal';

/**
 * Credentials at the edge of the bindings (docs/credentials.md): a crawl's request sealed with the deployment's
 * CREDENTIALS_KEY before it is stored, and opened by the consumers that fetch its pages. Nothing here logs or returns
 * a secret to a caller that shows things.
 */

/** No key is configured, or the one configured cannot open what was sealed (it changed). */
export class CredentialsError extends Error {}

/** What the deployment says to a crawl given credentials without a key to seal them with. */
export const NO_KEY = `credentials are stored sealed with the deployment's CREDENTIALS_KEY secret, which is not set (at least ${MIN_KEY_LENGTH} characters: \`openssl rand -base64 32 | npx wrangler secret put CREDENTIALS_KEY\`)`;

const keys = new Map<string, Promise<CryptoKey>>();

/** The sealing key of the deployment's CREDENTIALS_KEY, derived once per isolate; null when none is set. */
function keyOf(env: Pick<Env, 'CREDENTIALS_KEY'>): Promise<CryptoKey> | null {
  const secret = env.CREDENTIALS_KEY;
  if (!secret || secret.length < MIN_KEY_LENGTH) return null;
  let key = keys.get(secret);
  if (!key) {
    key = sealingKey(secret);
    keys.set(secret, key);
  }
  return key;
}

/** Whether the deployment can keep credentials (its CREDENTIALS_KEY is set). */
export const canSeal = (env: Pick<Env, 'CREDENTIALS_KEY'>): boolean => keyOf(env) !== null;

/** The fields of a request that are credentials, and the rest. */
export function credentialsOf<R extends CredentialRequest>(
  request: R,
): { credentials: CredentialRequest; rest: Omit<R, keyof CredentialRequest> } {
  const { headers, cookies, authenticate, credentialsFor, login, ...rest } = request;
  return { credentials: { headers, cookies, authenticate, credentialsFor, login }, rest };
}

/** A crawl's settings as they would be stored, credentials shown by name and not sealed (what a check answers). */
export function settingsView(settings: CrawlSettings): Omit<CrawlConfig, 'credentials'> & {
  credentials: ShownCredentials | null;
} {
  const { credentials, rest } = credentialsOf(settings);
  return { ...rest, credentials: splitCredentials(credentials, rest.seeds)?.shown ?? null };
}

/** A crawl's config as stored: its settings, with its credentials sealed (shown by name only). */
export async function configOf(env: Pick<Env, 'CREDENTIALS_KEY'>, settings: CrawlSettings): Promise<CrawlConfig> {
  const { credentials, rest } = credentialsOf(settings);
  const split = splitCredentials(credentials, rest.seeds);
  if (split === null) return { ...rest, credentials: null };
  return { ...rest, credentials: { ...split.shown, sealed: await sealWith(env, split.secrets) } };
}

async function sealWith(env: Pick<Env, 'CREDENTIALS_KEY'>, secrets: Secrets): Promise<string> {
  const key = keyOf(env);
  if (key === null) throw new CredentialsError(NO_KEY);
  return seal(await key, secrets);
}

/** Secrets opened in this isolate, by their sealed text (a crawl's never change); the oldest dropped past 64. */
const opened = new Map<string, Secrets>();

/** The secrets of stored credentials; a CredentialsError when they cannot be opened. */
export async function secretsOf(env: Pick<Env, 'CREDENTIALS_KEY'>, stored: StoredCredentials): Promise<Secrets> {
  const known = opened.get(stored.sealed);
  if (known) return known;
  const key = keyOf(env);
  if (key === null) throw new CredentialsError(`the crawl's credentials cannot be opened: ${NO_KEY}`);
  const secrets = await unseal(await key, stored.sealed);
  if (secrets === null)
    throw new CredentialsError(
      "the crawl's credentials cannot be opened with this deployment's CREDENTIALS_KEY (was it changed?)",
    );
  if (opened.size >= 64) opened.delete(opened.keys().next().value ?? '');
  opened.set(stored.sealed, secrets);
  return secrets;
}

/** What a crawl's requests are sent with (null: nothing); a CredentialsError when they cannot be opened. */
export async function accessOf(
  env: Pick<Env, 'CREDENTIALS_KEY'>,
  stored: StoredCredentials | null,
): Promise<Access | null> {
  if (stored === null) return null;
  const { headers, cookies, authenticate } = await secretsOf(env, stored);
  return { hosts: stored.hosts, headers, cookies, authenticate, loginUrl: stored.login?.url ?? null };
}

/** A scrape's access, from its request (never stored, so never sealed); null when it gives no credential. */
export function scrapeAccess(request: CredentialRequest, url: string): Access | null {
  const split = splitCredentials(request, [url]);
  if (split === null) return null;
  const { headers, cookies, authenticate } = split.secrets;
  return { hosts: request.credentialsFor ?? seedHosts([url]), headers, cookies, authenticate };
}

/** The credentials with the cookies a login ended with added (a cookie of the same name, domain and path replaced). */
export async function withCookies(
  env: Pick<Env, 'CREDENTIALS_KEY'>,
  stored: StoredCredentials,
  cookies: readonly Cookie[],
): Promise<StoredCredentials> {
  const secrets = await secretsOf(env, stored);
  const same = (a: Cookie, b: Cookie) => a.name === b.name && a.domain === b.domain && a.path === b.path;
  const kept = secrets.cookies.filter((old) => !cookies.some((c) => same(old, c)));
  const all = [...kept, ...cookies];
  const shown = all.map(({ name, domain, path, secure }) => ({ name, domain: domain ?? null, path, secure }));
  return { ...stored, cookies: shown, sealed: await sealWith(env, { ...secrets, cookies: all }) };
}

/** A crawl's cookie jar sealed as its credentials are (domain/credentials/cookie-jar.ts), to be kept in its object. */
export async function sealJar(env: Pick<Env, 'CREDENTIALS_KEY'>, jar: readonly JarCookie[]): Promise<string> {
  const key = keyOf(env);
  if (key === null) throw new CredentialsError(NO_KEY);
  return sealJson(await key, jar);
}

/** A sealed cookie jar's cookies; empty when it cannot be opened (the key changed: the crawl's own cookies remain). */
export async function openJar(env: Pick<Env, 'CREDENTIALS_KEY'>, sealed: string): Promise<JarCookie[]> {
  const key = keyOf(env);
  if (key === null) return [];
  const parsed = jarSchema.safeParse(await unsealJson(await key, sealed));
  return parsed.success ? parsed.data : [];
}
