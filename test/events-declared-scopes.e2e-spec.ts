import { declareEventTypes } from '../src/common/events/event-types';
import { EventRecorder } from '../src/common/events/event-recorder';
import { Transactions } from '../src/common/transactions';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/webhook-receiver';

/**
 * The feed's scopes come from the declared event types (CONTRACT.md, "Built to be extended,
 * round 3"): a feature's new type is readable in the feed with its own scope and no edit
 * elsewhere. A type declared here, as a feature would in its folder, names a scope no other type
 * of the feed names (`webhooks:manage`): a key holding only that scope reads the feed, and sees
 * only what the type's readers allow.
 */
const PROBE_EVENTS = declareEventTypes({
  'probe.noted': {
    readers: { ownerWith: 'webhooks:manage', organizationStaffWith: 'webhooks:manage' },
    description: 'A probe of the feed was noted.',
  },
});

interface FeedEvent {
  type: string;
  data: { n: number };
}

describe("/v1/events: its scopes are the declared types' own", () => {
  let t: TestApp;
  type Client = ReturnType<typeof apiClient>;
  let ownerId: string;
  /** `webhooks:manage` only: the probes it recorded. */
  let owner: Client;
  /** `webhooks:manage` only, of the house's staff: the probes of the house. */
  let staff: Client;
  /** `webhooks:manage` only, of no organisation: no probe of another key's. */
  let stranger: Client;
  /** A key that reads nothing here: the owner of the probes the others may not read as theirs. */
  let elsewhereId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const issued = await t.issueKey({ scopes: ['webhooks:manage'] });
    ownerId = issued.id;
    owner = apiClient(t.url, issued.auth);
    staff = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['webhooks:manage'], organizationId: '1' })).auth,
    );
    stranger = apiClient(t.url, (await t.issueKey({ scopes: ['webhooks:manage'] })).auth);
    elsewhereId = (await t.issueKey({ scopes: ['pets:read'] })).id;
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  /** Records probes as a feature's use case does: in a transaction, through the port. */
  const note = (events: { n: number; owner: string; organization?: number }[]) =>
    t.app.get(Transactions).run(() =>
      t.app.get(EventRecorder).record(
        events.map(({ n, owner, organization }) => ({
          type: PROBE_EVENTS['probe.noted'],
          data: { n },
          owner,
          organization,
        })),
      ),
    );
  const settled = () =>
    eventually(
      async () =>
        (
          await t.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE public_id IS NULL`)
        )[0].n === 0,
      60_000,
      'the feed to settle',
    );
  const seen = async (client: Client) => {
    const response = await client.get('/v1/events?limit=100');
    expect(response.status).toBe(200);
    return (response.body as FeedEvent[]).map(({ type, data }) => `${type} ${data.n}`);
  };

  it('lets a key holding only the new type’s scope read the feed: its own probes and its organisation’s, nothing else', async () => {
    await note([
      { n: 1, owner: ownerId },
      { n: 2, owner: elsewhereId, organization: 1 },
      { n: 3, owner: elsewhereId },
    ]);
    // A pet's event, which `webhooks:manage` does not read.
    expect(
      (await apiClient(t.url, t.auth).post('/v1/pets').send({ name: 'Rex', categoryId: 1 })).status,
    ).toBe(201);
    await settled();
    expect(await seen(owner)).toEqual(['probe.noted 1']);
    expect(await seen(staff)).toEqual(['probe.noted 2']);
    expect(await seen(stranger)).toEqual([]);
    // Its own event by id too; another's is a 404 as one that does not exist.
    const [own] = (await owner.get('/v1/events?limit=100')).body as { id: string }[];
    expect((await owner.get(`/v1/events/${own.id}`)).status).toBe(200);
    expectError(await stranger.get(`/v1/events/${own.id}`), 404, 'not_found');
  });

  it('still refuses a key whose scopes read no declared type', async () => {
    const writer = apiClient(t.url, (await t.issueKey({ scopes: ['pets:write'] })).auth);
    expectError(await writer.get('/v1/events'), 403, 'forbidden');
  });
});
