import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  ApplicationId,
  isStaffFor,
  MAX_NOTES,
  Note,
  NOTE_TEXT,
  viewFor,
} from '../domain/application';
import { ApplicationNotFoundError, InvalidApplicationError } from '../domain/application.errors';
import { isText } from '../domain/questionnaire';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { ApplicationRepository } from './application.repository';

/** A note added, or the one a retry with the same Idempotency-Key added before. */
export interface AddedNote {
  note: Note;
  replayed: boolean;
}

/** A staff note on an application: read by its staff only, in no event. */
@Injectable()
export class AddApplicationNote {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly idempotency: Idempotency,
  ) {}

  async execute(
    requester: Requester,
    id: ApplicationId,
    text: unknown,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<AddedNote> {
    checkScope(['applications:manage'], requester.scopes);
    const add = () => this.add(requester, id, text);
    if (!idempotencyKey) return { note: await add(), replayed: false };
    const { value, replayed } = await this.idempotency.once(
      { ...idempotencyKey, fingerprint: fingerprintOf(['addApplicationNote', id, String(text)]) },
      add,
    );
    return { note: value, replayed };
  }

  private async add(requester: Requester, id: ApplicationId, text: unknown): Promise<Note> {
    if (!isText(text, NOTE_TEXT.max)) {
      throw new InvalidApplicationError([
        {
          field: 'text',
          issue: 'range',
          message: `text must be text of 1 to ${NOTE_TEXT.max} characters`,
        },
      ]);
    }
    const changed = await this.applications.change(id, 'plain', undefined, (current) => {
      if (!isStaffFor(requester, current)) throw new ApplicationNotFoundError(id);
      if (current.notes.length >= MAX_NOTES) {
        throw new InvalidApplicationError([
          {
            field: 'text',
            issue: 'range',
            message: `an application holds at most ${MAX_NOTES} notes`,
          },
        ]);
      }
      return { note: { text: (text as string).trim(), authorKeyId: requester.keyId } };
    });
    if (!changed || !viewFor(requester, changed.application))
      throw new ApplicationNotFoundError(id);
    return changed.application.notes[changed.application.notes.length - 1];
  }
}
