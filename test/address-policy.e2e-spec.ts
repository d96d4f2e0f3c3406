import { HostResolver } from '../src/webhooks/application/webhook-delivery';
import { FixedHostResolver } from './fakes/fixed-host-resolver';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/**
 * The address policy for IPv6 (docs/api.md, "Webhooks"; docs/adr/0044): an allow-list of global
 * unicast, and every IPv6 spelling that carries an IPv4 address judged by that address, at
 * registration, at update and at each delivery attempt.
 */
jest.setTimeout(60_000);

describe('webhook addresses: IPv6 forms carrying IPv4, and the IPv6 allow-list', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let customer: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp(
      {
        WEBHOOK_ALLOWED_NETWORKS: '',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        WEBHOOK_TIMEOUT_MS: '1000',
        // Every address is tried at registration: more than the 10 creations a minute per key.
        WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '10000',
      },
      (builder) =>
        builder.overrideProvider(HostResolver).useValue(
          new FixedHostResolver({
            'compatible.test': ['::127.0.0.1'],
            'nat64.test': ['64:ff9b::7f00:1'],
            'sixtofour.test': ['2002:7f00:1::1'],
            'sitelocal.test': ['fec0::1'],
          }),
        ),
    );
    customer = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['pets:read', 'pets:write', 'webhooks:manage'] })).auth,
    );
    await resetDatabase(t.dataSource);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it.each([
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/hook',
    'https://[::169.254.169.254]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b:1:7f00:1::]/',
    'https://[2002:a9fe:a9fe::1]/',
    'https://[2001:0:808:808::80ff:fffe]/',
    'https://[fec0::1]/',
    'https://[4000::1]/',
  ])('refuses %s at registration and at update with 400', async (url) => {
    expectError(
      await customer.post('/v1/webhook-endpoints').send({ url, events: ['*'] }),
      400,
      'validation_failed',
    );
    const created = await customer
      .post('/v1/webhook-endpoints')
      .send({ url: 'https://[2606:4700::1111]/', events: ['*'] })
      .expect(201);
    expectError(
      await customer.patch(`/v1/webhook-endpoints/${created.body.id}`).send({ url }),
      400,
      'validation_failed',
    );
    await customer.delete(`/v1/webhook-endpoints/${created.body.id}`).expect(204);
  });

  it('never calls a name whose address carries loopback: address_refused', async () => {
    const endpoints = [];
    for (const host of ['compatible.test', 'nat64.test', 'sixtofour.test', 'sitelocal.test']) {
      const response = await customer
        .post('/v1/webhook-endpoints')
        .send({ url: `https://${host}:${receiver.port}/hook`, events: ['pet.created'] });
      expect(response.status).toBe(201);
      endpoints.push(response.body);
    }
    await customer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    for (const endpoint of endpoints) {
      const [attempt] = await eventually(async () => {
        const list = (await customer.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).body;
        return list.length >= 1 && list;
      });
      expect([attempt.outcome, attempt.error]).toEqual(['failed', 'address_refused']);
    }
    expect(receiver.connections).toBe(0);
  });
});
