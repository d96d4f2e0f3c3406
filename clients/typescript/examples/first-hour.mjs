// The client on plain Node, installed from its tarball: adds animals, reads every page of the
// available ones, renames one under its ETag, and shows a refusal's Error body. CI runs it
// against a service it started (.ci/run); it stops with an error when an answer is not as shown.
//
//   PET_API_URL=http://localhost:3000/v1 PET_API_KEY=pet_live_… node first-hour.mjs
import assert from 'node:assert/strict';
import { createPetAdoptionClient, pages, updateWithETag } from '@pet-adoption/client';

const baseUrl = process.env.PET_API_URL ?? 'http://localhost:3000/v1';
const apiKey = process.env.PET_API_KEY;
if (!apiKey) {
  console.error(
    'Set PET_API_KEY to an API key (the first run prints one; npm run apikey issues more).',
  );
  process.exit(1);
}
// Each wait for Retry-After is said, rather than a request that seems to hang for a minute.
const api = createPetAdoptionClient({
  baseUrl,
  apiKey,
  retry: {
    onRetry: ({ attempt, waitMs, response }) =>
      console.warn(`${response.status}: retry ${attempt} in ${waitMs / 1000} s`),
  },
});

const added = [];
for (const name of ['Rex', 'Bella', 'Tom']) {
  const { data, error } = await api.POST('/pets', { body: { name, categoryId: 1 } });
  assert.equal(error, undefined, error?.message);
  added.push(data);
}
console.log(`Added ${added.map((pet) => `#${pet.id} ${pet.name}`).join(', ')}.`);

const seen = [];
for await (const page of pages(api, '/pets', {
  params: { query: { status: 'available', limit: 2 } },
})) {
  assert.ok(page.length <= 2);
  seen.push(...page.map((pet) => pet.id));
}
assert.deepEqual(
  added.map((pet) => pet.id).filter((id) => seen.includes(id)),
  added.map((pet) => pet.id),
);
console.log(`Read ${seen.length} available animals, two a page.`);

const renamed = await updateWithETag(
  api,
  '/pets/{petId}',
  { path: { petId: added[0].id } },
  (pet) => ({
    name: `${pet.name} the Brave`,
  }),
);
assert.equal(renamed.name, 'Rex the Brave');
console.log(`Renamed #${renamed.id} to ${renamed.name} (version ${renamed.version}).`);

const { error } = await api.POST('/pets', { body: { categoryID: 1 } });
assert.equal(error.code, 'validation_failed');
assert.deepEqual(
  error.details.map(({ field, issue }) => `${field} ${issue}`),
  ['categoryID unknown_field', 'name required', 'categoryId required'],
);
console.log(`Refused: ${error.message} (${error.docUrl})`);
