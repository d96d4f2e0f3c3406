import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { WebhookSecrets } from '../application/webhook-endpoints';
import { newWebhookSecret } from '../application/webhook-signature';

const SEALED = 'aes256gcm:';

/**
 * Endpoint secrets at rest: AES-256-GCM under WEBHOOK_SECRETS_KEY (`aes256gcm:` + base64 of
 * nonce, tag and ciphertext), or as issued when no key is configured. Either form opens, so a key
 * configured later protects every secret issued or rotated from then on.
 */
@Injectable()
export class AesWebhookSecrets extends WebhookSecrets {
  constructor(private readonly key: Buffer | undefined) {
    super();
  }

  issue(): string {
    return newWebhookSecret();
  }

  seal(secret: string): string {
    if (!this.key) return secret;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SEALED + Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString('base64');
  }

  open(sealed: string): string {
    if (!sealed.startsWith(SEALED)) return sealed;
    if (!this.key)
      throw new Error('A webhook secret is encrypted, and WEBHOOK_SECRETS_KEY is unset.');
    const bytes = Buffer.from(sealed.slice(SEALED.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
