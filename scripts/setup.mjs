// `npm run setup [-- ci]`: `npm install` (or `npm ci`) run by npm on the project's own Node 24.
//
// npm checks every dependency's `engines` against the Node that npm itself runs on, and has no
// setting to check against another. On a machine whose Node is 20, a plain `npm install` warns
// EBADENGINE for each package that needs Node 22 or newer (the OpenTelemetry packages, cookie,
// content-disposition), although they will run on the project's Node 24 (package.json's
// node-<platform>-<arch>). So this runs npm's own CLI on that Node 24, fetched from the npm
// registry into npm's cache by `npm exec`: the check is made against the runtime the packages
// run on. Plain JavaScript on purpose: it runs before anything is installed, on any Node ≥ 18.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const args = process.argv.slice(2);
const command = args.length > 0 ? args : ['install'];
const flags = ['--no-audit', '--no-fund'];

// npm sets npm_execpath to its CLI when it runs a script; outside npm, the global one.
function npmCli() {
  if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath))
    return process.env.npm_execpath;
  const rootDir = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout.trim();
  return join(rootDir, 'npm', 'bin', 'npm-cli.js');
}

function run(file, argv) {
  const result = spawnSync(file, argv, { cwd: root, stdio: 'inherit' });
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}

const cli = npmCli();
const name = `node-${process.platform}-${process.arch}`;
const version = pkg.optionalDependencies?.[name];
const major = Number(process.versions.node.split('.')[0]);
if (!version || major >= 24) {
  // Already on Node 24 (or no binary for this platform: the machine's Node must be 24 then).
  run(process.execPath, [cli, ...command, ...flags]);
} else {
  console.log(
    `setup: npm ${command.join(' ')} on Node ${version} (the project's runtime, ${name} from the ` +
      `npm registry; this machine's Node is ${process.versions.node})`,
  );
  run(process.execPath, [
    cli,
    'exec',
    '--yes',
    `--package=${name}@${version}`,
    '--',
    'node',
    cli,
    ...command,
    ...flags,
  ]);
}
