/**
 * The typed client of the edgecrawl API (`hc<AppType>`: routes, inputs and answers as the server declares them),
 * where it is (EDGECRAWL_URL, EDGECRAWL_TOKEN), and the API's errors turned into CliErrors.
 */
import { hc } from 'hono/client';
import type { AppType } from '../src/api/app.ts';
import { CliError, isRecord, TransientError } from './errors.ts';

export interface Target {
  url: string;
  token: string;
}

/** The edgecrawl to talk to: EDGECRAWL_URL and EDGECRAWL_TOKEN, or the local one `npm start` runs. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): Target {
  return {
    url: (env.EDGECRAWL_URL || 'http://localhost:8787').replace(/\/+$/, ''),
    token: env.EDGECRAWL_TOKEN || 'dev-token',
  };
}

/** The client; `fetchImpl` stands in for fetch in tests. */
export function makeClient(target: Target, fetchImpl: typeof fetch = fetch) {
  // A request that gets no answer at all (connection refused, unknown host) says where it went and what to do.
  const reach: typeof fetch = async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new TransientError(
        `cannot reach edgecrawl at ${target.url}: ${cause}; start it with \`npm start\` or set EDGECRAWL_URL`,
      );
    }
  };
  return hc<AppType>(target.url, { headers: { Authorization: `Bearer ${target.token}` }, fetch: reach });
}

export type Client = ReturnType<typeof makeClient>;

interface Answer {
  ok: boolean;
  status: number;
  url: string;
  text(): Promise<string>;
}

/** The response once it is a success; an error answer becomes a CliError with the API's own message. */
export async function expectOk<R extends Answer>(pending: Promise<R>): Promise<R> {
  const res = await pending;
  if (res.ok) return res;
  const text = await res.text();
  const error = apiError(text);
  if (res.status === 401)
    throw new CliError(`the token was refused (401${error ? `: ${error.message}` : ''}): set EDGECRAWL_TOKEN`);
  const Failure = res.status >= 500 ? TransientError : CliError;
  if (error) throw new Failure(`${error.message} (${res.status} ${error.code})`);
  throw new Failure(`${res.status} from ${res.url}: ${text.slice(0, 200) || '(empty body)'}`);
}

/** `{error: {code, message}}`, as every error of the API is, or null for anything else. */
function apiError(text: string): { code: string; message: string } | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message } = body.error;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}
