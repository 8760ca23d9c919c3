import type { UsageMeter } from '../domain/crawl/usage';
import type { ExtractSpec } from '../domain/extract/spec-schema';
import { modelCostUsd } from '../domain/model/prices';
import type { ModelAnswer, ModelAsk, ModelClient } from '../domain/model/types';
import type { Limit } from '../lib/limit';
import { modelPriceOverride } from '../page/model/client';
import type { AnswerHow, ModelInput, PreparedAsk } from '../page/model/page-answer';
import type { ModelTask } from '../queues/model';
import type { ModelSettings } from '../settings';
import type { StoredAnswer } from '../storage/d1/model-answers';
import type { ModelPage } from '../storage/d1/model-pages';
import type { StoredRecord } from '../storage/records';

// The model queue's consumer's parts (model.ts, model-learned.ts): a message's page, and what it came to.

export interface Item {
  message: Message;
  task: ModelTask;
}

/** A page the model step answers: its message, row, stored record and what the model reads of it. */
export interface Page extends Item {
  row: ModelPage;
  stored: StoredRecord;
  input: ModelInput;
}

/** A page with its request prepared: the request, its cache key, and whether its markdown was cut. */
export interface Job extends Page, PreparedAsk {}

/**
 * What a page came to: an answer (or none, with why) to record, its message retried later (a delivery used up), or
 * the page sent back in a new message, delayed (the account's pacing: no delivery used up).
 */
export type Settled =
  | { job: Page; answer: StoredAnswer | null; how: AnswerHow; warnings: string[]; fresh?: string }
  | { job: Page; retryInSeconds: number }
  | { job: Page; backInSeconds: number };

/** Deliveries of a page's model messages that counted: this one's, and those of the messages before it. */
export const deliveriesOf = (item: Item): number => item.message.attempts + item.task.d;

export interface Step {
  env: Env;
  crawlId: string;
  spec: ExtractSpec;
  ask: ModelAsk;
  client: ModelClient;
  settings: ModelSettings;
  limit: Limit;
  meter: UsageMeter;
}

/** A page's calls and tokens, priced at the model's price (domain/model/prices.ts), counted as the crawl's. */
export function countCalls(step: Step, answer: Pick<ModelAnswer, 'calls' | 'usage'>): void {
  const endpoint = step.client.provider === 'openai-compatible' ? step.env.LLM_BASE_URL : null;
  // A model the price table does not know, and no LLM_PRICE_IN/OUT: its tokens are counted, its dollars are not.
  const usd = modelCostUsd(step.client.model, answer.usage, modelPriceOverride(step.env), endpoint) ?? 0;
  step.meter.modelWork({
    calls: answer.calls,
    tokensIn: answer.usage.tokensIn,
    tokensOut: answer.usage.tokensOut,
    usd,
  });
}
