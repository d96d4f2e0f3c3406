import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';
import { VALIDATION_ISSUES } from './api-error';

/** Where the errors page is served, under /v1 (counted like the rest of the documentation). */
export const ERROR_PAGE_PATH = '/docs/errors';

/**
 * Where the served documentation explains each error code: a section of the errors page,
 * `${PUBLIC_BASE_URL}/docs/errors#<code>`, written in every error body as `docUrl`.
 */
export class ErrorDocumentation {
  readonly pageUrl: string;
  private readonly urls: Map<ErrorCode, string>;

  constructor(publicBaseUrl: string) {
    this.pageUrl = `${publicBaseUrl}${ERROR_PAGE_PATH}`;
    this.urls = new Map(
      Object.keys(ERROR_CODES).map((code) => [code as ErrorCode, `${this.pageUrl}#${code}`]),
    );
  }

  urlOf(code: ErrorCode): string {
    return this.urls.get(code)!;
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The catalogue's text as HTML: escaped, with its `code` spans kept. */
const inline = (text: string) =>
  escapeHtml(text).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);

const ISSUE_MEANINGS: Record<(typeof VALIDATION_ISSUES)[number], string> = {
  required: 'the input is absent: send it',
  unknown_field:
    'no such field or parameter: the message names the closest known one and lists them all',
  type: 'the value is of another type (a string for an integer, an object for a string, given twice)',
  range: 'the value is out of its bounds (a number, a length, a count of items)',
  format:
    'the value has the right type but not the required form (an id, a URL, the characters of a text)',
  enum: 'the value is not one of those allowed: the message lists them',
};

/**
 * The errors page: one section per code of the catalogue (its id is the code), saying when it is
 * answered and what to do, and what every error body holds. Written once, from the catalogue.
 */
export function errorPage(): string {
  const sections = Object.entries(ERROR_CODES).map(
    ([code, { status, description, remedy }]) => `
<section id="${code}">
  <h2><code>${code}</code> <small>${status}</small></h2>
  <p>${inline(description)}</p>
  <p><strong>What to do:</strong> ${inline(remedy)}</p>
</section>`,
  );
  const issues = VALIDATION_ISSUES.map(
    (issue) => `<li><code>${issue}</code>: ${escapeHtml(ISSUE_MEANINGS[issue])}</li>`,
  ).join('\n    ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Errors: Pet Adoption Service API</title>
<style>body{font-family:sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}section{border-top:1px solid #ddd}small{color:#666}</style>
</head>
<body>
<h1>Errors</h1>
<p>Every error answer is <code>application/json</code>:
<code>{"code", "message", "status", "requestId", "docUrl"}</code>, and for
<code>validation_failed</code> <code>details</code>. <code>code</code> is one of the codes below
(a closed set); <code>message</code> says what is wrong and how to put it right;
<code>status</code> repeats the HTTP status; <code>requestId</code> is the response's
<code>X-Request-Id</code> (give it when you report a problem); <code>docUrl</code> is the section of
this page that explains the code.</p>
<p><code>details</code> lists each offending input once per issue:
<code>{"field", "issue", "message"}</code>, where <code>field</code> names a body field (a dotted
path when nested), a query or path parameter, or a header, and <code>issue</code> is one of:</p>
<ul>
    ${issues}
</ul>
<p>The interactive documentation is <a href="../docs">here</a>; the OpenAPI document is
<a href="../openapi.json">openapi.json</a>.</p>
${sections.join('\n')}
</body>
</html>
`;
}

/** Serves the errors page at `path`, written once; no key is needed, as for the rest of the documentation. */
export function serveErrorPage(fastify: FastifyInstance, path: string): void {
  const page = errorPage();
  fastify.get(path, (_request, reply) => {
    void reply.type('text/html; charset=utf-8').send(page);
  });
}
