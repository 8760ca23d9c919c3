import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { dotenvLine, type StartInputs, startSecrets } from '../../scripts/lib/start-secrets.ts';

const KEY = 'c2VjcmV0LWtleS1vZi10aGUtY2hlY2tvdXQtMDEyMzQ1Njc=';
const FILE = resolve('.wrangler/start.env');

function inputs(more: Partial<StartInputs> = {}, files: Record<string, string> = {}): StartInputs {
  return {
    args: ['--port', '8799'],
    env: {},
    readFile: (path) => files[path],
    localKey: () => KEY,
    secretsFile: FILE,
    ...more,
  };
}

/** What wrangler reads of a file npm start wrote: dotenv's values, `\$` a literal `$` (its expansion step). */
function readBack(text: string): Record<string, string> {
  return Object.fromEntries(Object.entries(parseEnv(text)).map(([k, v]) => [k, (v ?? '').replaceAll('\\$', '$')]));
}

describe("npm start's secrets", () => {
  it('gives wrangler dev the API token and the credentials key in a file, never on its command line', () => {
    const token = 'tok-from-the-environment-7f3a';
    const started = startSecrets(inputs({ env: { API_TOKEN: token } }));
    // What `ps` shows: wrangler dev's arguments name the file, not what it holds.
    expect(started.args).toEqual(['--env-file', FILE]);
    expect(started.args.join(' ')).not.toContain(token);
    expect(started.args.join(' ')).not.toContain(KEY);
    expect(readBack(started.file ?? '')).toEqual({ API_TOKEN: token, CREDENTIALS_KEY: KEY });
    expect(started.token).toBe('environment');
  });

  it('uses dev-token without API_TOKEN, and adds nothing the user gives (--var, .dev.vars)', () => {
    expect(readBack(startSecrets(inputs()).file ?? '')).toEqual({ API_TOKEN: 'dev-token', CREDENTIALS_KEY: KEY });
    const typed = startSecrets(inputs({ args: ['--var', 'API_TOKEN:typed', '--var=CREDENTIALS_KEY:typed'] }));
    expect(typed).toEqual({ args: [], file: null, token: 'given' });
    const devVars = resolve('.dev.vars');
    const both = startSecrets(inputs({}, { [devVars]: 'API_TOKEN=a\nCREDENTIALS_KEY=b\n' }));
    expect(both).toEqual({ args: [], file: null, token: 'given' });
  });

  it('.dev.vars, which wrangler leaves unread once given --env-file, is carried into the file as it was read', () => {
    const devVars = resolve('.dev.vars');
    const started = startSecrets(inputs({}, { [devVars]: 'API_TOKEN="pa$$word"\nLLM_MODEL=m\n' }));
    expect(started.args).toEqual(['--env-file', FILE]);
    expect(readBack(started.file ?? '')).toEqual({ API_TOKEN: 'pa$$word', LLM_MODEL: 'm', CREDENTIALS_KEY: KEY });
    expect(started.token).toBe('given');
  });

  it("names the .env files wrangler would read by itself before its own, and keeps the user's --env-file", () => {
    const env = resolve('.env');
    const started = startSecrets(inputs({}, { [env]: 'LLM_MODEL=m\n' }));
    expect(started.args).toEqual(['--env-file', env, '--env-file', FILE]);
    const typed = startSecrets(inputs({ args: ['--env-file', 'mine.env'] }, { 'mine.env': 'API_TOKEN=x\n' }));
    expect(typed.args).toEqual(['--env-file', FILE]);
    expect(readBack(typed.file ?? '')).toEqual({ CREDENTIALS_KEY: KEY });
  });

  it('writes any value so that it reads back the same, or refuses it', () => {
    for (const value of ["it's", "a`b'c", 'x$HOME', 'x\\$y', 'two\nlines', ' padded ', '#hash']) {
      expect(readBack(`${dotenvLine('V', value)}\n`), JSON.stringify(value)).toEqual({ V: value });
    }
    expect(() => dotenvLine('V', `'\`"`)).toThrow(/--var/);
  });
});
