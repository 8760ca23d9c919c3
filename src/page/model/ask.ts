import { readAnswer, repairMessages } from '../../domain/model/answer';
import { unwrapAnswer } from '../../domain/model/answer-schema';
import {
  type ModelAnswer,
  type ModelAsk,
  type ModelClient,
  ModelError,
  type ModelReply,
  type ModelRequest,
  type ModelUsage,
} from '../../domain/model/types';

/**
 * What the model makes of a page's request (page-answer.ts prepareAsk, from domain/model/prompt.ts): one call, its
 * answer read against the schema (answer.ts) and, when it is not valid, asked again once with what was wrong. Never
 * throws for what the model said: an answer invalid twice, or a request the provider refused, is told in `errors`. A
 * ModelError rate_limited or unavailable is thrown for the caller to try the page later (the tokens of a first call
 * then go uncounted). Whether the answer was had before is the caller's to know (storage/d1/model-answers.ts).
 */
export async function askModel(client: ModelClient, ask: ModelAsk, request: ModelRequest): Promise<ModelAnswer> {
  if (!ask.json && !ask.summary) return { errors: {}, calls: 0, usage: { tokensIn: 0, tokensOut: 0 } };
  return answerOf(client, ask, request);
}

interface Tally {
  calls: number;
  usage: ModelUsage;
}

async function answerOf(client: ModelClient, ask: ModelAsk, request: ModelRequest): Promise<ModelAnswer> {
  const tally: Tally = { calls: 0, usage: { tokensIn: 0, tokensOut: 0 } };
  const first = await call(client, request, tally);
  if (typeof first === 'string') return failed(ask, first, tally);
  let read = readAnswer(first.text, request.schema);
  if (!read.ok) {
    const repair = { ...request, messages: repairMessages(request, first.text, read.error) };
    const second = await call(client, repair, tally);
    if (typeof second === 'string') return failed(ask, second, tally);
    read = readAnswer(second.text, request.schema);
    if (!read.ok) {
      const what = request.schema ? 'did not satisfy the schema' : 'was not a JSON object';
      return withSummary(ask, second.text, failed(ask, `the model's answer ${what} twice: ${read.error}`, tally));
    }
  }
  return { ...unwrapAnswer(ask, read.value), errors: {}, ...tally };
}

/** One call counted in `tally`: the reply, or why the provider refused it; rate_limited and unavailable are thrown. */
async function call(client: ModelClient, request: ModelRequest, tally: Tally): Promise<ModelReply | string> {
  try {
    const reply = await client.complete(request);
    tally.calls += 1;
    tally.usage = {
      tokensIn: tally.usage.tokensIn + reply.usage.tokensIn,
      tokensOut: tally.usage.tokensOut + reply.usage.tokensOut,
    };
    return reply;
  } catch (error) {
    if (error instanceof ModelError && error.kind === 'refused') {
      tally.calls += 1;
      return `the model refused the request: ${error.message}`;
    }
    throw error;
  }
}

function failed(ask: ModelAsk, why: string, tally: Tally): ModelAnswer {
  const errors: ModelAnswer['errors'] = {};
  if (ask.json) errors.json = why;
  if (ask.summary) errors.summary = why;
  return { errors, ...tally };
}

/**
 * A failed answer of json and summary asked together keeps its summary when that part is sound: a page whose JSON the
 * model cannot give (the schema asks for what it does not say) still has its summary.
 */
function withSummary(ask: ModelAsk, text: string, answer: ModelAnswer): ModelAnswer {
  if (!ask.json || !ask.summary) return answer;
  const read = readAnswer(text, null);
  if (!read.ok || typeof read.value !== 'object' || read.value === null || !('summary' in read.value)) return answer;
  const { summary } = read.value;
  if (typeof summary !== 'string' || summary.trim() === '') return answer;
  const { summary: _unsaid, ...errors } = answer.errors;
  return { ...answer, summary, errors };
}
