import request from 'supertest';
import type { Response, Test } from 'supertest';

export { request };
export type { Response };

/** Asserts the one Error body shape and returns the response for further checks. */
export function expectError(response: Response, status: number, code: string): Response {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { code, message: expect.any(String), status },
  });
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response;
}

/** A client of the API at `url` that sends the given headers with every request. */
export function apiClient(url: string, headers: Record<string, string> = {}) {
  const withHeaders = (test: Test) => test.set(headers);
  return {
    get: (path: string) => withHeaders(request(url).get(path)),
    post: (path: string) => withHeaders(request(url).post(path)),
    put: (path: string) => withHeaders(request(url).put(path)),
    delete: (path: string) => withHeaders(request(url).delete(path)),
    patch: (path: string) => withHeaders(request(url).patch(path)),
  };
}
