import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Import, ImportFormat } from '../domain/import';
import { NoOrganizationToImportToError } from '../domain/import.errors';
import { ImportRepository } from './import.repository';

export interface Submission {
  import: Import;
  /** True when this answers a retry: the import was made by an earlier request. */
  replayed: boolean;
}

/**
 * POST /v1/imports: a shelter's file kept as an import, `queued` for the background work of any
 * instance (ProcessImports). A retry with the same key and file is the same import.
 */
@Injectable()
export class SubmitImport {
  constructor(
    private readonly imports: ImportRepository,
    private readonly idempotency: Idempotency,
  ) {}

  async execute(
    requester: Requester,
    file: { bytes: Uint8Array; format: ImportFormat; dryRun: boolean },
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Submission> {
    checkScope(['pets:manage'], requester.scopes);
    const organizationId = requester.organizationId;
    if (organizationId === null) throw new NoOrganizationToImportToError();
    const add = () =>
      this.imports.add({
        organizationId,
        format: file.format,
        dryRun: file.dryRun,
        file: file.bytes,
      });
    if (!idempotencyKey) return { import: await add(), replayed: false };
    const digest = createHash('sha256').update(file.bytes).digest('base64url');
    const fingerprint = fingerprintOf([file.format, file.dryRun, digest]);
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint },
      add,
    );
    // A retry answers the import as it stands now, not as it was queued.
    const current = replayed ? await this.imports.findOf(value.id, organizationId) : null;
    return { import: current ?? value, replayed };
  }
}
