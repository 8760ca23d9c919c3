/**
 * npm run bench:learned -- selectors written by the model (issue 33) against the model on every page, in Node, over
 * the generated shop (test/support/template-shop.ts: 500 product pages of two layouts, some deviating).
 *
 * No model runs here. Two stand-ins take its place:
 * - per page: the ground truth (shopTruth), perturbed on about 3% of its fields (chosen by a hash of the page and the
 *   property: a number +1, a string cut, a boolean flipped, a list short of its last item), as a good model's slips.
 *   Its tokens are counted as chars/4 of a prompt like a per-page request's (instructions, the schema, the page's
 *   Markdown as edgecrawl extracts it) and of the JSON answer.
 * - writing selectors: selectorAnswer (test/support/fake-llm-selectors.ts), which computes them from the prompt.
 *
 * Strategies: (a) the model on every page; (b) learned selectors: per template (templateOf) the first LEARN.samples
 * pages answered by the per-page stand-in, selectors learned from them (learnSelectors), every other page read by
 * applyLearned, falling back to the per-page stand-in where it refuses. Reported: fields right per page against the
 * ground truth, model calls and tokens per page, and the CPU of applyLearned per page (process.cpuUsage, median, p90).
 */
import { register } from 'node:module';

register('./lib/ts-resolve.mjs', import.meta.url);
const { extractPage } = await import('../src/domain/extract/index.ts');
const { normalised } = await import('../src/domain/model/coerce.ts');
const { LEARN } = await import('../src/domain/model/learn-limits.ts');
const { applyLearned } = await import('../src/domain/model/learned.ts');
const { templateOf } = await import('../src/domain/model/template.ts');
const { learnSelectors } = await import('../src/page/model/learn.ts');
const { selectorAnswer } = await import('../test/support/fake-llm-selectors.ts');
const shop = await import('../test/support/template-shop.ts');

type Json = Record<string, unknown>;
interface Outcome {
  json: Json;
  calls: number;
  tokens: number;
  via: 'model' | 'sample' | 'selectors' | 'fallback';
}

const SCHEMA = shop.PRODUCT_SCHEMA;
const NAMES = Object.keys(SCHEMA.properties);
const tokens = (chars: number) => Math.ceil(chars / 4);
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function perturb(value: unknown): unknown {
  if (typeof value === 'number') return Math.round((value + 1) * 100) / 100;
  if (typeof value === 'string') return value.slice(0, -2);
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.length > 1 ? value.slice(0, -1) : [...value, 'Gray'];
  return value;
}

/** The per-page stand-in: the truth with ~3% of fields perturbed, and what such a request would cost in tokens. */
async function pageModel(path: string, html: string): Promise<Outcome> {
  const truth: Json = { ...shop.shopTruth(path) };
  for (const name of NAMES) if (name in truth && hash(`${path} ${name}`) % 100 < 3) truth[name] = perturb(truth[name]);
  const spec = { formats: ['markdown' as const], mainContent: true, include: [], exclude: [], fields: {} };
  const page = await extractPage(new TextEncoder().encode(html), 'text/html', shop.SHOP_ORIGIN + path, spec);
  const prompt = 600 + JSON.stringify(SCHEMA).length + (page.outputs.markdown ?? '').length;
  return { json: truth, calls: 1, tokens: tokens(prompt + JSON.stringify(truth).length), via: 'model' };
}

const productPaths = () => shop.shopPaths().filter((path) => shop.shopTruth(path) !== null);
const htmlOf = (path: string) => shop.shopPage(path) ?? '';

/** The stand-in writing selectors, as a ModelClient; tokens chars/4 of the request's messages and of the answer. */
const selectorClient = {
  provider: 'openai-compatible' as const,
  model: 'selector-stand-in',
  async complete(request: { messages: { role: 'system' | 'user' | 'assistant'; content: string }[] }) {
    const text = JSON.stringify(selectorAnswer({ messages: request.messages }));
    const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
    return { text, usage: { tokensIn: tokens(chars), tokensOut: tokens(text.length) } };
  },
};

interface TemplateRun {
  template: string;
  pages: number;
  agreement: number;
  learnCalls: number;
  learnTokens: number;
  learned: boolean;
  fallbacks: Map<string, number>;
}

async function learnedTemplate(paths: string[], results: Map<string, Outcome>, cpu: number[]): Promise<TemplateRun> {
  const samples = paths.slice(0, LEARN.samples);
  const sampleRuns = await Promise.all(samples.map((path) => pageModel(path, htmlOf(path))));
  samples.forEach((path, i) => results.set(path, { ...(sampleRuns[i] as Outcome), via: 'sample' }));
  const learned = await learnSelectors(
    selectorClient,
    SCHEMA,
    samples.map((path, i) => ({ url: shop.SHOP_ORIGIN + path, html: htmlOf(path), json: sampleRuns[i]?.json })),
  );
  const first = samples[0] as string;
  const own = results.get(first) as Outcome;
  own.calls += learned.calls;
  own.tokens += learned.usage.tokensIn + learned.usage.tokensOut;
  const fallbacks = new Map<string, number>();
  for (const path of paths.slice(LEARN.samples)) {
    const start = cpuMs();
    const applied = learned.fields
      ? applyLearned(learned.fields, htmlOf(path), shop.SHOP_ORIGIN + path, SCHEMA, learned.expected)
      : null;
    if (learned.fields) cpu.push(cpuMs() - start);
    if (applied?.ok) results.set(path, { json: applied.json, calls: 0, tokens: 0, via: 'selectors' });
    else {
      const why = applied ? applied.why : (learned.why ?? 'not learned');
      fallbacks.set(why, (fallbacks.get(why) ?? 0) + 1);
      results.set(path, { ...(await pageModel(path, htmlOf(path))), via: 'fallback' });
    }
  }
  const template = templateOf(shop.SHOP_ORIGIN + first);
  return {
    template,
    pages: paths.length,
    agreement: learned.agreement,
    learnCalls: learned.calls,
    learnTokens: learned.usage.tokensIn + learned.usage.tokensOut,
    learned: learned.fields !== null,
    fallbacks,
  };
}

function score(results: Map<string, Outcome>) {
  let right = 0;
  let calls = 0;
  let spent = 0;
  for (const [path, outcome] of results) {
    const truth: Json = { ...shop.shopTruth(path) };
    right += NAMES.filter((name) => normalised(outcome.json[name]) === normalised(truth[name])).length / NAMES.length;
    calls += outcome.calls;
    spent += outcome.tokens;
  }
  const n = results.size;
  return { pages: n, right: (100 * right) / n, calls: calls / n, tokens: spent / n };
}

/** The learned run's wrong fields, by who read them: "selectors price 5". */
function wrongFields(results: Map<string, Outcome>): string[] {
  const counts = new Map<string, number>();
  for (const [path, outcome] of results) {
    const truth: Json = { ...shop.shopTruth(path) };
    for (const name of NAMES)
      if (normalised(outcome.json[name]) !== normalised(truth[name])) {
        const key = `${outcome.via} ${name}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  }
  return [...counts].map(([key, n]) => `${key} ${n}`);
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

async function main(): Promise<void> {
  const paths = productPaths();
  const every = new Map<string, Outcome>();
  for (const path of paths) every.set(path, await pageModel(path, htmlOf(path)));
  const byTemplate = new Map<string, string[]>();
  for (const path of paths) {
    const template = templateOf(shop.SHOP_ORIGIN + path);
    byTemplate.set(template, [...(byTemplate.get(template) ?? []), path]);
  }
  const learned = new Map<string, Outcome>();
  const cpu: number[] = [];
  const runs: TemplateRun[] = [];
  for (const group of byTemplate.values()) runs.push(await learnedTemplate(group, learned, cpu));
  report(score(every), score(learned), runs, cpu, learned);
}

function report(
  every: ReturnType<typeof score>,
  learned: ReturnType<typeof score>,
  runs: TemplateRun[],
  cpu: number[],
  results: Map<string, Outcome>,
): void {
  const via = (kind: Outcome['via']) => [...results.values()].filter((o) => o.via === kind).length;
  const row = (name: string, s: ReturnType<typeof score>, ms: string) =>
    `| ${name} | ${s.pages} | ${s.right.toFixed(2)}% | ${s.calls.toFixed(3)} | ${Math.round(s.tokens)} | ${ms} |`;
  console.log(
    '| strategy | product pages | fields right | model calls / page | tokens / page | applyLearned CPU ms / page (median, p90) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  console.log(row('model on every page (stand-in)', every, '–'));
  console.log(
    row('learned selectors + fallback', learned, `${quantile(cpu, 0.5).toFixed(2)}, ${quantile(cpu, 0.9).toFixed(2)}`),
  );
  console.log(`\npages by selectors ${via('selectors')}, samples ${via('sample')}, fallbacks ${via('fallback')}`);
  console.log(`fields wrong, learned run: ${wrongFields(results).join('; ') || 'none'}`);
  for (const run of runs) {
    const why = [...run.fallbacks].map(([w, n]) => `${n}× ${w}`).join('; ') || 'none';
    console.log(
      `${run.template}: ${run.pages} pages, learned ${run.learned} (agreement ${run.agreement.toFixed(3)}, ${run.learnCalls} calls, ${run.learnTokens} tokens); fallbacks: ${why}`,
    );
  }
}

await main();
