import { asksModel } from '../../domain/extract/spec';
import type { ExtractSpec } from '../../domain/extract/spec-schema';
import { answerKey } from '../../domain/model/cache-key';
import { modelRequest } from '../../domain/model/prompt';
import type { ModelAsk, ModelClient, ModelRequest } from '../../domain/model/types';
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

/** The request a page makes of the model, and its cache key (the same request to the same model: the same key). */
export async function prepareAsk(
  client: ModelClient,
  ask: ModelAsk,
  input: ModelInput,
  inputTokens: number,
): Promise<{ request: ModelRequest; key: string }> {
  const request = modelRequest(ask, input, { inputTokens, outputTokens: OUTPUT_TOKENS });
  return { request, key: await answerKey(client, request) };
}

/** Tokens the model may answer with (a JSON object of a page's facts, a summary). */
const OUTPUT_TOKENS = 1024;

/** How a page's answer was had. */
export type AnswerHow = 'model' | 'cached' | 'selectors' | 'none';

/**
 * The page's record with the model's answer: `json` and `summary` set, `fieldErrors.json` (and a warning) saying why
 * one could not be had, which model answered and how; the markdown dropped when the spec did not ask for it (it was
 * made for the model).
 */
export function withAnswer(
  stored: StoredRecord,
  spec: ExtractSpec,
  result: { answer: StoredAnswer | null; how: AnswerHow; model: string; warnings: readonly string[] },
): StoredRecord {
  const { answer, how, model, warnings } = result;
  const errors = answer?.errors ?? {};
  const { markdown, ...others } = stored.outputs;
  const outputs = spec.formats.includes('markdown') && markdown !== undefined ? { ...others, markdown } : others;
  const said = [
    ...warnings,
    ...(errors.json ? [`json: ${errors.json}`] : []),
    ...(errors.summary ? [`summary: ${errors.summary}`] : []),
  ];
  const record = {
    ...stored.record,
    ...(answer?.json !== undefined ? { json: answer.json } : {}),
    ...(answer?.summary !== undefined ? { summary: answer.summary } : {}),
    ...(errors.json ? { fieldErrors: { ...stored.record.fieldErrors, json: errors.json } } : {}),
    model: { name: model, answer: how },
    warnings: [...stored.record.warnings, ...said],
  };
  return { record, outputs };
}
