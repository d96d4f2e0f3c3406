import { Counter, Histogram, Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics';

/** The same requests counted by prom-client's own labelled metrics, as the service did before. */
function promClientExposition(
  requests: [string, string | undefined, number, number, boolean][],
): Promise<string> {
  const registry = new Registry();
  const labelNames = ['operation', 'status'] as const;
  const total = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by operation and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by operation and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'rate_limit_decisions_total',
    help: 'Rate-limit decisions: admitted, or refused with 429',
    labelNames: ['decision'] as const,
    registers: [registry],
  });
  for (const [method, route, status, seconds, limited] of requests) {
    const operation = route && !route.includes('*') ? `${method} ${route}` : 'unmatched';
    const labels = { operation, status: String(status) };
    total.inc(labels);
    duration.observe(labels, seconds);
    if (limited) decisions.inc({ decision: status === 429 ? 'refused' : 'admitted' });
  }
  return registry.metrics();
}

const lines = (text: string) => text.split('\n').sort();

describe('RequestMetrics', () => {
  it('exposes the same series as prom-client counting each request (every bucket bound, unmatched routes merged)', async () => {
    const requests: [string, string | undefined, number, number, boolean][] = [
      ['GET', '/v1/pets', 200, 0.003, true],
      ['GET', '/v1/pets', 200, 0.001, true],
      ['GET', '/v1/pets', 200, 0.0025, true],
      ['GET', '/v1/pets/:petId', 404, 3, true],
      ['GET', '/v1/pets', 429, 0.0001, true],
      ['POST', '/v1/*', 404, 0.01, true],
      ['DELETE', '/v1/*', 404, 0.02, true],
      ['GET', undefined, 404, 0.001, false],
      ['GET', '/health/live', 200, 0.0004, false],
    ];
    const registry = new Registry();
    const metrics = new RequestMetrics(registry);
    for (const request of requests) metrics.observe(...request);

    expect(lines(await registry.metrics())).toEqual(lines(await promClientExposition(requests)));
  });

  it('counts between scrapes, never resetting what it exposed', async () => {
    const registry = new Registry();
    const metrics = new RequestMetrics(registry);
    metrics.observe('GET', '/v1/pets', 200, 0.002, true);
    await registry.metrics();
    metrics.observe('GET', '/v1/pets', 200, 0.002, true);
    expect(await registry.metrics()).toMatch(
      /^http_requests_total\{operation="GET \/v1\/pets",status="200"\} 2$/m,
    );
  });
});
