import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import { apiClient, request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = join(__dirname, '..');
const text = (path: string) => readFileSync(join(ROOT, path), 'utf8');
// The compose file shares settings through merge keys (`<<: *api`), which YAML 1.2 leaves out.
const yaml = <T>(path: string) => load(text(path), { schema: CORE_SCHEMA.withTags(mergeTag) }) as T;

interface Compose {
  services: Record<
    string,
    { build?: { target?: string }; volumes?: string[]; profiles?: string[]; ports?: string[] }
  >;
}
interface PrometheusConfig {
  scrape_configs: {
    job_name: string;
    metrics_path?: string;
    dns_sd_configs?: { names: string[]; port: number }[];
    static_configs?: { targets: string[] }[];
  }[];
}
interface Datasources {
  datasources: { uid: string; type: string; url: string }[];
}
interface DashboardProviders {
  providers: { options: { path: string } }[];
}

const DASHBOARD = 'deploy/grafana/dashboards/pet-adoption.json';

/** Words of PromQL that are neither metrics nor followed by a parenthesis. */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: the identifiers left once strings, label matchers,
 * ranges and groupings are removed, that are neither functions nor aggregations (followed by a
 * parenthesis) nor keywords.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...stripped.matchAll(/(?<![\w.$])[A-Za-z_:][\w:]*/g)]
    .filter(
      (m) =>
        !stripped
          .slice(m.index + m[0].length)
          .trimStart()
          .startsWith('('),
    )
    .map((m) => m[0])
    .filter((name) => !KEYWORDS.has(name.toLowerCase()));
}

/** Every value under `key` in a dashboard, however deep in its panels. */
function valuesOf(key: string, node: unknown): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => valuesOf(key, item));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, value]) => (k === key ? [value] : valuesOf(key, value)));
}

const expressions = (dashboard: unknown) => valuesOf('expr', dashboard) as string[];

/** The series names a Prometheus text exposition offers, histograms' and summaries' included. */
function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') ['_bucket', '_sum', '_count'].forEach((s) => names.add(name + s));
    if (type === 'summary') ['_sum', '_count'].forEach((s) => names.add(name + s));
  }
  return names;
}

/** The container path a service mounts `source` (a path of this repository) at. */
function mountOf(compose: Compose, service: string, source: string): string | undefined {
  const volume = compose.services[service].volumes?.find((v) => v.startsWith(`./${source}:`));
  return volume?.split(':')[1];
}

/** docs/operations.md, "Health, metrics, logs": the compose file's Prometheus and Grafana. */
describe('monitoring (deploy/prometheus.yml, deploy/grafana)', () => {
  const compose = yaml<Compose>('docker-compose.yml');
  const dashboard = JSON.parse(text(DASHBOARD)) as unknown;

  describe('against the metrics of a running instance', () => {
    let t: TestApp;
    let exposed: Set<string>;
    beforeAll(async () => {
      t = await startTestApp();
      // A request of each kind, so that every labelled series has a sample as well.
      await apiClient(t.url, t.auth).get('/v1/pets').expect(200);
      await apiClient(t.url).get('/v1/pets').expect(401);
      const scraped = await request(t.url).get('/metrics').expect(200);
      exposed = exposedNames(scraped.text);
    });
    afterAll(() => t.close());

    it('the dashboard reads only metrics that /metrics exposes', () => {
      const read = expressions(dashboard).flatMap(metricNames);
      expect(read.length).toBeGreaterThan(0);
      expect(read.filter((name) => !exposed.has(name))).toEqual([]);
    });

    it('shows request rate and latency by operation, rate-limit decisions, the pool and Redis', () => {
      const read = new Set(expressions(dashboard).flatMap(metricNames));
      expect([...read].sort()).toEqual(
        expect.arrayContaining([
          'db_pool_connections',
          'http_request_duration_seconds_bucket',
          'http_requests_total',
          'rate_limit_decisions_total',
          'rate_limit_redis_up',
          'webhook_attempt_duration_seconds_bucket',
          'webhook_delivery_attempts_total',
          'webhook_oldest_pending_delivery_age_seconds',
        ]),
      );
      expect(expressions(dashboard).join('\n')).toMatch(/by \(operation(, le)?\)/);
    });
  });

  it('Prometheus parses, and scrapes /metrics of every instance compose runs, on their port', () => {
    const prometheus = yaml<PrometheusConfig>('deploy/prometheus.yml');
    const [job] = prometheus.scrape_configs;
    expect(prometheus.scrape_configs).toHaveLength(1);
    expect(job.metrics_path ?? '/metrics').toBe('/metrics');
    const instances = Object.keys(compose.services).filter(
      (name) => compose.services[name].build?.target === 'runtime',
    );
    expect(instances.length).toBeGreaterThanOrEqual(4);
    expect(job.dns_sd_configs).toEqual([expect.objectContaining({ names: instances, port: 3000 })]);
    expect(mountOf(compose, 'prometheus', 'deploy/prometheus.yml')).toBe(
      '/etc/prometheus/prometheus.yml',
    );
  });

  it('Grafana is provisioned with that Prometheus and loads the dashboard from where compose mounts it', () => {
    const { datasources } = yaml<Datasources>(
      'deploy/grafana/provisioning/datasources/prometheus.yml',
    );
    expect(datasources).toEqual([
      expect.objectContaining({ type: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
    const used = valuesOf('datasource', dashboard) as { uid: string }[];
    expect(used.length).toBeGreaterThan(0);
    expect(new Set(used.map((source) => source.uid))).toEqual(new Set([datasources[0].uid]));

    const { providers } = yaml<DashboardProviders>(
      'deploy/grafana/provisioning/dashboards/pet-adoption.yml',
    );
    expect(providers.map((p) => p.options.path)).toEqual([
      mountOf(compose, 'grafana', 'deploy/grafana/dashboards'),
    ]);
    expect(mountOf(compose, 'grafana', 'deploy/grafana/provisioning')).toBe(
      '/etc/grafana/provisioning',
    );
  });
});
