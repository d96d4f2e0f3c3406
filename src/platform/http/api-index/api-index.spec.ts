import { apiIndexOf } from './api-index';

describe('apiIndexOf', () => {
  it('links the docs page, the OpenAPI document and the errors page under the public base', () => {
    expect(apiIndexOf('https://pets.example/v1')).toEqual({
      name: 'Pet Adoption Service',
      version: '1.0.0',
      links: {
        api: 'https://pets.example/v1',
        docs: 'https://pets.example/v1/docs',
        openapi: 'https://pets.example/v1/openapi.json',
        errors: 'https://pets.example/v1/docs/errors',
      },
    });
  });
});
