import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiClient, expectError, request } from './support/http';
import { Nginx } from './support/peers/nginx';
import { freePort } from './support/peers/processes';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';
import { describeWithPeer } from './support/peers/optional-peers';

jest.setTimeout(20_000);

const ADMIN_TOKEN = 'load-balancer-suite-admin-token-0123456789';

/** deploy/nginx.conf with its upstreams and ports pointed at this test's instances. */
function composeConfigFor(instances: TestApp[], publicPort: number, operatorPort: number): string {
  const replacements: [string, string][] = [
    ['server api-1:3000 ', `server ${new URL(instances[0].url).host} `],
    ['server api-2:3000 ', `server ${new URL(instances[1].url).host} `],
    ['listen 80;', `listen 127.0.0.1:${publicPort};`],
    ['listen 8081;', `listen 127.0.0.1:${operatorPort};`],
  ];
  let config = readFileSync(join(__dirname, '..', 'deploy', 'nginx.conf'), 'utf8');
  for (const [from, to] of replacements) {
    // Each must be found exactly once: a changed file must fail here, not test something else.
    expect(config.split(from)).toHaveLength(2);
    config = config.replace(from, to);
  }
  return config;
}

/** docs/operations.md, "Deployment safety": the compose load balancer keeps operators' routes private. */
describeWithPeer('nginx', 'the load balancer of deploy/nginx.conf, a real nginx', () => {
  let instances: TestApp[];
  let nginx: Nginx;
  let lb: string;
  let operators: string;

  beforeAll(async () => {
    const prefix = `pet-adoption-lb:${process.pid}:${Date.now()}:`;
    instances = await Promise.all(
      [0, 1].map(() =>
        startTestApp({
          ADMIN_TOKEN,
          TRUST_PROXY: '1',
          ANONYMOUS_PER_MINUTE: '3',
          REDIS_KEY_PREFIX: prefix,
        }),
      ),
    );
    const [publicPort, operatorPort] = [await freePort(), await freePort()];
    nginx = await Nginx.start(composeConfigFor(instances, publicPort, operatorPort), publicPort);
    lb = `http://127.0.0.1:${publicPort}`;
    operators = `http://127.0.0.1:${operatorPort}`;
  });
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(instances.map((instance) => instance.close()));
  });

  /** How many GET /v1/pets an instance has answered with 200, from its own metrics. */
  const listed = async (instance: TestApp) => {
    const metrics = (await request(instance.url).get('/metrics')).text;
    const line = /http_requests_total\{operation="GET \/v1\/pets",status="200"\} (\d+)/.exec(
      metrics,
    );
    return Number(line?.[1] ?? 0);
  };

  it('serves the API on its public port, from both instances', async () => {
    const api = apiClient(lb, instances[0].auth);
    const created = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    const before = await Promise.all(instances.map(listed));
    // The instances share the run's database, where other specs' pets may fill a first page.
    const page = `/v1/pets?limit=100&after=${created.body.id - 1}`;
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await api.get(page));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(answers[0].body).toEqual(expect.arrayContaining([created.body]));
    const after = await Promise.all(instances.map(listed));
    expect(after.map((count, i) => count - before[i])).toEqual([3, 3]);
    expect((await request(lb).get('/v1/openapi.json')).status).toBe(200);
    expect((await request(lb).get('/health/ready')).status).toBe(200);
  });

  it.each([
    '/metrics',
    '/metrics/',
    '/admin/api-keys',
    '/admin/docs',
    '/admin/openapi.json',
    '/%61dmin/api-keys',
    '/v1/../admin/api-keys',
    '//admin/api-keys',
  ])('refuses %s on its public port with the Error body', async (path) => {
    const response = await request(lb).get(path).set('authorization', `Bearer ${ADMIN_TOKEN}`);
    expectError(response, 404, 'not_found');
  });

  it('serves the admin API on the operators port only', async () => {
    const admin = apiClient(operators, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect((await admin.get('/admin/api-keys')).status).toBe(200);
    expectError(await admin.get('/v1/pets'), 404, 'not_found');
    expectError(await admin.get('/metrics'), 404, 'not_found');
  });

  it('counts a client by the address nginx saw, whatever X-Forwarded-For it sends', async () => {
    await awayFromMinuteEnd();
    const statuses = [];
    for (const spoofed of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) {
      statuses.push((await request(lb).get('/v1/pets').set('x-forwarded-for', spoofed)).status);
    }
    // Four addresses would each have a budget of 3: counted as one, the fourth is refused.
    expect(statuses[3]).toBe(429);
    expect(statuses).toEqual([...statuses].sort());
  });
});
