import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR } from '../src/runtime.js';
import { runProcess, SERVICE_MAIN, startCommand, startFlags } from './helpers/process.js';

/** Issue 31: the service, its commands and this suite run on Node 24, the project's own. */
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

/** The machine's PATH without the project's node_modules/.bin: a shell, not an npm script. */
function shellEnv(): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);
  return { ...process.env, PATH: path };
}

/** A Node older than 24 on this machine (Debian's here), if any. */
function olderNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['-v'], { encoding: 'utf8' }).trim();
    if (major(version) < MIN_NODE_MAJOR) return candidate;
  }
  return undefined;
}

describe('the runtime (Node 24)', () => {
  it('runs this suite on Node 24 or newer', () => {
    expect(major(process.version)).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });

  it('is what package.json names, and what npm scripts and npx run from a plain shell', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      engines: { node: string };
      optionalDependencies: Record<string, string>;
    };
    expect(pkg.engines.node).toMatch(new RegExp(`^>=${MIN_NODE_MAJOR}\\.`));
    const pinned = Object.entries(pkg.optionalDependencies).filter(([name]) =>
      name.startsWith('node-'),
    );
    expect(pinned.length).toBeGreaterThan(0);
    for (const [, version] of pinned) expect(major(version)).toBe(MIN_NODE_MAJOR);
    // `npx`/`npm exec` (and so `npx ordering-admin`) resolve node from node_modules/.bin.
    const run = await runProcess('npm', ['exec', '--', 'node', '-p', 'process.version'], {
      env: shellEnv(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(major(run.stdout.trim())).toBe(MIN_NODE_MAJOR);
  });

  const older = olderNode();
  it.skipIf(!older)(
    'stops the service and the admin command on an older Node with one line saying how to run them',
    async () => {
      for (const script of [[SERVICE_MAIN], ['bin/ordering-admin.js', '--help']]) {
        const run = await runProcess(older!, script, {
          env: { ...process.env, DATABASE_URL: 'memory://' },
        });
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(run.stderr).toMatch(/^error: Node\.js 24 or newer is required, this is v\d+/);
        expect(run.stderr).toContain('npm start');
      }
    },
  );
});

/**
 * The production start's V8 flags (package.json; README "Runtime" says why each): the tests and
 * the benchmark read them through startCommand, which must expand them as sh does.
 */
describe("npm start's flags", () => {
  const server = { DATABASE_URL: 'postgres://ordering@db.internal/ordering' };

  it('on a database server: no optimizing tier for WebAssembly, the semi-space and heap limits', () => {
    const flags = startFlags(server);
    expect(flags).toEqual(
      expect.arrayContaining([
        '--liftoff-only',
        '--max-semi-space-size=8',
        '--max-old-space-size=96',
      ]),
    );
    expect(startCommand(server).at(-1)).toBe('dist/src/main.js');
    // Maglev stays: without it the checkout took 1.3-1.5x the CPU (docs/benchmarks.md).
    expect(flags).not.toContain('--no-maglev');
    expect(startFlags({ ...server, HEAP_LIMIT_MB: '128' })).toContain('--max-old-space-size=128');
  });

  it('on the embedded database (WebAssembly itself): WebAssembly keeps its optimizing tier', () => {
    for (const env of [{}, { DATABASE_URL: '' }]) {
      expect(startFlags(env)).not.toContain('--liftoff-only');
      expect(startFlags(env)).not.toContain('--no-maglev');
    }
  });

  it('is expanded by startCommand as sh expands it', async () => {
    const script: string = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start;
    for (const env of [server, {}, { ...server, HEAP_LIMIT_MB: '200' }]) {
      const run = await runProcess('sh', ['-c', script.replace(/^node /, 'echo ')], {
        env: { PATH: process.env.PATH, ...env },
      });
      expect(run.stdout.trim().split(/\s+/)).toEqual(startCommand(env).slice(1));
    }
  });
});
