import {
  CategoryUpdate,
  createPetAdoptionClient,
  NewOrder,
  NewPet,
  PetUpdate,
} from '../clients/typescript/src';
import { petBody } from './support/pets';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * The service, driven through the client generated from its committed openapi.json: what a client
 * author gets, compiled against the generated types (npm run lint type-checks this file).
 */
describe('the typed client (clients/typescript)', () => {
  let t: TestApp;
  let api: ReturnType<typeof createPetAdoptionClient>;

  beforeAll(async () => {
    t = await startTestApp();
    api = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: t.auth.authorization.replace(/^Bearer /, ''),
    });
    await resetDatabase(t.dataSource);
  });
  afterAll(() => t.close());

  it('creates a pet without status, as the specification allows, and gets it back available', async () => {
    const body: NewPet = { name: 'Rex', categoryId: 1 };
    const { data, error, response } = await api.POST('/pets', { body });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data).toEqual(
      petBody({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: 'available' }),
    );
  });

  it('lists pets with a typed query', async () => {
    const { data } = await api.GET('/pets', {
      params: { query: { status: 'available', limit: 5 } },
    });
    expect(data?.map((pet) => pet.name)).toEqual(['Rex']);
  });

  it('gets a typed Error body for a 400', async () => {
    const { data, error, response } = await api.GET('/pets', { params: { query: { limit: 0 } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toEqual({
      code: 'validation_failed',
      message: expect.stringMatching(/limit/),
      status: 400,
      details: [
        { field: 'limit', issue: 'range', message: 'limit must be an integer from 1 to 100' },
      ],
      requestId: response.headers.get('x-request-id'),
      docUrl: expect.stringMatching(/\/v1\/docs\/errors#validation_failed$/),
    });
  });

  it('orders a pet, cancels the order by merge patch, and reads the inventory', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Tom', categoryId: 2 } });
    const body: NewOrder = { petId: pet!.id };
    const placed = await api.POST('/store/orders', { body });
    expect(placed.response.status).toBe(201);
    expect(placed.data).toMatchObject({ petId: pet!.id, status: 'placed' });
    expect((await api.GET('/store/inventory')).data).toEqual({ available: 1, pending: 1, sold: 0 });
    const cancelled = await api.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: placed.data!.id } },
      body: { status: 'cancelled' },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(cancelled.data?.status).toBe('cancelled');
    const again = await api.POST('/store/orders', { body: { petId: 999_999 } });
    expect(again.error).toEqual({
      code: 'not_found',
      message: 'No pet with id 999999.',
      status: 404,
      requestId: again.response.headers.get('x-request-id'),
      docUrl: expect.stringMatching(/\/v1\/docs\/errors#not_found$/),
    });
  });
  it('renames a pet under its ETag, names its category, finds it, and removes it', async () => {
    const created = await api.POST('/pets', { body: { name: 'Kit', categoryId: 9 } });
    const petId = created.data!.id;
    const body: PetUpdate = { name: 'Kitty' };
    const renamed = await api.PATCH('/pets/{petId}', {
      params: { path: { petId }, header: { 'If-Match': created.response.headers.get('etag')! } },
      body,
    });
    expect(renamed.data).toMatchObject({ name: 'Kitty', version: 2 });
    const stale = await api.PATCH('/pets/{petId}', {
      params: { path: { petId }, header: { 'If-Match': '"1"' } },
      body: { status: 'sold' },
    });
    expect(stale.error?.code).toBe('precondition_failed');
    const naming: CategoryUpdate = { name: 'Cats' };
    const named = await api.PUT('/categories/{categoryId}', {
      params: { path: { categoryId: 9 } },
      body: naming,
    });
    expect(named.data).toEqual({ id: 9, name: 'Cats' });
    const found = await api.GET('/pets', { params: { query: { name: 'kitt', categoryId: 9 } } });
    expect(found.data?.map((pet) => pet.id)).toEqual([petId]);
    const removed = await api.DELETE('/pets/{petId}', { params: { path: { petId } } });
    expect(removed.response.status).toBe(204);
    expect((await api.GET('/categories')).data).toContainEqual({ id: 9, name: 'Cats' });
  });
});
