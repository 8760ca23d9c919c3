import { DurableObject } from 'cloudflare:workers';
import { z } from 'zod';
import { type ModelSlot, modelSlot } from '../domain/model/pace';
import { migrateSchema } from './sqlite-schema';

/** The one gate of the account (every model consumer invocation asks the same object). */
export const MODEL_GATE_NAME = 'account';

const nextFreeSchema = z.number().int().min(0);

/**
 * The account's model calls, spaced (domain/model/pace.ts): each call asks for its slot, then waits for its start. When
 * the next free one is a call's slot that lies beyond the caller's wait, nothing is booked. The next free time is one
 * row, written with each slot (a model call costs far more than a row), so a restarted gate keeps the spacing.
 */
export class ModelGate extends DurableObject<Env> {
  private nextFree = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    migrateSchema(sql, ['CREATE TABLE gate (k TEXT PRIMARY KEY, v INTEGER NOT NULL)']);
    const stored = sql.exec<{ v: number }>("SELECT v FROM gate WHERE k = 'next'").toArray()[0]?.v;
    if (stored !== undefined) this.nextFree = nextFreeSchema.parse(stored);
  }

  /** A slot for one call at `perMinute` calls a minute, if one is free within `maxWaitMs`. */
  slot(perMinute: number, maxWaitMs: number): ModelSlot {
    const next = modelSlot(this.nextFree, Date.now(), perMinute, maxWaitMs);
    if (next.nextFree !== this.nextFree) {
      this.nextFree = next.nextFree;
      this.ctx.storage.sql.exec("INSERT OR REPLACE INTO gate (k, v) VALUES ('next', ?)", next.nextFree);
    }
    return next.slot;
  }
}
