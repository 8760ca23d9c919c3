import { type OutcomeCode, parseOutcomeCode } from '../../domain/crawl/outcome-codes';
import { reasonKind } from '../../domain/crawl/reasons';
import type { UsageMeter } from '../../domain/crawl/usage';
import { chunkedIn, jsonRowsInsert, perInterval } from './sql';

export type ErrorOutcome = 'failed' | 'skipped';

export interface ErrorView {
  url: string;
  outcome: ErrorOutcome;
  reason: string;
  code: OutcomeCode;
  attempts: number;
  httpStatus: number | null;
  at: string;
}

/** A URL that ended failed or skipped, as recorded. */
export interface ErrorRecord {
  url: string;
  outcome: ErrorOutcome;
  /** Why, in words for people. */
  reason: string;
  /** Why, as one code (domain/crawl/outcome-codes.ts): what /stats groups by. */
  code: OutcomeCode;
  attempts: number;
  httpStatus: number | null;
}

interface RawErrorRow {
  url: string;
  outcome: ErrorOutcome;
  reason: string;
  code: string | null;
  attempts: number;
  http_status: number | null;
  at: number;
}

/** URLs of a crawl that ended failed or skipped, in URL order (keyset pagination). */
export async function listErrors(
  db: D1Database,
  crawlId: string,
  limit: number,
  afterUrl: string | null,
  outcome: ErrorOutcome | null,
): Promise<ErrorView[]> {
  const { results } = await db
    .prepare(
      `SELECT url, outcome, reason, code, attempts, http_status, at FROM errors
       WHERE crawl_id = ? AND url > ? AND (? IS NULL OR outcome = ?) ORDER BY url LIMIT ?`,
    )
    .bind(crawlId, afterUrl ?? '', outcome, outcome, limit)
    .all<RawErrorRow>();
  return results.map((r) => ({
    url: r.url,
    outcome: r.outcome,
    reason: r.reason,
    code: parseOutcomeCode(r.code),
    attempts: r.attempts,
    httpStatus: r.http_status,
    at: new Date(r.at).toISOString(),
  }));
}

/** Upserts keyed by (crawl, url): a URL that fails again, or a redelivered message, rewrites its row. */
export function errorUpserts(
  db: D1Database,
  crawlId: string,
  errors: readonly ErrorRecord[],
  at: number,
): D1PreparedStatement[] {
  return jsonRowsInsert(
    db,
    'INSERT INTO errors (crawl_id, url, outcome, reason, code, attempts, http_status, at)',
    8,
    `ON CONFLICT (crawl_id, url) DO UPDATE SET outcome = excluded.outcome, reason = excluded.reason,
     code = excluded.code, attempts = excluded.attempts, http_status = excluded.http_status, at = excluded.at`,
    errors.map((e) => [crawlId, e.url, e.outcome, e.reason, e.code, e.attempts, e.httpStatus, at]),
  );
}

export async function recordErrors(
  db: D1Database,
  crawlId: string,
  errors: readonly ErrorRecord[],
  at: number,
  meter?: UsageMeter,
): Promise<void> {
  const statements = errorUpserts(db, crawlId, errors, at);
  if (statements.length === 0) return;
  const written = await db.batch(statements);
  meter?.d1(written);
}

/** Forgets the failures of URLs that are being tried again. */
export async function deleteErrors(db: D1Database, crawlId: string, urls: readonly string[]): Promise<void> {
  const statements = chunkedIn(db, 'DELETE FROM errors WHERE crawl_id = ? AND url IN ({in})', [crawlId], urls);
  if (statements.length > 0) await db.batch(statements);
}

// ---- aggregates for the stats endpoint and the dashboard ----

/** URLs failed per interval (interval start, epoch ms). */
export async function failedSeries(
  db: D1Database,
  crawlId: string,
  seconds: number,
): Promise<{ at: number; failed: number }[]> {
  const from = "errors WHERE crawl_id = ? AND outcome = 'failed'";
  return (await perInterval(db, { column: 'at', from }, crawlId, seconds)).map(({ at, n }) => ({ at, failed: n }));
}

export interface ReasonCount {
  outcome: ErrorOutcome;
  reason: string;
  count: number;
}

/** Errors by exact reason, most first. */
export async function reasonBreakdown(db: D1Database, crawlId: string, limit: number): Promise<ReasonCount[]> {
  const { results } = await db
    .prepare(
      'SELECT outcome, reason, COUNT(*) AS count FROM errors WHERE crawl_id = ? GROUP BY outcome, reason ORDER BY count DESC, reason LIMIT ?',
    )
    .bind(crawlId, limit)
    .all<ReasonCount>();
  return results;
}

/** URLs a trap rule kept out, by reason (`trap: <rule> (<pattern>)`), most first. */
export async function trapBreakdown(
  db: D1Database,
  crawlId: string,
  limit: number,
): Promise<{ reason: string; count: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT reason, COUNT(*) AS count FROM errors WHERE crawl_id = ? AND code = 'trap'
       GROUP BY reason ORDER BY count DESC, reason LIMIT ?`,
    )
    .bind(crawlId, limit)
    .all<{ reason: string; count: number }>();
  return results;
}

/** reasonHead (domain/crawl/reasons) in SQLite: the reason cut before its first ' to ' or ': ', so its groups are few. */
const REASON_HEAD = `CASE
  WHEN instr(reason, ' to ') > 0 AND (instr(reason, ': ') = 0 OR instr(reason, ' to ') < instr(reason, ': ')) THEN substr(reason, 1, instr(reason, ' to ') - 1)
  WHEN instr(reason, ': ') > 0 THEN substr(reason, 1, instr(reason, ': ') - 1)
  ELSE reason END`;

/** Errors by kind of reason ("redirect", "http 404", "blocked by robots.txt", ...), most first. */
export async function reasonKindBreakdown(
  db: D1Database,
  crawlId: string,
): Promise<{ outcome: ErrorOutcome; kind: string; count: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT outcome, ${REASON_HEAD} AS head, COUNT(*) AS count FROM errors WHERE crawl_id = ? GROUP BY outcome, head`,
    )
    .bind(crawlId)
    .all<{ outcome: ErrorOutcome; head: string; count: number }>();
  const kinds = new Map<string, { outcome: ErrorOutcome; kind: string; count: number }>();
  for (const { outcome, head, count } of results) {
    const kind = reasonKind(head);
    const entry = kinds.get(`${outcome} ${kind}`) ?? { outcome, kind, count: 0 };
    entry.count += count;
    kinds.set(`${outcome} ${kind}`, entry);
  }
  return [...kinds.values()].sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
}

export interface CodeCount {
  outcome: ErrorOutcome;
  code: OutcomeCode;
  count: number;
}

/**
 * Errors by code (domain/crawl/outcome-codes.ts), most first: what a machine groups by, the same whatever the words
 * of the reasons. A row without a code (written by a Worker older than migrations/0013) counts as 'other'.
 */
export async function codeBreakdown(db: D1Database, crawlId: string): Promise<CodeCount[]> {
  const { results } = await db
    .prepare(
      `SELECT outcome, code, COUNT(*) AS count FROM errors WHERE crawl_id = ? GROUP BY outcome, code
       ORDER BY count DESC, code, outcome`,
    )
    .bind(crawlId)
    .all<{ outcome: ErrorOutcome; code: string | null; count: number }>();
  const codes = new Map<string, CodeCount>();
  for (const { outcome, code, count } of results) {
    const parsed = parseOutcomeCode(code);
    const entry = codes.get(`${outcome} ${parsed}`) ?? { outcome, code: parsed, count: 0 };
    entry.count += count;
    codes.set(`${outcome} ${parsed}`, entry);
  }
  return [...codes.values()].sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}

/** Codes of URLs the site did not let a crawl with credentials in, or that its credentials kept from being fetched. */
const ACCESS_CODES = [
  'auth_required',
  'credentials_refused',
  'login_redirect',
  'login_failed',
  'credentials_unavailable',
] as const;

/** A crawl's failures by access code (domain/credentials/outcomes.ts), each with one of its reasons. */
export async function accessFailures(
  db: D1Database,
  crawlId: string,
): Promise<{ code: (typeof ACCESS_CODES)[number]; count: number; reason: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT code, COUNT(*) AS count, MIN(reason) AS reason FROM errors
       WHERE crawl_id = ? AND code IN (${ACCESS_CODES.map(() => '?').join(', ')}) GROUP BY code`,
    )
    .bind(crawlId, ...ACCESS_CODES)
    .all<{ code: string; count: number; reason: string | null }>();
  return results.flatMap(({ code, count, reason }) => {
    const known = ACCESS_CODES.find((c) => c === code);
    return known ? [{ code: known, count, reason: reason ?? '' }] : [];
  });
}
