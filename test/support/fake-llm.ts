/**
 * A fake OpenAI-compatible model for the tests: POST /v1/chat/completions answers FROM THE PROMPT IT RECEIVES, reading
 * the page's Markdown in the user message (fake-llm-page.ts) for what the requested JSON schema asks, as the test
 * sites stand in for the web. Written for prompts built by src/domain/model/prompt.ts.
 *
 * Triggers written into a test page's text:
 * - MALFORMED-FIRST-ANSWER: the first answer for that page content is invalid JSON; a repair (the messages hold
 *   "Your answer was not valid:") gets a valid one.
 * - SCHEMA-WRONG-FIRST-ANSWER: the first answer is JSON of the wrong types (numbers as the string "twelve").
 * - SCHEMA-WRONG-ALWAYS: every answer is of the wrong types.
 * - RATE-LIMIT-FIRST: the first request for that content gets 429 with Retry-After: 1.
 * - SERVER-ERROR-FIRST: the first request for that content gets a 500.
 * Options: `apiKey` (then a request without `Authorization: Bearer <apiKey>` gets 401), `jsonSchema: false` (a server
 * that refuses response_format json_schema with a 400, as older ones do; the schema is then read from the prompt).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakePage, fillSchema, headingsOf, isSchema, pageOfPrompt, summarize } from './fake-llm-page.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** When it arrived (epoch ms). */
  at: number;
}

export interface FakeLlmOptions {
  apiKey?: string;
  jsonSchema?: boolean;
}

export interface FakeLlm {
  /** The base URL, ending in /v1 (an OpenAI-compatible client's baseUrl). */
  url: string;
  port: number;
  requests(): RecordedRequest[];
  /** Forgets the requests and which page contents were seen (the "first" triggers fire again). */
  reset(): void;
  close(): Promise<void>;
}

type Json = { [key: string]: unknown };

interface Answer {
  status: number;
  body: Json;
  headers?: Record<string, string>;
}

export async function startFakeLlm(port = 0, options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const recorded: RecordedRequest[] = [];
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    void handle(req, res, recorded, (key) => (seen.has(key) ? false : (seen.add(key), true)), options);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/v1`,
    port: bound,
    requests: () => [...recorded],
    reset: () => {
      recorded.length = 0;
      seen.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  recorded: RecordedRequest[],
  firstTime: (key: string) => boolean,
  options: FakeLlmOptions,
): Promise<void> {
  // What it was asked, for tests that run where this process's memory is out of reach (workerd).
  if (req.method === 'GET' && req.url === '/__requests') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(recorded));
    return;
  }
  const at = Date.now();
  const text = await readBody(req);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
  recorded.push({ method: req.method ?? '', path: req.url ?? '', headers, body, at });
  const answer = (await selectorAnswerOf(body)) ?? answerOf(req, body, firstTime, options);
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

function answerOf(
  req: IncomingMessage,
  body: unknown,
  firstTime: (key: string) => boolean,
  options: FakeLlmOptions,
): Answer {
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return failure(404, 'not found');
  if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
    return failure(401, 'Incorrect API key provided');
  }
  if (!isSchema(body) || !Array.isArray(body.messages)) return failure(400, 'messages is required');
  // Selectors to write (learnSelectors): read off the samples' HTML and answers, as fake-llm-selectors.ts does.
  const format = isSchema(body.response_format) ? body.response_format : {};
  if (options.jsonSchema === false && format.type === 'json_schema') {
    return failure(400, "Invalid value for 'response_format': type json_schema is not supported");
  }
  const messages = body.messages.filter(isSchema).map((m) => ({ role: String(m.role), content: String(m.content) }));
  const page = pageOfPrompt(messages.find((m) => m.role === 'user')?.content ?? '');
  if (!page) return failure(400, 'the fake model reads prompts built by src/domain/model/prompt.ts only');
  const content = page.markdown;
  if (content.includes('RATE-LIMIT-FIRST') && firstTime(`429 ${content}`)) {
    return { ...failure(429, 'Rate limit reached for requests'), headers: { 'retry-after': '1' } };
  }
  if (content.includes('SERVER-ERROR-FIRST') && firstTime(`500 ${content}`))
    return failure(500, 'The server had an error');
  const repair = messages.some((m) => m.role === 'user' && m.content.startsWith('Your answer was not valid:'));
  const reply = replyText(page, schemaOf(format, messages), repair, firstTime);
  return { status: 200, body: completion(String(body.model), reply, messages) };
}

/** The schema asked for: response_format's, or one told in the prompt (json_object mode of a fallback). */
function schemaOf(format: Json, messages: { content: string }[]): Json | null {
  const inFormat = isSchema(format.json_schema) ? format.json_schema.schema : undefined;
  if (isSchema(inFormat)) return inFormat;
  for (const message of messages) {
    const told = /The JSON object must follow this JSON Schema: (.+)$/m.exec(message.content)?.[1];
    const parsed = told ? safeJson(told) : null;
    if (isSchema(parsed)) return parsed;
  }
  return null;
}

function replyText(page: FakePage, schema: Json | null, repair: boolean, firstTime: (key: string) => boolean): string {
  const content = page.markdown;
  if (!repair && content.includes('MALFORMED-FIRST-ANSWER') && firstTime(`malformed ${content}`)) {
    return '{"name": "x", "price": ';
  }
  const wrong =
    content.includes('SCHEMA-WRONG-ALWAYS') ||
    (!repair && content.includes('SCHEMA-WRONG-FIRST-ANSWER') && firstTime(`wrong ${content}`));
  return JSON.stringify(answerFor(page, schema, wrong));
}

function answerFor(page: FakePage, schema: Json | null, wrong: boolean): Json {
  const properties = schema && isSchema(schema.properties) ? Object.keys(schema.properties) : [];
  const json = (inner: unknown) => {
    if (!isSchema(inner) || !isSchema(inner.properties)) return promptOnly(page);
    const filled = fillSchema(inner, page);
    return wrong ? wrongTypes(inner, filled) : filled;
  };
  if (schema && properties.join() === 'json,summary' && isSchema(schema.properties)) {
    return { json: json(schema.properties.json), summary: summarize(page) };
  }
  if (properties.join() === 'summary') return { summary: summarize(page) };
  return schema ? json(schema) : promptOnly(page);
}

/** A prompt-only ask (any JSON object): what any page has. */
function promptOnly(page: FakePage): Json {
  return {
    title: page.title ?? headingsOf(page.markdown)[0] ?? null,
    url: page.url,
    headings: headingsOf(page.markdown),
  };
}

/** The answer with its numbers as "twelve" (or, with none, its first property as the number 12). */
function wrongTypes(schema: Json, filled: Json): Json {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const numeric = (type: unknown) =>
    (Array.isArray(type) ? type : [type]).some((t) => t === 'number' || t === 'integer');
  const numbers = Object.entries(properties).filter(([, p]) => isSchema(p) && numeric(p.type));
  if (numbers.length > 0) return { ...filled, ...Object.fromEntries(numbers.map(([name]) => [name, 'twelve'])) };
  const first = Object.keys(properties)[0];
  return first === undefined ? filled : { ...filled, [first]: 12 };
}

function completion(model: string, text: string, messages: { content: string }[]): Json {
  const promptChars = messages.reduce((sum, m) => sum + m.content.length, 0);
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: Math.ceil(promptChars / 4),
      completion_tokens: Math.ceil(text.length / 4),
      total_tokens: Math.ceil(promptChars / 4) + Math.ceil(text.length / 4),
    },
  };
}

function failure(status: number, message: string): Answer {
  return {
    status,
    body: { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error' } },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Selectors to write (learnSelectors): read off the samples' HTML and answers (fake-llm-selectors.ts, which reads HTML
 * with the Worker's own DOM code, so it is loaded only where that code can be: under vitest, not as a bare process).
 */
async function selectorAnswerOf(body: unknown): Promise<Answer | null> {
  if (!isSchema(body) || !Array.isArray(body.messages)) return null;
  const chat = {
    messages: body.messages.filter(isSchema).map((m) => ({ role: String(m.role), content: String(m.content) })),
    response_format: body.response_format,
  };
  const selectors = await import('./fake-llm-selectors.ts').catch(() => null);
  if (!selectors?.isSelectorRequest(chat)) return null;
  const text = JSON.stringify(selectors.selectorAnswer(chat));
  return { status: 200, body: completion(String(body.model), text, chat.messages) };
}
