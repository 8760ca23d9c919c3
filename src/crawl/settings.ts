/** Runtime settings from the Worker's vars, with defaults and bounds. */
export interface Settings {
  allowPrivateNetworks: boolean;
  userAgent: string;
  fetchTimeoutMs: number;
  maxBodyBytes: number;
  maxAttempts: number;
}

function intVar(value: string | undefined, fallback: number, min: number, max: number): number {
  const n = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isInteger(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

export function readSettings(env: Env): Settings {
  return {
    allowPrivateNetworks: env.ALLOW_PRIVATE_NETWORKS?.trim().toLowerCase() === 'true',
    userAgent: env.USER_AGENT?.trim() || 'edgecrawl/0.1',
    fetchTimeoutMs: intVar(env.FETCH_TIMEOUT_MS, 15_000, 100, 120_000),
    maxBodyBytes: intVar(env.MAX_BODY_BYTES, 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    maxAttempts: intVar(env.MAX_ATTEMPTS, 4, 1, 20),
  };
}
