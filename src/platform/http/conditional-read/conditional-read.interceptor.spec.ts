import { CallHandler, ExecutionContext, HttpException } from '@nestjs/common';
import { lastValueFrom, of, throwError } from 'rxjs';
import { ConditionalReadInterceptor } from './conditional-read.interceptor';
import { deferCount, DeferredCount } from './deferred-count';

/** A request and reply as the interceptor sees them, with a count that records what it was asked. */
function exchange(ifNoneMatch?: string, conditionalRead = true) {
  const headers: Record<string, string> = {};
  const reply = {
    statusCode: 200,
    getHeader: (name: string) => headers[name],
    header(name: string, value: string) {
      headers[name] = value;
      return reply;
    },
    type(value: string) {
      headers['content-type'] = value;
      return reply;
    },
    status(code: number) {
      reply.statusCode = code;
      return reply;
    },
  };
  const request = {
    headers: ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch },
    routeOptions: { config: { routeFacts: { conditionalRead } } },
  };
  const calls: string[] = [];
  const deferred: DeferredCount = {
    count: async () => void calls.push('count'),
    describe: async () => void calls.push('describe'),
  };
  deferCount(request, deferred);
  const context = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ExecutionContext;
  return { context, reply, headers, calls, deferred };
}

const answer = (value: unknown): CallHandler => ({ handle: () => of(value) });
const failure = (error: Error): CallHandler => ({ handle: () => throwError(() => error) });
const interceptor = new ConditionalReadInterceptor();
const run = (context: ExecutionContext, handler: CallHandler) =>
  lastValueFrom(interceptor.intercept(context, handler));

describe('ConditionalReadInterceptor', () => {
  const page = [{ id: 1, name: 'Rex' }];

  it('tags a listing by its JSON, sends that JSON, and counts a request without a match', async () => {
    const { context, headers, calls } = exchange('"stale"');
    expect(await run(context, answer(page))).toBe(JSON.stringify(page));
    expect(headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(calls).toEqual(['count']);
  });

  it('answers a match 304 without a body, describing the budget and counting nothing', async () => {
    const first = exchange();
    await run(first.context, answer(page));
    const { context, reply, headers, calls } = exchange(`W/${first.headers.etag}`);
    expect(await run(context, answer(page))).toBeUndefined();
    expect(reply.statusCode).toBe(304);
    expect(headers.etag).toBe(first.headers.etag);
    expect(calls).toEqual(['describe']);
  });

  it("keeps the handler's own ETag (a version) and compares with it", async () => {
    const { context, reply, calls } = exchange('"3"');
    reply.header('etag', '"3"');
    expect(await run(context, answer({ id: 1, version: 3 }))).toBeUndefined();
    expect(reply.statusCode).toBe(304);
    expect(calls).toEqual(['describe']);
  });

  it('answers 304 even when the budget cannot be read in time', async () => {
    const { context, reply, deferred } = exchange('*');
    deferred.describe = () => Promise.reject(new HttpException('unavailable', 503));
    expect(await run(context, answer(page))).toBeUndefined();
    expect(reply.statusCode).toBe(304);
  });

  it("counts an error answer once, and lets the count's own refusal stand instead", async () => {
    const counted = exchange('*');
    const notFound = new HttpException('not found', 404);
    await expect(run(counted.context, failure(notFound))).rejects.toBe(notFound);
    expect(counted.calls).toEqual(['count']);

    const spent = exchange('*');
    const tooMany = new HttpException('rate limited', 429);
    spent.deferred.count = () => Promise.reject(tooMany);
    await expect(run(spent.context, failure(notFound))).rejects.toBe(tooMany);
  });

  it('refuses a non-matching read when the count refuses it, once', async () => {
    const { context, deferred } = exchange('"stale"');
    const tooMany = new HttpException('rate limited', 429);
    let counts = 0;
    deferred.count = () => (counts++, Promise.reject(tooMany));
    await expect(run(context, answer(page))).rejects.toBe(tooMany);
    expect(counts).toBe(1);
  });

  it('leaves other routes alone', async () => {
    const { context, headers, calls } = exchange('*', false);
    expect(await run(context, answer(page))).toBe(page);
    expect(headers.etag).toBeUndefined();
    expect(calls).toEqual([]);
  });
});
