// The benchmark's flags (npm run bench -- --flag=value), with their defaults.

const flag = (argv, name, fallback) => {
  const arg = argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!arg) return fallback;
  return arg.includes('=') ? Number(arg.split('=')[1]) : true;
};

const stringOption = (argv, name) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(`--${name}=`.length);

/** --node=26, --node=/path/to/node, or BENCH_NODE; undefined: the Node running the bench. */
const nodeOption = (argv) => stringOption(argv, 'node') ?? (process.env.BENCH_NODE || undefined);

/**
 * --rows=N pets (10000), --rounds=N (5), --seconds=N per measurement (5), --warmup=N (3),
 * --connections=N (50), --half-rate-seconds=N per fixed-rate measurement (10, in up to 3 rounds);
 * --million: also compare list pages at 1,000,000 rows (--large-rows=N) against --rows, on a
 * second database and instance; the store's operations always run on a database of --large-rows
 * pets (--rows with --smoke); --scale-out: also run two service instances against one;
 * --soak=N: also run N seconds of mixed load and sample the service's RSS;
 * --log-requests: the service logs every request (LOG_LEVEL=log, to /dev/null) instead of warnings
 * only, to measure what the request log costs;
 * --profile: the service runs under V8's CPU profiler (slower, so its figures are not comparable)
 * and the report ends with where its CPU time went (profile files in bench/results/profiles/);
 * --capacity: only the capacity scenario (what one request costs the service, Redis and PostgreSQL,
 * per operation and per mix, and the instances each tier carries), written to docs/capacity.md;
 * --pg-cores=N: the cores of the PostgreSQL primary it plans for (8);
 * --node=26 (or BENCH_NODE=26): the servers run on that Node.js major version, installed on demand
 * into .cache/ (scripts/node-binary.mjs), or on the binary at --node=/path; the report and the
 * figures of docs/performance.md are that Node's own (bench/results/latest-node26.*);
 * --frameworks: only the floor's work served by node:http, Fastify and Nest, against the service:
 * what the frameworks cost by themselves (bench/results/frameworks.md);
 * --attribute=<list|get|create|deep>: only that operation on the floor, on the floor's work behind
 * Nest and on the service, each under V8's CPU profiler: its CPU per request by package and the
 * service's costliest functions (bench/results/attribution-<operation>.md);
 * --compare=<checkout>: only an A/B comparison of this build (B) with another checkout's built
 * service (A), e.g. a worktree of the commit before a change; --compare=. measures the noise
 * (bench/results/compare.md);
 * --organizations: only the organisations' near page against a plain one (bench/results/organizations.json);
 * --finding: only v1.3's finding pages (every filter, alone and with a status) against a plain
 * page at --large-rows pets (bench/results/finding.json);
 * --uploads: only a listing page at 40 % of its capacity, idle and while 4 uploads of a
 * 12-megapixel JPEG a second are processed, and the peak RSS of the API process and of its image
 * workers (bench/results/uploads.json);
 * --unanalysed: only pages of 10,000 pets never analysed against the same after ANALYZE
 * (bench/results/unanalysed.json);
 * --fan-out: only createPet with 10,000 endpoints of another key subscribed against none
 * (bench/results/fan-out.json);
 * --webhooks: only the webhooks scenario (bench/results/webhooks.json);
 * --imports: only shelter data in and out: an import of --rows CSV rows (100,000 here) to
 * `succeeded`, an export of --large-rows pets and the service's peak RSS over it, and a listing
 * page's p99 at a fixed rate while an import runs against idle (bench/results/imports.json);
 * --applications: only adoption applications: submitApplication's CPU against createPet's, and
 * an organisation's status pages at --large-rows applications never analysed against a pets page
 * (bench/results/applications.json);
 * --start-up: only `npm start` on a current build, to its first live answer, restarted --rounds
 * times on one embedded data directory (bench/results/start-up.json);
 * --webhook-backlog=N: the deliveries the webhooks scenario queues at once and drains under a read
 * load (100,000; 300 with --smoke);
 * --smoke: one short round of everything, to check that the benchmark works (CI): it writes
 * bench/results/ only, never docs/performance.md.
 */
export function options(argv) {
  const smoke = flag(argv, 'smoke', false);
  const short = (name, normal) => flag(argv, name, smoke ? 1 : normal);
  return {
    rows: flag(argv, 'rows', 10_000),
    rounds: short('rounds', 5),
    seconds: short('seconds', 5),
    warmup: short('warmup', 3),
    connections: flag(argv, 'connections', 50),
    halfRateSeconds: short('half-rate-seconds', 10),
    million: flag(argv, 'million', false),
    largeRows: flag(argv, 'large-rows', 1_000_000),
    scaleOut: flag(argv, 'scale-out', false),
    soak: flag(argv, 'soak', 0),
    logLevel: flag(argv, 'log-requests', false) ? 'log' : 'warn',
    profile: flag(argv, 'profile', false),
    capacity: flag(argv, 'capacity', false),
    pgCores: flag(argv, 'pg-cores', 8),
    node: nodeOption(argv),
    compare: stringOption(argv, 'compare'),
    attribute: stringOption(argv, 'attribute'),
    frameworks: flag(argv, 'frameworks', false),
    fanOut: flag(argv, 'fan-out', false),
    unanalysed: flag(argv, 'unanalysed', false),
    organizations: flag(argv, 'organizations', false),
    finding: flag(argv, 'finding', false),
    uploads: flag(argv, 'uploads', false),
    webhooks: flag(argv, 'webhooks', false),
    imports: flag(argv, 'imports', false),
    applications: flag(argv, 'applications', false),
    /** The rows of the imports scenario's files: --rows, which means pets everywhere else. */
    importRows: flag(argv, 'rows', 100_000),
    startUp: flag(argv, 'start-up', false),
    webhookBacklog: flag(argv, 'webhook-backlog', smoke ? 300 : 100_000),
    smoke,
    command: `npm run bench -- ${argv.join(' ')}`.trim(),
  };
}
