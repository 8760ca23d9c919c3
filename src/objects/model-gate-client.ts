import type { UsageMeter } from '../domain/crawl/usage';
import { type ModelClient, ModelError } from '../domain/model/types';
import { sleep } from '../lib/sleep';
import { MODEL_GATE_NAME } from './model-gate';

/**
 * The longest a call waits for its slot on the account's spacing (the invocation holds a MODEL_CONCURRENCY place
 * meanwhile); a later slot sends the page back to the model queue, delayed to it, instead.
 */
const SLOT_WAIT_MS = 15_000;

/**
 * `client` with each call spaced on the account's gate (model-gate.ts, MODEL_REQUESTS_PER_MINUTE), the model step's
 * and a scrape's alike: a slot is asked for (a Durable Object request, counted by `meter`: the crawl's) and waited
 * for; none soon enough, or the gate out of reach, is a `paced` ModelError (never sent: a page of the model step goes
 * back without using up a delivery).
 */
export function pacedClient(client: ModelClient, env: Env, perMinute: number, meter?: UsageMeter): ModelClient {
  const gate = env.MODEL_GATE.getByName(MODEL_GATE_NAME);
  return {
    provider: client.provider,
    model: client.model,
    async complete(request) {
      meter?.count('durableObjectRequests');
      const slot = await gate.slot(perMinute, SLOT_WAIT_MS).catch((error: unknown) => {
        throw new ModelError('paced', `the model gate could not be reached: ${String(error)}`, 1000);
      });
      const wait = Math.max(0, slot.startAt - Date.now());
      if (slot.kind === 'later')
        throw new ModelError('paced', `the account's model calls are spaced (${perMinute} a minute)`, wait);
      if (wait > 0) await sleep(wait);
      return client.complete(request);
    },
  };
}
