import { z } from 'zod';
import { fieldSpecSchema } from '../domain/extract/spec-schema';
import { decodeHtml } from '../domain/html/charset';
import { applyLearned } from '../domain/model/learned';
import { templateOf } from '../domain/model/template';
import type { JsonSchema } from '../domain/model/types';
import { ModelError } from '../domain/model/types';
import { log } from '../log';
import type { TemplateSample } from '../objects/crawl/model-work';
import { learnSelectors } from '../page/model/learn';
import { BodyReader } from '../storage/bodies';
import { modelPages } from '../storage/d1/model-pages';
import { countCalls, type Job, type Settled, type Step } from './model-step';

// Selectors written by the model (extract.json.learnSelectors, docs/models.md#selectors-written-by-the-model): pages
// of a template whose selectors were learned are read by them; the model's answers for a template still sampling
// become its samples, and the sample that makes enough has its template learned.

/** What the crawl keeps of a learned template: the fields, and the properties a page must give to be trusted. */
const learnedSchema = z.object({ fields: z.record(z.string(), fieldSpecSchema), expected: z.array(z.string()) });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The schema selectors are learned for, when the spec learns them: not with a summary (the model reads those pages anyway). */
function learningSchema(step: Step): JsonSchema | null {
  const json = step.spec.json;
  return json?.learnSelectors && json.schema && !step.ask.summary ? json.schema : null;
}

/**
 * Of `jobs`, those of a template with learned selectors that read them (json valid against the schema, every expected
 * property found); the rest go to the model. Also says which templates are still sampling.
 */
export async function readByLearned(
  step: Step,
  jobs: readonly Job[],
): Promise<{ read: Settled[]; rest: Job[]; sampling: Set<string> }> {
  const schema = learningSchema(step);
  if (!schema || jobs.length === 0) return { read: [], rest: [...jobs], sampling: new Set() };
  const stub = step.env.CRAWL.getByName(step.crawlId);
  const states = await stub.templates([...new Set(jobs.map((job) => templateOf(job.row.url)))]);
  const reader = new BodyReader(step.env.BODIES, step.meter);
  const read: Settled[] = [];
  const rest: Job[] = [];
  for (const job of jobs) {
    const state = states[templateOf(job.row.url)];
    const learned = state?.state === 'learned' ? learnedSchema.safeParse(parseJson(state.fields)) : null;
    const json = learned?.success ? await readPage(reader, job, learned.data, schema) : null;
    if (json) read.push({ job, answer: { json, errors: {} }, how: 'selectors', warnings: [] });
    else rest.push(job);
  }
  step.meter.modelWork({ selectorPages: read.length });
  const sampling = new Set(Object.entries(states).flatMap(([key, s]) => (s.state === 'sampling' ? [key] : [])));
  return { read, rest, sampling };
}

async function readPage(
  reader: BodyReader,
  job: Job,
  learned: z.output<typeof learnedSchema>,
  schema: JsonSchema,
): Promise<unknown> {
  if (!job.row.bodyAt) return null;
  const body = await reader.read(job.row.bodyAt);
  if (!body) return null;
  const html = decodeHtml(body, job.row.contentType).text;
  const applied = applyLearned(learned.fields, html, job.row.url, schema, learned.expected);
  return applied.ok ? applied.json : null;
}

/**
 * The model's valid answers for pages of templates still sampling, kept as their samples; a template with enough
 * samples has its selectors written now (one invocation: the crawl hands the samples to one caller). Failures are
 * logged: the template's pages keep going to the model.
 */
export async function learnFromAnswers(step: Step, settled: readonly Settled[], sampling: Set<string>): Promise<void> {
  const schema = learningSchema(step);
  if (!schema || sampling.size === 0) return;
  const stub = step.env.CRAWL.getByName(step.crawlId);
  for (const s of settled) {
    if (!('answer' in s) || s.how !== 'model' || s.answer?.json === undefined || s.answer.errors.json) continue;
    const template = templateOf(s.job.row.url);
    if (!sampling.has(template)) continue;
    const samples = await stub.addSample(template, { url: s.job.row.url, json: JSON.stringify(s.answer.json) });
    if (samples) await learnTemplate(step, schema, template, samples);
  }
}

async function learnTemplate(step: Step, schema: JsonSchema, template: string, samples: TemplateSample[]) {
  const stub = step.env.CRAWL.getByName(step.crawlId);
  try {
    const rows = await modelPages(
      step.env.DB,
      step.crawlId,
      samples.map((s) => s.url),
      step.meter,
    );
    const reader = new BodyReader(step.env.BODIES, step.meter);
    const withHtml = [];
    for (const sample of samples) {
      const row = rows.get(sample.url);
      const body = row?.bodyAt ? await reader.read(row.bodyAt) : null;
      if (row && body)
        withHtml.push({ url: sample.url, json: parseJson(sample.json), html: decodeHtml(body, row.contentType).text });
    }
    const learned = await learnSelectors(step.client, schema, withHtml);
    countCalls(step, learned);
    await stub.learned(
      template,
      learned.fields
        ? { fields: JSON.stringify({ fields: learned.fields, expected: learned.expected }) }
        : { why: learned.why ?? 'not learned' },
    );
    log('info', 'selectors learned', {
      crawlId: step.crawlId,
      template,
      ok: learned.fields !== null,
      agreement: learned.agreement,
    });
  } catch (error) {
    // Left `learning`: after LEARN.learningTimeoutMs the template is sampled, and learned, again.
    if (!(error instanceof ModelError)) throw error;
    log('warn', 'learning selectors failed for now', { crawlId: step.crawlId, template, error: error.message });
  }
}
