import { Client, Query } from 'pg';

/** What a statement that outlived its bound fails with: the message pg's `query_timeout` uses. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

type Callback = (error: Error | null, result?: unknown) => void;

/** A statement under way: when it must have answered, and whom to tell (null once told). */
interface Watch {
  deadline: number;
  callback: Callback | null;
}

/**
 * pg's `Client`, with every statement bounded by `boundMs` as pg's own `query_timeout` bounds it
 * (the caller gets `Query read timeout`, and the pool closes the connection it releases with that
 * error), but by one sweep for all statements instead of a timer each.
 *
 * Why not `query_timeout`: its timer's callback holds the query. A statement still under way when
 * the young generation is collected has its timer promoted to the old one; cleared, the timer is
 * garbage, but the old generation is collected seldom, and until then it keeps the query and its
 * result rows alive through every young collection, which promotes them too. Measured on the list
 * at 50 connections: 1.1 MB promoted per young collection and a full collection a second, against
 * 0.12 MB without (docs/performance.md). A watch here lets go of its callback when the statement
 * answers, so nothing old holds a finished statement.
 */
export function clientWithStatementDeadlines(boundMs: number): typeof Client {
  const watches = new Set<Watch>();
  const sweepMs = Math.max(10, Math.min(100, Math.floor(boundMs / 10)));
  let sweeper: NodeJS.Timeout | undefined;

  const settle = (watch: Watch, error: Error | null, result?: unknown) => {
    const callback = watch.callback;
    if (!callback) return; // already failed by the sweep: a late answer is dropped
    watch.callback = null;
    watches.delete(watch);
    if (watches.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
    callback(error, result);
  };
  const sweep = () => {
    const now = Date.now();
    for (const watch of watches) {
      if (watch.deadline <= now) settle(watch, new Error(QUERY_READ_TIMEOUT));
    }
  };

  /** The callback to give pg instead: tells `callback` of the answer, or of the bound's end. */
  const watched = (callback: Callback): Callback => {
    const watch: Watch = { deadline: Date.now() + boundMs, callback };
    watches.add(watch);
    sweeper ??= setInterval(sweep, sweepMs).unref();
    return (error, result) => settle(watch, error, result);
  };

  return class ClientWithStatementDeadlines extends Client {
    // pg's overloads: (config | text, values?, callback?), a promise when there is no callback.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config?.submit === 'function') {
        // A submittable answered once (a Query of our own making) is bounded like any statement;
        // one answered in parts (a cursor, a stream) is not.
        const query = config as { callback?: Callback };
        if (config instanceof Query && typeof query.callback === 'function') {
          query.callback = watched(query.callback);
        }
        return super.query(config, values, callback);
      }
      if (typeof values === 'function') [callback, values] = [values, undefined];
      // pg also takes the callback as a property of the query's config.
      if (typeof callback !== 'function' && typeof config?.callback === 'function') {
        callback = config.callback;
      }
      if (typeof callback !== 'function') {
        return new Promise((resolve, reject) =>
          this.query(config, values, (error: Error | null, result: unknown) =>
            error ? reject(error) : resolve(result),
          ),
        );
      }
      return super.query(config, values, watched(callback as Callback));
    }
  } as typeof Client;
}
