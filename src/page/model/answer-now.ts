import type { ExtractSpec } from '../../domain/extract/spec-schema';
import { type ModelAnswer, type ModelClient, ModelError } from '../../domain/model/types';
import { sleep } from '../../lib/sleep';
import { readModelSettings } from '../../settings';
import { cachedAnswers, keepAnswers } from '../../storage/d1/model-answers';
import type { StoredRecord } from '../../storage/records';
import { askModel } from './ask';
import { modelClientOf } from './client';
import { keptAnswer, modelAskOf, prepareAsk, withAnswer } from './page-answer';

/** Tries of a call answered 429 or 5xx within one request (a scrape waits for its answer), and the most it waits. */
const TRIES = 3;
const MAX_WAIT_MS = 5_000;

/**
 * A page's record answered by the model now (POST /v1/scrape): the cache's answer for the same request if there is
 * one, else the model's (a 429 or 5xx tried again twice, briefly); the answer kept for reuse. Without a model, or when
 * the model cannot answer, the record says why (fieldErrors.json, warnings). The record as it was when the spec asks
 * nothing of the model. `pace`: the caller's spacing of the account's calls (objects/model-gate-client.ts).
 */
export async function answerNow(
  env: Env,
  spec: ExtractSpec,
  page: { url: string; title: string | null },
  stored: StoredRecord,
  pace: (client: ModelClient) => ModelClient = (client) => client,
): Promise<StoredRecord> {
  const ask = modelAskOf(spec);
  if (!ask) return stored;
  const configured = modelClientOf(env);
  const client = configured ? pace(configured) : null;
  if (!client)
    return withAnswer(stored, spec, {
      answer: null,
      how: 'none',
      model: 'none',
      warnings: ['no language model is configured'],
    });
  const settings = readModelSettings(env);
  const input = { ...page, markdown: stored.outputs.markdown ?? stored.outputs.text ?? '' };
  const { request, key, cutWarning } = await prepareAsk(client, ask, input, settings.inputTokens);
  const cut = cutWarning ? [cutWarning] : [];
  const cached = (await cachedAnswers(env.DB, [key])).get(key);
  if (cached) return withAnswer(stored, spec, { answer: cached, how: 'cached', model: client.model, warnings: cut });
  const asked = await askWithRetries(() => askModel(client, ask, request));
  if (asked.kind === 'failed')
    return withAnswer(stored, spec, { answer: null, how: 'none', model: client.model, warnings: [asked.why] });
  const answer = keptAnswer(asked.answer);
  await keepAnswers(env.DB, [{ key, model: client.model, answer }]).catch(() => undefined);
  return withAnswer(stored, spec, { answer, how: 'model', model: client.model, warnings: cut });
}

async function askWithRetries(
  ask: () => Promise<ModelAnswer>,
): Promise<{ kind: 'answered'; answer: ModelAnswer } | { kind: 'failed'; why: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { kind: 'answered', answer: await ask() };
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      if (error.kind === 'refused' || attempt >= TRIES)
        return { kind: 'failed', why: `the model could not answer (${error.kind}): ${error.message}` };
      await sleep(Math.min(MAX_WAIT_MS, error.retryAfterMs ?? 1000 * attempt));
    }
  }
}
