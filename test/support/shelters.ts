import { randomUUID } from 'node:crypto';
import { apiClient } from './http';
import type { TestApp } from './test-app';

/**
 * Another shelter than the house, created through the admin API (`adminToken`, which the app was
 * started with), and a client holding a key of its staff that corrects its own animals.
 */
export async function otherShelter(
  t: TestApp,
  adminToken: string,
  { name, city }: { name: string; city: string },
) {
  const admin = apiClient(t.url, { authorization: `Bearer ${adminToken}` });
  const created = await admin
    .post('/admin/organizations')
    .send({
      name: `${name} ${randomUUID().slice(0, 8)}`,
      email: `adopt@${name.split(' ')[0].toLowerCase()}.example`,
      address: { city, country: 'GB' },
    })
    .expect(201);
  const { auth } = await t.issueKey({
    organizationId: String(created.body.id),
    scopes: ['pets:read', 'pets:write', 'pets:manage'],
  });
  return { id: created.body.id as number, staff: apiClient(t.url, auth) };
}
