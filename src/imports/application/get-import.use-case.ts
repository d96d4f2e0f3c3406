import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Import } from '../domain/import';
import { ImportNotFoundError } from '../domain/import.errors';
import { ImportRepository } from './import.repository';

/** GET /v1/imports/{id}: an import, to its organisation's staff (anyone else: not found). */
@Injectable()
export class GetImport {
  constructor(private readonly imports: ImportRepository) {}

  async execute(requester: Requester, id: number): Promise<Import> {
    checkScope(['pets:read'], requester.scopes);
    const found =
      requester.organizationId === null
        ? null
        : await this.imports.findOf(id, requester.organizationId);
    if (!found) throw new ImportNotFoundError(id);
    return found;
  }
}
