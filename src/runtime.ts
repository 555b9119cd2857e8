/**
 * The supported runtime (issue 31): Node.js 24, the active LTS line (Node 20 is past its end
 * of life). Imported first by the entry points (the service, the admin command), so that a
 * process started with an older Node (the machine's own, say) stops with one line saying how
 * to run it, instead of running unsupported or failing later in a dependency.
 * `NODE_VERSION_CHECK=off` lets it run anyway: only to measure an older Node beside it
 * (`npm run bench` with BENCH_NODE).
 */
export const MIN_NODE_MAJOR = 24;

const major = Number(process.versions.node.split('.')[0]);
if (major < MIN_NODE_MAJOR && process.env.NODE_VERSION_CHECK !== 'off') {
  process.stderr.write(
    `error: Node.js ${MIN_NODE_MAJOR} or newer is required, this is ${process.version}. ` +
      "`npm start` and `npm run admin` run the project's own Node 24 (node_modules/.bin/node, " +
      'brought by `npm install`); elsewhere put a Node 24 first on PATH (README "Runtime").\n',
  );
  process.exit(1);
}
