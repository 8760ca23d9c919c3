import { z } from 'zod';
import type { UsageMeter } from '../../domain/crawl/usage';
import { parseJsonOrNull } from '../../domain/util/json';
import { chunkedIn, jsonRowsInsert } from './sql';

/** A model's answer as kept for reuse: what the page got (json, summary, why not) and what it cost when asked. */
const storedAnswerSchema = z.object({
  json: z.unknown().optional(),
  summary: z.string().optional(),
  errors: z.object({ json: z.string().optional(), summary: z.string().optional() }),
});
export type StoredAnswer = z.output<typeof storedAnswerSchema>;

/** An answer larger than this is not kept (a recrawl asks again). */
const MAX_ANSWER_CHARS = 64 * 1024;

/** The answers kept under `keys` (answerKey: the same request to the same model), by key. */
export async function cachedAnswers(
  db: D1Database,
  keys: readonly string[],
  meter?: UsageMeter,
): Promise<Map<string, StoredAnswer>> {
  const found = new Map<string, StoredAnswer>();
  if (keys.length === 0) return found;
  const statements = chunkedIn(db, 'SELECT key, answer FROM model_answers WHERE key IN ({in})', [], [...new Set(keys)]);
  const results = await db.batch<{ key: string; answer: string }>(statements);
  meter?.d1(results);
  for (const row of results.flatMap((r) => r.results)) {
    const parsed = storedAnswerSchema.safeParse(parseJsonOrNull(row.answer));
    if (parsed.success) found.set(row.key, parsed.data);
  }
  return found;
}

/**
 * Keeps answers for reuse, one row each (an answer already kept stays). An answer that failed its schema twice is kept
 * too: the same request to the same model at temperature 0 would fail again, and a recrawl must not pay for it twice.
 * (Rate limits and outages are not answers: never kept.)
 */
export async function keepAnswers(
  db: D1Database,
  answers: readonly { key: string; model: string; answer: StoredAnswer }[],
  meter?: UsageMeter,
): Promise<void> {
  const now = Date.now();
  const rows = answers.flatMap(({ key, model, answer }) => {
    const text = JSON.stringify(answer);
    return text.length <= MAX_ANSWER_CHARS ? [[key, model, text, now]] : [];
  });
  if (rows.length === 0) return;
  const statements = jsonRowsInsert(
    db,
    'INSERT INTO model_answers (key, model, answer, created_at)',
    4,
    'ON CONFLICT (key) DO NOTHING',
    rows,
  );
  meter?.d1(await db.batch(statements));
}

/** Deletes answers kept since before `before` (epoch ms), at most `limit`: the cron's housekeeping. */
export async function expireAnswers(db: D1Database, before: number, limit: number): Promise<number> {
  const result = await db
    .prepare('DELETE FROM model_answers WHERE key IN (SELECT key FROM model_answers WHERE created_at < ? LIMIT ?)')
    .bind(before, limit)
    .run();
  return result.meta.changes ?? 0;
}
