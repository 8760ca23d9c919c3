// Secrets are not in wrangler.toml, so `wrangler types` cannot see them.
interface Env {
  /** Bearer token required by every /v1 route except health. */
  API_TOKEN?: string;
  /** Tests only (vitest.config.ts): every JSON answer is checked against its route's documented schema. */
  CHECK_RESPONSES?: string;
}
