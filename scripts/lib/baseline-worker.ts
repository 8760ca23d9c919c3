/**
 * The extraction bench Worker built from another revision of src/ (BASELINE=<git rev>), to measure before and after
 * in one run: a temporary git worktree of that revision with this revision's bench Worker (scripts/extract-bench) and
 * node_modules, so only src/ differs between the two Workers.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchWorker, startBenchWorker } from './local.ts';

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
    for (const file of ['worker.ts', 'wrangler.toml'])
      copyFileSync(join(root, 'scripts/extract-bench', file), join(dir, 'scripts/extract-bench', file));
    const worker = await startBenchWorker(join(dir, 'scripts/extract-bench/wrangler.toml'));
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
