/**
 * The extraction bench Worker built from another revision of src/ (BASELINE=<git rev>), to measure before and after
 * in one run: a temporary git worktree of that revision with this revision's bench Worker (scripts/extract-bench) and
 * node_modules, so only src/ differs between the two Workers.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchWorker, startBenchWorker } from './local.ts';

/**
 * This revision's bench Worker on the baseline's src/; when it does not build there (it calls a function the baseline
 * names otherwise), the baseline's own bench Worker, which answers in the same way.
 */
async function startOnBaseline(root: string, dir: string, sha: string): Promise<BenchWorker> {
  const config = join(dir, 'scripts/extract-bench/wrangler.toml');
  const own = (file: string) => readFileSync(join(dir, 'scripts/extract-bench', file));
  const originals = ['worker.ts', 'wrangler.toml'].map((file) => [file, own(file)] as const);
  for (const [file] of originals)
    copyFileSync(join(root, 'scripts/extract-bench', file), join(dir, 'scripts/extract-bench', file));
  try {
    return await startBenchWorker(config);
  } catch (error) {
    if (!String(error).includes('could not build')) throw error;
    console.log(`  baseline ${sha}: this revision's bench Worker does not build on its src/; using its own`);
    for (const [file, text] of originals) writeFileSync(join(dir, 'scripts/extract-bench', file), text);
    return startBenchWorker(config);
  }
}

export async function startBaselineWorker(root: string, rev: string): Promise<BenchWorker & { rev: string }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'edgecrawl-baseline-')), 'tree');
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--short', rev);
  git('worktree', 'add', '--detach', dir, sha);
  const remove = () => {
    git('worktree', 'remove', '--force', dir);
    rmSync(join(dir, '..'), { recursive: true, force: true });
  };
  try {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const worker = await startOnBaseline(root, dir, sha);
    return {
      ...worker,
      rev: sha,
      stop: () => {
        worker.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}
