// A fixed rate as an open loop: one request every 1/rate s, evenly spaced, on up to `connections`
// kept-alive connections, each request timed from when it was due, so that one waiting for a free
// connection counts its wait. autocannon's own fixed rate is a quota per connection and second,
// sent back to back when each second starts: at "40 % of capacity" the service met bursts at
// full speed for a third of every second, and its latency correction spread each slow answer over
// 1 ms steps (it takes 1/rate as milliseconds). The shape of the result is autocannon's, for
// `measure` (processes.mjs).
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** The value at quantile `q` of sorted `values` (nearest rank). */
function quantile(sorted, q) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends `method` `url` (with `headers` and `body`) at `overallRate` a second for `duration`
 * seconds, or until `until` settles; `onResponse(status, ms)` is told of each answer.
 */
export async function pacedLoad(
  { url, method = 'GET', headers = {}, body, connections = 50, duration, overallRate },
  until,
  onResponse,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  let stopped = false;
  until?.finally(() => (stopped = true));
  const inFlight = new Set();

  const send = (dueAt) =>
    new Promise((resolve) => {
      // Timed from when it was due, or from when it was sent if that was earlier: a request sent
      // ahead of time (within a millisecond of it, or by a timer, which counts from the loop's
      // clock in whole milliseconds) must not be timed as if it had been answered sooner.
      const from = Math.min(dueAt, performance.now());
      const request = http.request(url, { method, headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          const ms = performance.now() - from;
          latencies.push(ms);
          if (response.statusCode < 200 || response.statusCode >= 300) non2xx++;
          onResponse?.(response.statusCode, ms);
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
      request.end(body);
    });

  const interval = 1000 / overallRate;
  const started = performance.now();
  const ends = started + duration * 1000;
  for (let sent = 0; !stopped; sent++) {
    const dueAt = started + sent * interval;
    if (dueAt >= ends) break;
    const wait = dueAt - performance.now();
    // Timers fire a millisecond late or more: what fell due meanwhile is sent at once, each still
    // timed from when it was due; what falls due within a millisecond is sent now, and timed from
    // now.
    if (wait >= 1) await sleep(wait);
    const request = send(dueAt);
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (ms) => Math.round(ms * 10) / 10;
  return {
    requests: { total: latencies.length },
    duration: seconds,
    latency: {
      p50: round(quantile(latencies, 0.5)),
      p97_5: round(quantile(latencies, 0.975)),
      p99: round(quantile(latencies, 0.99)),
    },
    errors,
    timeouts: 0,
    non2xx,
  };
}
