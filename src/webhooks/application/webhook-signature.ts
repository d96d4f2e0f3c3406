import { createHmac, randomBytes } from 'node:crypto';

/** Secrets as Standard Webhooks writes them: `whsec_` and the base64 of 32 random bytes. */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-signature` header of a delivery, as the Standard Webhooks specification says:
 * `v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's bytes, one per
 * secret, space-separated (two for the day after a rotation).
 */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
      const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
}
