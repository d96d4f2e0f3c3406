import { apiClient, expectError } from './support/http';
import { addPet } from './support/pets';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { otherShelter } from './support/shelters';
import { DEFAULT_SCOPES } from '../src/common/scopes';
import { collectServiceLogs, ServiceLogs } from './support/service-logs';
import { ShiftedClock } from './fakes/shifted-clock';
import { Clock } from '../src/common/clock';
import { EraseExpiredApplications } from '../src/applications/application/erase-expired-applications.use-case';

const ADMIN_TOKEN = 'admin-token-for-the-applications-spec-0123456789';

/** What an adopter's integration sends: the default questionnaire (version 1) answered. */
const applicant = {
  name: 'Ana Lima',
  email: 'ana@example.com',
  address: { city: 'Bristol', country: 'GB' },
};
const answers = { household: 'Two adults, one child', housing: 'rent', landlordAllowsPets: true };
/** An applicant with every member of personal data, to look for in the service's logs. */
const fullApplicant = {
  name: 'Bea Quintero-Holm',
  email: 'bea.quintero@example.org',
  phone: '+44 117 496 0123',
  address: {
    line1: '17 Wapping Wharf',
    city: 'Clevedon',
    region: 'North Somerset',
    postalCode: 'BS21 7QX',
    country: 'GB',
  },
};
/** What of the personal data above, and of the prose answers, must never reach a log. */
const PERSONAL = [
  applicant.name,
  applicant.email,
  applicant.address.city,
  answers.household,
  fullApplicant.name,
  fullApplicant.email,
  fullApplicant.phone,
  fullApplicant.phone.replace(/ /g, ''),
  ...Object.values(fullApplicant.address).filter((part) => part !== 'GB'),
  'Lives with a cat called Mo',
];

describe('Adoption applications (CONTRACT.md v1.4)', () => {
  let t: TestApp;
  let second: TestApp;
  let staff: ReturnType<typeof apiClient>;
  let adopter: ReturnType<typeof apiClient>;
  let rival: ReturnType<typeof apiClient>;
  let stranger: ReturnType<typeof apiClient>;
  let otherStaff: ReturnType<typeof apiClient>;
  let other: Awaited<ReturnType<typeof otherShelter>>;
  let adopterKey: string;
  let petId: number;

  let logs: ServiceLogs;
  /** The first instance's clock: real time until the retention test moves it. */
  const clock = new ShiftedClock();

  beforeAll(async () => {
    // Every line both instances log, at the most verbose level, for the last test's check.
    logs = collectServiceLogs();
    const logged = { LOG_LEVEL: 'verbose', LOG_FORMAT: 'json' };
    t = await startTestApp({ ADMIN_TOKEN, ...logged }, (builder) =>
      builder.overrideProvider(Clock).useValue(clock),
    );
    second = await startTestApp(logged);
    staff = apiClient(
      t.url,
      (
        await t.issueKey({
          organizationId: '1',
          scopes: [
            ...DEFAULT_SCOPES,
            'pets:manage',
            'orders:manage',
            'applications:manage',
            'organization:manage',
          ],
        })
      ).auth,
    );
    const adopterIssued = await t.issueKey({ plan: 'free', limits: undefined });
    adopterKey = adopterIssued.id;
    adopter = apiClient(t.url, adopterIssued.auth);
    rival = apiClient(t.url, (await t.issueKey()).auth);
    stranger = apiClient(t.url, (await t.issueKey()).auth);
    other = await otherShelter(t, ADMIN_TOKEN, { name: 'Leeds Rescue', city: 'Leeds' });
    otherStaff = apiClient(
      t.url,
      (
        await t.issueKey({
          organizationId: String(other.id),
          scopes: ['applications:manage', 'applications:write', 'pets:read'],
        })
      ).auth,
    );
  });
  beforeEach(async () => {
    await resetDatabase(t.dataSource);
    petId = (await addPet(staff)).id;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    logs?.stop();
  });

  const submit = (client = adopter, body: object = { applicant, answers }, pet = petId) =>
    client.post(`/v1/pets/${pet}/applications`).send(body);
  const typesOf = async (where = '') =>
    (await t.dataSource.query(
      `SELECT type, owner_key_id::text AS owner, data FROM events WHERE type LIKE 'application.%' ${where} ORDER BY id`,
    )) as { type: string; owner: string; data: Record<string, unknown> }[];

  it('answers the default questionnaire (version 1), and PUT makes the next version under If-Match', async () => {
    const read = await stranger.get('/v1/organizations/1/questionnaire').expect(200);
    expect(read.body.version).toBe(1);
    expect(read.body.questions.map((q: { id: string }) => q.id)).toEqual([
      'household',
      'housing',
      'landlordAllowsPets',
      'otherPets',
      'hoursAlone',
      'experience',
      'message',
    ]);
    expect(read.headers.etag).toBe('"1"');
    // The second instance learns version 1 from a submission of its own.
    const onSecond = apiClient(second.url, (await t.issueKey()).auth);
    const first = await submit(onSecond, {
      applicant: { ...applicant, email: 'b@example.com' },
      answers,
    });
    expect(first.status).toBe(201);
    expect(first.body.questionnaireVersion).toBe(1);
    const questions = [
      ...read.body.questions,
      { id: 'garden', text: 'A garden?', type: 'boolean', required: true },
    ];
    const put = await staff
      .put('/v1/organizations/1/questionnaire')
      .set('If-Match', '"1"')
      .send({ questions });
    expect(put.status).toBe(200);
    expect(put.body.version).toBe(2);
    expectError(
      await staff
        .put('/v1/organizations/1/questionnaire')
        .set('If-Match', '"1"')
        .send({ questions }),
      412,
      'precondition_failed',
    );
    expectError(
      await staff
        .put('/v1/organizations/1/questionnaire')
        .send({ questions: [{ id: 'Bad id!', text: '', type: 'x', required: 1 }] }),
      400,
      'validation_failed',
    );
    expectError(
      await adopter.put('/v1/organizations/1/questionnaire').send({ questions }),
      403,
      'forbidden',
    );
    // A new application answers version 2; the garden is now required.
    const refused = expectError(await submit(), 400, 'validation_failed');
    expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(['answers.garden']);
    const created = await submit(adopter, {
      applicant,
      answers: { ...answers, garden: false },
    }).expect(201);
    expect(created.body.questionnaireVersion).toBe(2);
    // So does one through the instance that knew version 1: it answers what was saved on the other.
    const stale = { applicant: { ...applicant, email: 'c@example.com' }, answers };
    expect(
      expectError(await submit(onSecond, stale), 400, 'validation_failed').body.details,
    ).toEqual([expect.objectContaining({ field: 'answers.garden' })]);
    const current = await submit(onSecond, { ...stale, answers: { ...answers, garden: true } });
    expect(current.status).toBe(201);
    expect(current.body.questionnaireVersion).toBe(2);
  });

  it('submits: 201 with Location, the applicant view, and application.submitted for the two audiences', async () => {
    const response = await submit().set('Idempotency-Key', 'a-1');
    expect(response.status).toBe(201);
    expect(response.headers.location).toMatch(new RegExp(`/applications/${response.body.id}$`));
    expect(response.body).toEqual({
      id: expect.any(Number),
      petId,
      organizationId: 1,
      status: 'submitted',
      applicant: {
        ...applicant,
        phone: null,
        address: { ...applicant.address, line1: null, region: null, postalCode: null },
      },
      answers,
      questionnaireVersion: 1,
      decisionReason: null,
      orderId: null,
      closedReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      version: 1,
    });
    const replay = await submit().set('Idempotency-Key', 'a-1');
    expect(replay.body).toEqual(response.body);
    const events = await typesOf();
    expect(events).toEqual([
      { type: 'application.submitted', owner: adopterKey, data: response.body },
    ]);
  });

  it('refuses answers that do not fit, naming each question, and refuses duplicates, sold pets and missing pets', async () => {
    const bad = expectError(
      await submit(adopter, {
        applicant: { ...applicant, email: 'nope', address: { city: 'X', country: 'XX' } },
        answers: { housing: 'castle', hoursAlone: 'many', pony: 1 },
      }),
      400,
      'validation_failed',
    );
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        'answers.household',
        'answers.housing',
        'answers.hoursAlone',
        'answers.pony',
        'applicant.address.country',
        'applicant.email',
      ].sort(),
    );
    await submit().expect(201);
    expectError(
      await submit(adopter, { applicant: { ...applicant, email: 'ANA@example.com' }, answers }),
      409,
      'duplicate_application',
    );
    await submit(adopter, {
      applicant: { ...applicant, email: 'ben@example.com' },
      answers,
    }).expect(201);
    expectError(await submit(adopter, { applicant, answers }, petId + 1000), 404, 'not_found');
    await staff.patch(`/v1/pets/${petId}`).send({ status: 'sold' });
    const sold = (await addPet(staff)).id;
    await t.dataSource.query(`UPDATE pets SET status = 'sold' WHERE id = $1`, [sold]);
    expectError(await submit(adopter, { applicant, answers }, sold), 409, 'pet_not_available');
    expectError(
      await submit(apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth)),
      403,
      'forbidden',
    );
  });

  it("caps a key's open applications as its plan caps open orders (free: 5)", async () => {
    for (let i = 0; i < 5; i += 1) {
      await submit(adopter, {
        applicant: { ...applicant, email: `a${i}@example.com` },
        answers,
      }).expect(201);
    }
    expectError(
      await submit(adopter, { applicant: { ...applicant, email: 'a9@example.com' }, answers }),
      409,
      'limit_reached',
    );
  });

  it('caps them exactly when a key submits many at once, over two instances', async () => {
    const { auth } = await t.issueKey({ plan: 'free', limits: undefined });
    const answered = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        submit(apiClient(i % 2 === 0 ? t.url : second.url, auth), {
          applicant: { ...applicant, email: `c${i}@example.com` },
          answers,
        }),
      ),
    );
    expect(answered.map(({ status }) => status).sort()).toEqual([
      201, 201, 201, 201, 201, 409, 409, 409,
    ]);
    for (const refused of answered.filter(({ status }) => status === 409)) {
      expectError(refused, 409, 'limit_reached');
    }
  });

  it('shows an application to its applicant and its staff only; notes and assignee to staff only', async () => {
    const { body: created } = await submit().expect(201);
    const note = () =>
      staff
        .post(`/v1/applications/${created.id}/notes`)
        .set('idempotency-key', `note-${created.id}`)
        .send({ text: 'Called her.' });
    const noted = await note().expect(201);
    // A retry under the same Idempotency-Key is the same note, not a second one.
    const retried = await note().expect(201);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.body).toEqual(noted.body);
    await staff
      .patch(`/v1/applications/${created.id}`)
      .send({ status: 'under_review', assigneeKeyId: adopterKey })
      .expect(200);
    const asStaff = await staff.get(`/v1/applications/${created.id}`).expect(200);
    expect(asStaff.body.notes).toEqual([expect.objectContaining({ id: 1, text: 'Called her.' })]);
    expect(asStaff.body.assigneeKeyId).toBe(adopterKey);
    const asApplicant = await adopter.get(`/v1/applications/${created.id}`).expect(200);
    expect(asApplicant.body).not.toHaveProperty('notes');
    expect(asApplicant.body).not.toHaveProperty('assigneeKeyId');
    expect(asApplicant.headers.etag).toBe(`"${asApplicant.body.version}"`);
    expectError(await stranger.get(`/v1/applications/${created.id}`), 404, 'not_found');
    expectError(await otherStaff.get(`/v1/applications/${created.id}`), 404, 'not_found');
    expect((await stranger.get('/v1/applications').expect(200)).body).toEqual([]);
    expect((await adopter.get('/v1/applications').expect(200)).body).toHaveLength(1);
    expect((await staff.get('/v1/applications?status=under_review').expect(200)).body).toHaveLength(
      1,
    );
    expect((await staff.get('/v1/applications?status=submitted').expect(200)).body).toHaveLength(0);
    expectError(await staff.get('/v1/applications?status=nope'), 400, 'validation_failed');
    expectError(await staff.get('/v1/applications?colour=red'), 400, 'validation_failed');
    // Events: the two audiences, never a note, never the assignee.
    for (const { data } of await typesOf()) {
      expect(data).not.toHaveProperty('notes');
      expect(data).not.toHaveProperty('assigneeKeyId');
    }
    const feed = async (client: ReturnType<typeof apiClient>) =>
      (await client.get('/v1/events?limit=100').expect(200)).body
        .map((e: { type: string }) => e.type)
        .filter((type: string) => type.startsWith('application.'));
    await waitFor(async () => (await feed(adopter)).length === 2);
    expect(await feed(adopter)).toEqual(['application.submitted', 'application.updated']);
    expect(await feed(staff)).toEqual(['application.submitted', 'application.updated']);
    expect(await feed(stranger)).toEqual([]);
    expect(await feed(otherStaff)).toEqual([]);
  });

  it('moves as the contract says, and refuses every other move with 409', async () => {
    const { body: a } = await submit().expect(201);
    expectError(
      await adopter.patch(`/v1/applications/${a.id}`).send({ status: 'approved' }),
      409,
      'invalid_transition',
    );
    expectError(
      await staff.patch(`/v1/applications/${a.id}`).send({ status: 'withdrawn' }),
      409,
      'invalid_transition',
    );
    expectError(
      await staff.patch(`/v1/applications/${a.id}`).send({ status: 'denied' }),
      400,
      'validation_failed',
    );
    expectError(
      await staff
        .patch(`/v1/applications/${a.id}`)
        .set('If-Match', '"9"')
        .send({ status: 'under_review' }),
      412,
      'precondition_failed',
    );
    await staff
      .patch(`/v1/applications/${a.id}`)
      .send({ status: 'denied', decisionReason: 'No garden.' })
      .expect(200);
    for (const status of ['under_review', 'approved']) {
      expectError(
        await staff.patch(`/v1/applications/${a.id}`).send({ status }),
        409,
        'invalid_transition',
      );
    }
    expectError(
      await adopter.patch(`/v1/applications/${a.id}`).send({ status: 'withdrawn' }),
      409,
      'invalid_transition',
    );
    const { body: b } = await submit(adopter, {
      applicant: { ...applicant, email: 'b@example.com' },
      answers,
    }).expect(201);
    const edited = await adopter
      .patch(`/v1/applications/${b.id}`)
      .send({ answers: { ...answers, message: 'Hi' } })
      .expect(200);
    expect(edited.body.answers.message).toBe('Hi');
    await staff.patch(`/v1/applications/${b.id}`).send({ status: 'under_review' }).expect(200);
    expectError(
      await adopter.patch(`/v1/applications/${b.id}`).send({ answers }),
      409,
      'invalid_transition',
    );
    const withdrawn = await adopter
      .patch(`/v1/applications/${b.id}`)
      .send({ status: 'withdrawn' })
      .expect(200);
    expect(withdrawn.body.status).toBe('withdrawn');
  });

  it('approval holds the pet through an order; delivery adopts it and closes every competitor in the same transaction', async () => {
    const { body: mine } = await submit().expect(201);
    const { body: theirs } = await submit(rival).expect(201);
    const approved = await staff
      .patch(`/v1/applications/${mine.id}`)
      .send({ status: 'approved', decisionReason: 'Lovely home.' })
      .expect(200);
    expect(approved.body.orderId).toEqual(expect.any(Number));
    expect((await staff.get(`/v1/pets/${petId}`).expect(200)).body.status).toBe('pending');
    const order = await adopter.get(`/v1/store/orders/${approved.body.orderId}`).expect(200);
    expect(order.body.status).toBe('placed');
    expectError(
      await staff.patch(`/v1/applications/${theirs.id}`).send({ status: 'approved' }),
      409,
      'pet_not_available',
    );
    await staff.patch(`/v1/store/orders/${order.body.id}`).send({ status: 'approved' }).expect(200);
    await staff
      .patch(`/v1/store/orders/${order.body.id}`)
      .send({ status: 'delivered' })
      .expect(200);
    expect((await adopter.get(`/v1/applications/${mine.id}`).expect(200)).body.status).toBe(
      'adopted',
    );
    const closed = (await rival.get(`/v1/applications/${theirs.id}`).expect(200)).body;
    expect({ status: closed.status, closedReason: closed.closedReason }).toEqual({
      status: 'closed',
      closedReason: 'pet_adopted',
    });
    // The service's events carry the application as its applicant reads it.
    const events = await typesOf(`AND type = 'application.closed'`);
    expect(events).toEqual([expect.objectContaining({ data: closed })]);
  });

  it("the hold's lapse closes the application (hold_lapsed); the applicant's withdrawal cancels the order; a removed pet closes the rest", async () => {
    const { body: a } = await submit().expect(201);
    const { body: approved } = await staff
      .patch(`/v1/applications/${a.id}`)
      .send({ status: 'approved' })
      .expect(200);
    await staff
      .patch(`/v1/store/orders/${approved.orderId}`)
      .send({ status: 'cancelled' })
      .expect(200);
    const lapsed = (await adopter.get(`/v1/applications/${a.id}`).expect(200)).body;
    expect([lapsed.status, lapsed.closedReason]).toEqual(['closed', 'hold_lapsed']);
    const { body: b } = await submit(rival).expect(201);
    const { body: held } = await staff
      .patch(`/v1/applications/${b.id}`)
      .send({ status: 'approved' })
      .expect(200);
    await rival.patch(`/v1/applications/${b.id}`).send({ status: 'withdrawn' }).expect(200);
    expect((await staff.get(`/v1/store/orders/${held.orderId}`).expect(200)).body.status).toBe(
      'cancelled',
    );
    expect((await rival.get(`/v1/applications/${b.id}`).expect(200)).body.status).toBe('withdrawn');
    expect((await staff.get(`/v1/pets/${petId}`).expect(200)).body.status).toBe('available');
    const { body: c } = await submit(stranger).expect(201);
    await staff.delete(`/v1/pets/${petId}`).expect(204);
    const removed = (await stranger.get(`/v1/applications/${c.id}`).expect(200)).body;
    expect([removed.status, removed.closedReason]).toEqual(['closed', 'pet_removed']);
    // A deleted pet is one that was: 409, not the 404 of a pet that never existed.
    expectError(await submit(stranger), 409, 'pet_not_available');
  });

  it('a reader never sees the pet sold while a competitor is still open (one transaction)', async () => {
    const { body: mine } = await submit().expect(201);
    const { body: theirs } = await submit(rival).expect(201);
    const { body: approved } = await staff
      .patch(`/v1/applications/${mine.id}`)
      .send({ status: 'approved' })
      .expect(200);
    const order = `/v1/store/orders/${approved.orderId}`;
    await staff.patch(order).send({ status: 'approved' }).expect(200);
    const { auth } = await t.issueKey({
      organizationId: '1',
      scopes: ['pets:read', 'applications:manage'],
    });
    // Pet first, then the competitor: once a read sees `sold`, the delivery has committed, so the
    // competitor read after it must be closed unless the two changed in different transactions.
    const seen: [string, string][] = [];
    let delivered = false;
    const reader = async (url: string) => {
      const client = apiClient(url, auth);
      for (let after = 0; after < 3;) {
        const pet = (await client.get(`/v1/pets/${petId}`).expect(200)).body.status as string;
        const competitor = (await client.get(`/v1/applications/${theirs.id}`).expect(200)).body;
        seen.push([pet, competitor.status]);
        if (delivered) after += 1;
      }
    };
    const readers = [t.url, second.url, t.url, second.url].map(reader);
    // The readers under way, each state before the delivery seen, however slow the machine.
    while (seen.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    await staff.patch(order).send({ status: 'delivered' }).expect(200);
    delivered = true;
    await Promise.all(readers);
    expect(seen.filter(([pet, competitor]) => pet === 'sold' && competitor !== 'closed')).toEqual(
      [],
    );
    expect(seen).toContainEqual(['pending', 'submitted']);
    expect(seen).toContainEqual(['sold', 'closed']);
  });

  it('of six simultaneous approvals of one pet over two instances, exactly one wins', async () => {
    const staffTwo = apiClient(
      second.url,
      (
        await t.issueKey({
          organizationId: '1',
          scopes: ['applications:manage', 'applications:write'],
        })
      ).auth,
    );
    const ids: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      ids.push((await submit(apiClient(t.url, (await t.issueKey()).auth)).expect(201)).body.id);
    }
    const answers6 = await Promise.all(
      ids.map((id, i) =>
        (i % 2 ? staffTwo : staff).patch(`/v1/applications/${id}`).send({ status: 'approved' }),
      ),
    );
    expect(answers6.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM applications WHERE status = 'approved'`,
    );
    const [{ o }] = await t.dataSource.query(`SELECT count(*)::int AS o FROM orders`);
    expect([n, o]).toEqual([1, 1]);
  });

  it("counts a pet's open applications for the staff reviewing them, in one aggregate per page; to others the member is absent", async () => {
    const { body: a } = await submit().expect(201);
    await submit(rival).expect(201);
    const { body: c } = await submit(stranger).expect(201);
    await staff
      .patch(`/v1/applications/${c.id}`)
      .send({ status: 'denied', decisionReason: 'Too far.' })
      .expect(200);
    await staff.patch(`/v1/applications/${a.id}`).send({ status: 'approved' }).expect(200);
    const theirs = (await addPet(other.staff)).id;
    const listed = (await staff.get(`/v1/pets?id=${petId},${theirs}`).expect(200)).body;
    // Approved and submitted count; denied does not. Another organisation's pet: absent.
    expect(listed.map((p: { openApplications?: number }) => p.openApplications)).toEqual([
      2,
      undefined,
    ]);
    expect(listed[1]).not.toHaveProperty('openApplications');
    expect((await staff.get(`/v1/pets/${petId}`).expect(200)).body.openApplications).toBe(2);
    expect(
      (await staff.patch(`/v1/pets/${petId}`).send({ name: 'Rexa' }).expect(200)).body
        .openApplications,
    ).toBe(2);
    const added = await staff.post('/v1/pets').send({ name: 'Ada', categoryId: 1 }).expect(201);
    expect(added.body.openApplications).toBe(0);
    for (const reader of [adopter, stranger, otherStaff, apiClient(t.url, t.auth)]) {
      const page = (await reader.get(`/v1/pets?id=${petId}`).expect(200)).body;
      expect(page[0]).not.toHaveProperty('openApplications');
      expect((await reader.get(`/v1/pets/${petId}`).expect(200)).body).not.toHaveProperty(
        'openApplications',
      );
    }
  });

  it("counts one organisation's pets in the inventory; a strict organizationId, zeros for an unknown one", async () => {
    await addPet(staff, { status: 'sold' });
    await addPet(other.staff);
    await addPet(other.staff, { status: 'pending' });
    const gone = (await addPet(other.staff)).id;
    await other.staff.delete(`/v1/pets/${gone}`).expect(204);
    const inventory = (query: string) => stranger.get(`/v1/store/inventory${query}`);
    expect((await inventory('?organizationId=1').expect(200)).body).toEqual({
      available: 1,
      pending: 0,
      sold: 1,
    });
    expect((await inventory(`?organizationId=${other.id}`).expect(200)).body).toEqual({
      available: 1,
      pending: 1,
      sold: 0,
    });
    expect((await inventory('?organizationId=999999').expect(200)).body).toEqual({
      available: 0,
      pending: 0,
      sold: 0,
    });
    for (const bad of ['abc', '0', '-1', '1.5', '9007199254740992', '1&organizationId=2', '']) {
      const refused = expectError(
        await inventory(`?organizationId=${bad}`),
        400,
        'validation_failed',
      );
      expect(refused.body.details[0].field).toBe('organizationId');
    }
    expectError(await inventory('?organisationId=1'), 400, 'validation_failed');
  });

  it('erases the applicant for good: personal data and text answers null, status, dates and decision kept', async () => {
    const { body: a } = await submit().expect(201);
    await staff
      .patch(`/v1/applications/${a.id}`)
      .send({ status: 'denied', decisionReason: 'No.' })
      .expect(200);
    const before = (await adopter.get(`/v1/applications/${a.id}`)).body;
    await adopter.delete(`/v1/applications/${a.id}/applicant`).expect(204);
    const after = (await staff.get(`/v1/applications/${a.id}`).expect(200)).body;
    expect(after.applicant).toEqual({ name: null, email: null, phone: null, address: null });
    expect(after.answers).toEqual({ household: null, housing: 'rent', landlordAllowsPets: true });
    expect([after.status, after.decisionReason, after.createdAt, after.updatedAt]).toEqual([
      'denied',
      'No.',
      before.createdAt,
      before.updatedAt,
    ]);
    const [row] = await t.dataSource.query(
      `SELECT applicant::text, answers::text FROM applications WHERE id = $1`,
      [a.id],
    );
    expect(JSON.stringify(row)).not.toMatch(/Ana|ana@example|Bristol|Two adults/);
    expectError(await stranger.delete(`/v1/applications/${a.id}/applicant`), 404, 'not_found');
  });

  it('erasing an open application closes it (erased) and, when approved, releases its hold', async () => {
    const { body: a } = await submit().expect(201);
    const { body: approved } = await staff
      .patch(`/v1/applications/${a.id}`)
      .send({ status: 'approved' })
      .expect(200);
    expect((await staff.get(`/v1/pets/${petId}`).expect(200)).body.status).toBe('pending');
    await adopter.delete(`/v1/applications/${a.id}/applicant`).expect(204);
    const after = (await staff.get(`/v1/applications/${a.id}`).expect(200)).body;
    expect([after.status, after.closedReason]).toEqual(['closed', 'erased']);
    expect(after.applicant).toEqual({ name: null, email: null, phone: null, address: null });
    const order = (await staff.get(`/v1/store/orders/${approved.orderId}`).expect(200)).body;
    expect(order.status).toBe('cancelled');
    expect((await staff.get(`/v1/pets/${petId}`).expect(200)).body.status).toBe('available');
  });

  it('erases ended applications APPLICATION_RETENTION_DAYS after their last change, keeping status and decision; open ones never', async () => {
    const days = t.config.applications.retentionDays;
    expect(days).toBe(730);
    const { body: denied } = await submit().expect(201);
    await staff
      .patch(`/v1/applications/${denied.id}`)
      .send({ status: 'denied', decisionReason: 'Not this time.' })
      .expect(200);
    const { body: withdrawn } = await submit(rival).expect(201);
    await rival.patch(`/v1/applications/${withdrawn.id}`).send({ status: 'withdrawn' }).expect(200);
    const { body: lapsed } = await submit(stranger).expect(201);
    const { body: held } = await staff
      .patch(`/v1/applications/${lapsed.id}`)
      .send({ status: 'approved' })
      .expect(200);
    await staff.patch(`/v1/store/orders/${held.orderId}`).send({ status: 'cancelled' }).expect(200);
    const { body: open } = await submit(adopter, {
      applicant: { ...applicant, email: 'still.open@example.com' },
      answers,
    }).expect(201);
    const read = async (id: number) => (await staff.get(`/v1/applications/${id}`).expect(200)).body;
    const before = await Promise.all([denied, withdrawn, lapsed, open].map((a) => read(a.id)));
    // What the retention sweeper's step does, at the configured number of days.
    const sweep = () => t.app.get(EraseExpiredApplications).execute(days);
    const DAY_MS = 86_400_000;
    try {
      // A minute inside the window: every applicant kept.
      clock.shiftMs = days * DAY_MS - 60_000;
      expect(await sweep()).toBe(0);
      expect(await Promise.all(before.map((a) => read(a.id)))).toEqual(before);
      // A minute past it: the three ended ones erased, the open one kept.
      clock.shiftMs = days * DAY_MS + 60_000;
      expect(await sweep()).toBe(3);
      expect(await sweep()).toBe(0);
    } finally {
      clock.shiftMs = 0;
    }
    const after = await Promise.all(before.map((a) => read(a.id)));
    for (const [i, erased] of after.slice(0, 3).entries()) {
      expect(erased).toEqual({
        ...before[i],
        applicant: { name: null, email: null, phone: null, address: null },
        answers: { ...before[i].answers, household: null },
        // A change of what it reads as (its ETag moves); its dates stay, as the contract says.
        version: before[i].version + 1,
      });
    }
    expect(after.slice(0, 3).map((a) => [a.status, a.closedReason, a.decisionReason])).toEqual([
      ['denied', null, 'Not this time.'],
      ['withdrawn', null, null],
      ['closed', 'hold_lapsed', null],
    ]);
    expect(after[3]).toEqual(before[3]);
  });

  it("goes through every operation with a full applicant, refusals included, for the logs' check below", async () => {
    const full = { applicant: fullApplicant, answers: { ...answers, otherPets: PERSONAL.at(-1) } };
    const refused = await submit(adopter, {
      applicant: { ...fullApplicant, email: 'bea.quintero@example' },
      answers: { ...full.answers, housing: fullApplicant.address.line1 },
    });
    expectError(refused, 400, 'validation_failed');
    const { body: a } = await submit(adopter, full).set('Idempotency-Key', 'logs-1').expect(201);
    await submit(adopter, full).set('Idempotency-Key', 'logs-1').expect(201);
    expectError(await submit(adopter, full), 409, 'duplicate_application');
    await adopter
      .patch(`/v1/applications/${a.id}`)
      .send({ applicant: { ...fullApplicant, phone: '+44 117 496 0999' } })
      .expect(200);
    await staff.post(`/v1/applications/${a.id}/notes`).send({ text: 'Called back.' }).expect(201);
    await staff.get(`/v1/applications?status=submitted`).expect(200);
    const { body: approved } = await staff
      .patch(`/v1/applications/${a.id}`)
      .send({ status: 'approved' })
      .expect(200);
    expectError(
      await adopter.patch(`/v1/applications/${a.id}`).send({ applicant: fullApplicant }),
      409,
      'invalid_transition',
    );
    await adopter.patch(`/v1/applications/${a.id}`).send({ status: 'withdrawn' }).expect(200);
    expect(approved.orderId).toEqual(expect.any(Number));
    const { body: b } = await submit(rival, full).expect(201);
    await staff
      .patch(`/v1/applications/${b.id}`)
      .send({ status: 'denied', decisionReason: 'Not this time.' })
      .expect(200);
    await rival.delete(`/v1/applications/${b.id}/applicant`).expect(204);
    expectError(await stranger.get(`/v1/applications/${b.id}`), 404, 'not_found');
  });

  it("never logs the applicant's name, email, phone, address or prose answers (every line of this file's instances)", async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const text = logs.lines.join('\n');
    // Not vacuous: the request lines of the applications' routes are there.
    expect(text).toContain('"route":"/v1/pets/:petId/applications"');
    expect(text).toContain('"route":"/v1/applications/:applicationId"');
    for (const personal of PERSONAL) {
      expect({ personal, logged: text.includes(personal) }).toEqual({ personal, logged: false });
    }
    expect(text.toLowerCase()).not.toContain('quintero');
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('Timed out waiting.');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
