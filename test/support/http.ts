import request from 'supertest';
import type { Response, Test } from 'supertest';

export { request };
export type { Response };

/** What `Error.details` holds: one entry per offending input and issue. */
export const errorDetails = expect.arrayContaining([
  {
    field: expect.any(String),
    issue: expect.stringMatching(/^(required|unknown_field|type|range|format|enum)$/),
    message: expect.any(String),
  },
]);

/**
 * The one Error body: code, message and status; the response's request id; the section of the
 * errors page that explains the code; and, for validation_failed, its details when it has any.
 */
export function errorBody(response: Response, code: string, status: number) {
  return {
    code,
    message: expect.any(String),
    status,
    ...(code === 'validation_failed' && response.body?.details ? { details: errorDetails } : {}),
    requestId: response.headers['x-request-id'],
    docUrl: expect.stringMatching(new RegExp(`^https?://[^ ]+/v1/docs/errors#${code}$`)),
  };
}

/** Asserts the one Error body shape and returns the response for further checks. */
export function expectError(response: Response, status: number, code: string): Response {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: errorBody(response, code, status),
  });
  expect(response.body.requestId).toEqual(expect.any(String));
  for (const detail of response.body.details ?? []) {
    expect(Object.keys(detail)).toEqual(['field', 'issue', 'message']);
  }
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
