import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signatureHeader } from './webhook-signature';

describe('webhook signatures, as Standard Webhooks says', () => {
  // The specification's own example (standard-webhooks, spec/standard-webhooks.md).
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  };

  it('signs the test vector as the specification does', () => {
    expect(signatureHeader([vector.secret], vector.id, vector.timestamp, vector.body)).toBe(
      vector.signature,
    );
  });

  it('is verified by the standardwebhooks package, with one secret or either of two', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"id":"evt_0000000000000001","type":"pet.created"}';
    const headers = (secrets: string[]) => ({
      'webhook-id': 'evt_0000000000000001',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, 'evt_0000000000000001', timestamp, body),
    });
    expect(new Webhook(current).verify(body, headers([current]))).toEqual(JSON.parse(body));
    expect(headers([current, previous])['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers([current, previous]))).toEqual(
        JSON.parse(body),
      );
    }
    expect(() => new Webhook(previous).verify(body, headers([current]))).toThrow();
    expect(() => new Webhook(current).verify(body.replace('1', '2'), headers([current]))).toThrow();
  });

  it('issues whsec_ and the base64 of 32 random bytes, never twice the same', () => {
    const secrets = new Set(Array.from({ length: 100 }, newWebhookSecret));
    expect(secrets.size).toBe(100);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    }
  });
});
