#!/usr/bin/env node
/**
 * `npm run build:package [-- DIR]`: the npm package `edgecrawl`, the CLI and a typed client of the API as JavaScript
 * with declarations, built into dist/package/ (or DIR) for `npm pack ./dist/package` (docs/cli.md, "The package").
 *
 * - bin/edgecrawl.js: the CLI (cli/edgecrawl.ts) bundled by esbuild with what it uses of hono/client, for Node 20+.
 * - index.js: the typed client (cli/package/index.ts) bundled with openapi-fetch; index.d.ts, its declarations,
 *   emitted by tsc, beside the API's types generated from docs/openapi.json (openapi.d.ts) and openapi-fetch's own
 *   declarations (openapi-fetch.d.ts, openapi-typescript-helpers.d.ts), their imports pointed at one another: the
 *   declarations name nothing outside the package.
 * - LICENSE: the repository's (MIT); THIRD-PARTY-NOTICES.md: the licenses of the code bundled or declared in it.
 *
 * The package has no dependencies: installing its tarball needs no registry.
 */
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type BuildOptions, build, type Metafile } from 'esbuild';
import ts from 'typescript';
import { z } from 'zod';
import { writeOpenapiTypes } from './lib/openapi-types.ts';

const root = new URL('../', import.meta.url).pathname;
const out = resolve(process.argv[2] ?? join(root, 'dist/package'));

/** The oldest Node the CLI runs on (parseArgs, fetch, web streams): what it is tested on. */
const NODE = '20';

/** The declaration files the package ships beside index.d.ts, and where each comes from. */
const DECLARATIONS = {
  'openapi.d.ts': '.types/openapi.d.ts',
  'openapi-fetch.d.ts': 'node_modules/openapi-fetch/dist/index.d.mts',
  'openapi-typescript-helpers.d.ts': 'node_modules/openapi-typescript-helpers/dist/index.d.mts',
};
/** What each import of the declarations is rewritten to: a declaration file of the package. */
const SPECIFIERS: Record<string, string> = {
  '../../.types/openapi.d.ts': './openapi.js',
  'openapi-fetch': './openapi-fetch.js',
  'openapi-typescript-helpers': './openapi-typescript-helpers.js',
};

/** Bundles an entry point; answers the npm packages bundled into it. */
async function bundle(entry: string, outfile: string, options: BuildOptions): Promise<string[]> {
  const result = await build({
    entryPoints: [join(root, entry)],
    outfile: join(out, outfile),
    bundle: true,
    format: 'esm',
    metafile: true,
    logLevel: 'warning',
    ...options,
  });
  if (!result.metafile) throw new Error(`esbuild gave no metafile for ${entry}`);
  return packagesOf(result.metafile);
}

function packagesOf(metafile: Metafile): string[] {
  return Object.keys(metafile.inputs).flatMap((input) => {
    const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    return match?.[1] ? [match[1]] : [];
  });
}

/** cli/package/index.ts's declarations, by tsc (which checks it first). */
function clientDeclarations(): string {
  const entry = join(root, 'cli/package/index.ts');
  const program = ts.createProgram([entry], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    allowImportingTsExtensions: true,
    declaration: true,
    emitDeclarationOnly: true,
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) throw new Error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
  let text: string | undefined;
  program.emit(program.getSourceFile(entry), (_name, data) => (text = data), undefined, true);
  if (text === undefined) throw new Error('tsc emitted no declarations for cli/package/index.ts');
  return text;
}

/** The declarations with their imports pointed inside the package; an import of anything else is an error. */
function relink(file: string, text: string): string {
  const imports = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  let result = text;
  for (const specifier of new Set(imports)) {
    const target = SPECIFIERS[specifier];
    if (target === undefined) throw new Error(`${file} imports ${specifier}, which the package does not ship`);
    result = result.replaceAll(`'${specifier}'`, `'${target}'`).replaceAll(`"${specifier}"`, `"${target}"`);
  }
  return result;
}

function writeDeclarations(): void {
  writeFileSync(join(out, 'index.d.ts'), relink('index.d.ts', clientDeclarations()));
  for (const [file, source] of Object.entries(DECLARATIONS))
    writeFileSync(join(out, file), relink(file, readFileSync(join(root, source), 'utf8')));
}

/** Each package's name, version, license and license text. */
function notices(packages: string[]): string {
  const sections = packages.map((name) => {
    const dir = join(root, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    if (file === undefined) throw new Error(`${name} has no license file to ship`);
    const text = readFileSync(join(dir, file), 'utf8').trim();
    return `## ${name} ${manifest.version} (${manifest.license})\n\n\`\`\`\n${text}\n\`\`\``;
  });
  return `# Third-party notices\n\nThe package bundles code or declarations of these packages.\n\n${sections.join('\n\n')}\n`;
}

function manifest(files: string[]): Record<string, unknown> {
  const own = z
    .object({ version: z.string(), license: z.string() })
    .parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  return {
    name: 'edgecrawl',
    version: own.version,
    description:
      'The command line and typed API client of edgecrawl, a polite, durable, fast web crawler on Cloudflare Workers',
    // The repository's (LICENSE, shipped beside it).
    license: own.license,
    type: 'module',
    bin: { edgecrawl: 'bin/edgecrawl.js' },
    main: './index.js',
    types: './index.d.ts',
    exports: { '.': { types: './index.d.ts', default: './index.js' }, './package.json': './package.json' },
    files,
    sideEffects: false,
    engines: { node: `>=${NODE}` },
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await writeOpenapiTypes();
const bundled = [
  ...(await bundle('cli/edgecrawl.ts', 'bin/edgecrawl.js', { platform: 'node', target: `node${NODE}` })),
  ...(await bundle('cli/package/index.ts', 'index.js', { platform: 'neutral', target: 'es2022' })),
];
chmodSync(join(out, 'bin/edgecrawl.js'), 0o755);
writeDeclarations();
const packages = [...new Set([...bundled, 'openapi-fetch', 'openapi-typescript-helpers'])].sort();
writeFileSync(join(out, 'THIRD-PARTY-NOTICES.md'), notices(packages));
copyFileSync(join(root, 'LICENSE'), join(out, 'LICENSE'));
const shipped = filesUnder(out).map((f) => relative(out, f));
const files = [...new Set(shipped.map((f) => f.split('/')[0] as string))].sort();
writeFileSync(join(out, 'package.json'), `${JSON.stringify(manifest(files), null, 2)}\n`);
copyFileSync(join(root, 'cli/package/README.md'), join(out, 'README.md'));
process.stdout.write(`${relative(process.cwd(), out) || '.'}/\n`);
for (const file of filesUnder(out).sort())
  process.stdout.write(
    `  ${relative(out, file).padEnd(34)} ${(statSync(file).size / 1024).toFixed(1).padStart(6)} KiB\n`,
  );
process.stdout.write(`bundled: ${packages.join(', ')}\n`);
