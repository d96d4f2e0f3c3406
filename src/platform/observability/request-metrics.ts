import type { Metric, Registry } from 'prom-client';
import { Counter } from 'prom-client';

/** Upper bounds of the request duration histogram, in seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The requests of one operation and status: plain numbers, added to on the request path. */
class Series {
  count = 0;
  sum = 0;
  /** Requests per bucket (not cumulative); the last counts those above every bound. */
  readonly buckets = new Array<number>(DURATION_BUCKETS.length + 1).fill(0);

  constructor(readonly labels: { operation: string; status: string }) {}

  observe(seconds: number): void {
    this.count++;
    this.sum += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]) bucket++;
    this.buckets[bucket]++;
  }
}

type Labels = Record<string, string | number>;
/** A sample as prom-client's registry formats it: the series' labels after the sample's own. */
interface Value {
  metricName: string;
  value: number;
  labels: Labels;
  sharedLabels: Labels;
}

/**
 * `http_requests_total`, `http_request_duration_seconds` and `rate_limit_decisions_total`, counted
 * in plain numbers per operation and status and turned into Prometheus series only when scraped:
 * prom-client's labelled children validate and hash their labels on every call. The exposition is
 * prom-client's own (a Counter filled at scrape time; the histogram in its value format).
 */
export class RequestMetrics {
  /** Series by method, route (undefined: unmatched) and status. */
  private readonly series = new Map<string, Map<string | undefined, Map<number, Series>>>();
  private admitted = 0;
  private refused = 0;

  constructor(registry: Registry) {
    const all = () => this.all();
    new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by operation and status',
      labelNames: ['operation', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const series of all()) this.inc(series.labels, series.count);
      },
    });
    registry.registerMetric(this.durationHistogram() as unknown as Metric);
    const decisions = () => [this.admitted, this.refused];
    new Counter({
      name: 'rate_limit_decisions_total',
      help: 'Rate-limit decisions: admitted, or refused with 429',
      labelNames: ['decision'] as const,
      registers: [registry],
      collect() {
        const [admitted, refused] = decisions();
        this.reset();
        if (admitted > 0) this.inc({ decision: 'admitted' }, admitted);
        if (refused > 0) this.inc({ decision: 'refused' }, refused);
      },
    });
  }

  /**
   * Counts an answered request. `route`: the route it matched (undefined, or the catch-all route
   * of unknown paths, as `unmatched`); `rateLimited`: whether the limiter decided on it.
   */
  observe(
    method: string,
    route: string | undefined,
    status: number,
    seconds: number,
    rateLimited: boolean,
  ): void {
    this.seriesOf(method, route, status).observe(seconds);
    if (rateLimited) {
      if (status === 429) this.refused++;
      else this.admitted++;
    }
  }

  private seriesOf(method: string, route: string | undefined, status: number): Series {
    let byRoute = this.series.get(method);
    if (!byRoute) this.series.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      // The catch-all route answers unknown paths: its label must not multiply with every URL tried.
      const operation = route && !route.includes('*') ? `${method} ${route}` : 'unmatched';
      byStatus.set(status, (series = new Series({ operation, status: String(status) })));
    }
    return series;
  }

  /** Every series; the unmatched ones of several methods merged, as one label names them. */
  private all(): Series[] {
    const merged = new Map<string, Series>();
    for (const byRoute of this.series.values())
      for (const byStatus of byRoute.values())
        for (const series of byStatus.values()) {
          const id = `${series.labels.operation} ${series.labels.status}`;
          let target = merged.get(id);
          if (!target) merged.set(id, (target = new Series(series.labels)));
          target.count += series.count;
          target.sum += series.sum;
          series.buckets.forEach((n, i) => (target.buckets[i] += n));
        }
    return [...merged.values()];
  }

  /** The histogram as prom-client's registry formats one: buckets (cumulative), +Inf, sum, count. */
  private durationHistogram() {
    const name = 'http_request_duration_seconds';
    const help = 'Time to answer a request, by operation and status';
    const get = () => ({
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      values: this.all().flatMap(({ labels, buckets, sum, count }) => {
        let cumulative = 0;
        const value = (metricName: string, value: number, own: Labels = {}): Value => ({
          metricName,
          value,
          labels: own,
          sharedLabels: labels,
        });
        return [
          ...DURATION_BUCKETS.map((le, i) =>
            value(`${name}_bucket`, (cumulative += buckets[i]), { le }),
          ),
          value(`${name}_bucket`, count, { le: '+Inf' }),
          value(`${name}_sum`, sum),
          value(`${name}_count`, count),
        ];
      }),
    });
    return { name, help, type: 'histogram', aggregator: 'sum', get, reset: () => undefined };
  }
}
