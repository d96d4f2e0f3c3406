import { PassThrough } from 'node:stream';
import { PendingBody, UNREAD_BODY_KEPT_BYTES } from './pending-body';

const pending = (declared: number | undefined, stream = new PassThrough()) =>
  new PendingBody(stream, 'json', declared, 'application/json');

describe('PendingBody', () => {
  it('keeps the connection for a small unread body (Node drains it) and closes it for a large or chunked one', () => {
    expect(pending(UNREAD_BODY_KEPT_BYTES).closesConnection).toBe(false);
    expect(pending(UNREAD_BODY_KEPT_BYTES + 1).closesConnection).toBe(true);
    expect(pending(undefined).closesConnection).toBe(true);
  });

  it('reads the whole body, after which the connection is kept', async () => {
    const stream = new PassThrough();
    const body = pending(undefined, stream);
    const read = body.read(10);
    stream.end('{"a":1}');
    expect((await read)?.toString()).toBe('{"a":1}');
    expect(body.closesConnection).toBe(false);
  });

  it('stops at the limit, and then closes the connection: the rest cannot be told from a request', async () => {
    const stream = new PassThrough();
    const body = pending(5, stream);
    const read = body.read(4);
    stream.write('12345');
    expect(await read).toBeUndefined();
    expect(body.closesConnection).toBe(true);
  });

  it('fails as an aborted upload when the stream closes before its end', async () => {
    const stream = new PassThrough();
    const body = pending(100, stream);
    const read = body.read(100);
    stream.write('half');
    stream.destroy();
    await expect(read).rejects.toMatchObject({ code: 'ECONNRESET', message: 'aborted' });
  });
});
