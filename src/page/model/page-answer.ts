import { asksModel } from '../../domain/extract/spec';
import type { ExtractSpec } from '../../domain/extract/spec-schema';
import { answerKey } from '../../domain/model/cache-key';
import { DEFAULT_MODEL_BUDGET, pageRequest } from '../../domain/model/prompt';
import type { ModelAnswer, ModelAsk, ModelClient, ModelRequest } from '../../domain/model/types';
import type { StoredAnswer } from '../../storage/d1/model-answers';
import type { StoredRecord } from '../../storage/records';

/** What a spec asks of the model (formats json and summary), or null: nothing. */
export function modelAskOf(spec: ExtractSpec | null | undefined): ModelAsk | null {
  if (!spec || !asksModel(spec.formats)) return null;
  const json = spec.formats.includes('json') && spec.json ? spec.json : null;
  return {
    json: json ? { schema: json.schema ?? null, prompt: json.prompt ?? null } : null,
    summary: spec.formats.includes('summary') ? { prompt: spec.summary?.prompt ?? null } : null,
  };
}

/** A page as the model reads it: its URL, title and main content as markdown (from its stored record). */
export interface ModelInput {
  url: string;
  title: string | null;
  markdown: string;
}

/** What a page asks of the model, prepared once: the request, its cache key, and how its markdown was cut to fit. */
export interface PreparedAsk {
  request: ModelRequest;
  /** The same request to the same model: the same key (domain/model/cache-key.ts). */
  key: string;
  /** A warning when the markdown was cut to MODEL_INPUT_TOKENS (its head kept), else null. */
  cutWarning: string | null;
}

/** The request a page makes of the model (the head of its markdown within `inputTokens`), keyed for the cache. */
export async function prepareAsk(
  client: ModelClient,
  ask: ModelAsk,
  input: ModelInput,
  inputTokens: number,
): Promise<PreparedAsk> {
  const { request, cut } = pageRequest(ask, input, { ...DEFAULT_MODEL_BUDGET, inputTokens });
  const cutWarning = cut
    ? `model: the page's markdown was cut to its first ${cut.keptChars} of ${cut.totalChars} characters (MODEL_INPUT_TOKENS)`
    : null;
  return { request, key: await answerKey(client, request), cutWarning };
}

/** What is kept of a page's answer (storage/d1/model-answers.ts), and recorded: its parts and why one is missing. */
export function keptAnswer({ json, summary, errors }: ModelAnswer): StoredAnswer {
  return { errors, ...(json !== undefined ? { json } : {}), ...(summary !== undefined ? { summary } : {}) };
}

/** The model step's warnings start so (extraction's never do): a record answered again drops the earlier ones. */
const MODEL_WARNING = /^(model|json|summary): /;

/** How a page's answer was had. */
export type AnswerHow = 'model' | 'cached' | 'selectors' | 'none';

/**
 * The page's record with the model's answer: `json` and `summary` set, `fieldErrors.json` (and a warning) saying why
 * one could not be had, which model answered and how; the markdown dropped when the spec did not ask for it (it was
 * made for the model) and the model answered.
 */
export function withAnswer(
  stored: StoredRecord,
  spec: ExtractSpec,
  result: { answer: StoredAnswer | null; how: AnswerHow; model: string; warnings: readonly string[] },
): StoredRecord {
  const { answer, how, model, warnings } = result;
  const errors = answer?.errors ?? {};
  const { markdown, ...others } = stored.outputs;
  // Kept when no answer was had: a schedule's next run keeps this record for a page answered 304, and its model step
  // reads the markdown from it then.
  const keep = spec.formats.includes('markdown') || how === 'none';
  const outputs = keep && markdown !== undefined ? { ...others, markdown } : others;
  // What an earlier model step said of a record kept (a schedule's 304) goes: this answer replaces it.
  const earlier = stored.record.warnings.filter((w) => !MODEL_WARNING.test(w));
  const said = [
    ...warnings.map((w) => (MODEL_WARNING.test(w) ? w : `model: ${w}`)),
    ...(errors.json ? [`json: ${errors.json}`] : []),
    ...(errors.summary ? [`summary: ${errors.summary}`] : []),
  ];
  const record = {
    ...stored.record,
    ...(answer?.json !== undefined ? { json: answer.json } : {}),
    ...(answer?.summary !== undefined ? { summary: answer.summary } : {}),
    ...(errors.json ? { fieldErrors: { ...stored.record.fieldErrors, json: errors.json } } : {}),
    model: { name: model, answer: how },
    warnings: [...earlier, ...said],
  };
  return { record, outputs };
}
