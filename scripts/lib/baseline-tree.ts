/**
 * A temporary git worktree of another revision (BASELINE=<rev>) sharing this checkout's node_modules, so that a bench
 * can run that revision's Worker (`--config <dir>/wrangler.toml`) beside this one's in the same run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface BaselineTree {
  dir: string;
  sha: string;
  remove: () => void;
}

export function baselineTree(root: string, rev: string, prefix = 'edgecrawl-baseline-'): BaselineTree {
  const dir = join(mkdtempSync(join(tmpdir(), prefix)), 'tree');
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
  const sha = git('rev-parse', '--short', rev);
  git('worktree', 'add', '--detach', dir, sha);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    sha,
    remove: () => {
      git('worktree', 'remove', '--force', dir);
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}
