import { z } from 'zod';
import { LEARN } from '../../domain/model/learn-limits';
import type { Ledger } from './ledger';

/**
 * A template's learned selectors, as JSON text (RPC carries text: the consumer validates it before use, with
 * fieldSpecSchema).
 */
export type TemplateState =
  | { state: 'learned'; fields: string }
  /** Pages of the template are read by the model, each a sample, until LEARN.samples are had. */
  | { state: 'sampling' }
  /** Another invocation is writing its selectors (since `since`). */
  | { state: 'learning' }
  /** The model's selectors did not agree with its answers: every page of the template goes to the model. */
  | { state: 'failed'; why: string };

/** A sample page the model read: its URL and the JSON it answered, as JSON text. */
export interface TemplateSample {
  url: string;
  json: string;
}

const samplesSchema = z.array(z.object({ url: z.string(), json: z.string() }));

interface TemplateRow extends Record<string, SqlStorageValue> {
  state: string;
  samples: string;
  fields: string | null;
  why: string | null;
  updated_at: number;
}

/** JSON of a sample's answer kept at most (a larger answer is not kept as a sample). */
const SAMPLE_JSON_CHARS = 16_384;

/**
 * The crawl's model step (formats json and summary, docs/models.md): how many stored pages wait for it (the crawl
 * completes when none does), the pages the model read against maxModelPages, and the learned selectors of each page
 * template (extract.json.learnSelectors) with the samples they are learned from.
 */
export class ModelWork {
  /** When the model step last reported (or this instance started): what a stall is measured from. */
  private heardAt = Date.now();

  constructor(private readonly ledger: Ledger) {}

  /** Pages sent to the model queue (counted with the chunk that stored them). */
  queued(n: number): void {
    this.ledger.bump('modeling', n);
    this.heardAt = Date.now();
  }

  /** Pages the model step has finished (answered or given up on). */
  done(n: number): void {
    this.ledger.bump('modeling', -Math.min(n, this.ledger.counters.modeling));
    this.heardAt = Date.now();
  }

  /**
   * Pages still counted as waiting though the model step has said nothing for `stallMs` (their messages were lost: a
   * consumer that died past the dead-letter queue's reach) stop being waited for, so the crawl can complete. Returns
   * how many.
   */
  giveUpIfStalled(now: number, stallMs: number): number {
    const waiting = this.ledger.counters.modeling;
    if (waiting === 0 || now - this.heardAt < stallMs) return 0;
    this.ledger.bump('modeling', -waiting);
    return waiting;
  }

  get waiting(): number {
    return this.ledger.counters.modeling;
  }

  /** Up to `n` model pages of the crawl's budget (maxModelPages; null: no cap): how many were granted. */
  take(n: number, max: number | null): number {
    const granted = max === null ? n : Math.max(0, Math.min(n, max - this.ledger.counters.modelPages));
    this.ledger.bump('modelPages', granted);
    return granted;
  }

  /** Each template's state; a template never seen is sampling. */
  templates(keys: readonly string[]): Record<string, TemplateState> {
    const now = Date.now();
    return Object.fromEntries(keys.map((key) => [key, this.stateOf(this.row(key), now)]));
  }

  private row(key: string): TemplateRow | undefined {
    return this.ledger.exec<TemplateRow>(
      'SELECT state, samples, fields, why, updated_at FROM templates WHERE template = ?',
      key,
    )[0];
  }

  private stateOf(row: TemplateRow | undefined, now: number): TemplateState {
    if (row === undefined) return { state: 'sampling' };
    if (row.state === 'learned' && row.fields !== null) return { state: 'learned', fields: row.fields };
    if (row.state === 'failed') return { state: 'failed', why: row.why ?? 'selectors disagreed with the model' };
    // A learner that never reported back (its invocation died) is given up on: the next sample learns again.
    if (row.state === 'learning' && now - row.updated_at < LEARN.learningTimeoutMs) return { state: 'learning' };
    return { state: 'sampling' };
  }

  /**
   * Adds a page the model read to its template's samples. Returns the samples to learn from when this one makes
   * enough (the template is then `learning`, so that one invocation writes its selectors), else null.
   */
  addSample(key: string, sample: TemplateSample): TemplateSample[] | null {
    const now = Date.now();
    const row = this.row(key);
    if (this.stateOf(row, now).state !== 'sampling') return null;
    const json = sample.json;
    const kept = samplesSchema.parse(JSON.parse(row?.samples ?? '[]')).filter((s) => s.url !== sample.url);
    const samples = json.length <= SAMPLE_JSON_CHARS ? [...kept, sample].slice(-LEARN.samples) : kept;
    const learn = samples.length >= LEARN.samples;
    this.ledger.exec(
      `INSERT INTO templates (template, state, samples, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (template) DO UPDATE SET state = excluded.state, samples = excluded.samples, updated_at = excluded.updated_at`,
      key,
      learn ? 'learning' : 'sampling',
      JSON.stringify(samples),
      now,
    );
    return learn ? samples : null;
  }

  /** What the learner came to: the fields to read the template's pages with, or why there are none. */
  learned(key: string, result: { fields: string } | { why: string }): void {
    const learned = 'fields' in result;
    this.ledger.exec(
      'UPDATE templates SET state = ?, fields = ?, why = ?, updated_at = ? WHERE template = ?',
      learned ? 'learned' : 'failed',
      learned ? result.fields : null,
      learned ? null : result.why.slice(0, 500),
      Date.now(),
      key,
    );
  }
}
