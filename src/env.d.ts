// Secrets are not in wrangler.toml, so `wrangler types` cannot see them.
interface Env {
  /** Bearer token required by every /v1 route except health. */
  API_TOKEN?: string;
  /**
   * Secret: the key of X-Firecrawl-Signature on deliveries of webhooks in Firecrawl's format that have no secret of
   * their own (docs/configuration.md). Unset: those are sent unsigned.
   */
  WEBHOOK_SECRET?: string;
  /**
   * Secret: the key crawls' and schedules' credentials (headers, cookies, basic credentials, a login's steps) are
   * sealed with (docs/credentials.md). Unset: crawls and schedules given credentials are refused; scrapes keep none.
   */
  CREDENTIALS_KEY?: string;
  /** Tests only (vitest.config.ts): every JSON answer is checked against its route's documented schema. */
  CHECK_RESPONSES?: string;
}

// The language model (docs/models.md): unset unless configured, so not in wrangler.toml's [vars].
interface Env {
  /** An OpenAI-compatible chat-completions endpoint (e.g. http://127.0.0.1:11434/v1); with LLM_MODEL it wins over AI. */
  LLM_BASE_URL?: string;
  LLM_MODEL?: string;
  /** Secret: sent as `Authorization: Bearer` to LLM_BASE_URL, and nowhere else. */
  LLM_API_KEY?: string;
  /** The endpoint's price, US dollars per million input and output tokens, when the price table does not know its model. */
  LLM_PRICE_IN?: string;
  LLM_PRICE_OUT?: string;
  /** Workers AI (the [ai] binding): the model (a default otherwise) and an AI Gateway's id. */
  AI_MODEL?: string;
  /** "off": the AI binding is not used (wrangler dev --local cannot run Workers AI; npm start sets it). */
  WORKERS_AI?: string;
  AI_GATEWAY_ID?: string;
}

// Firecrawl's API (docs/firecrawl.md).
interface Env {
  /** Documents a page of a crawl's status answers at most (then `next`); 100 unless set. */
  FIRECRAWL_PAGE_SIZE?: string;
}
