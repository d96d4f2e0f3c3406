import { Injectable } from '@nestjs/common';
import { NewEvent } from '../../common/events/event';
import { EventReaders } from '../../common/events/event-types';
import { EventRecorder } from '../../common/events/event-recorder';
import { SqlStatement, SqlStatements } from '../database/sql-statements';

/**
 * Every event of a change in one statement, in the order given. `data` is `json`, not `jsonb`:
 * an event says its object with the members in the order the API answers them. The position in
 * the feed is given at commit (CreateEvents1795220500000), not here.
 */
const RECORD: SqlStatement = {
  name: 'events_record',
  text: `INSERT INTO events (type, readers, read_scope, owner_scope, staff_scope, owner_key_id,
                             organization_id, data)
         SELECT e->>'type', e->>'readers', e->>'readScope', e->>'ownerScope', e->>'staffScope',
                (e->>'owner')::bigint, (e->>'organization')::bigint, e->'data'
           FROM json_array_elements($1::json) WITH ORDINALITY AS recorded(e, n) ORDER BY n`,
};

/** Who may read the events of a type, as the columns keep it (EventReadersDeclared1795230450000). */
function readersColumns(readers: EventReaders) {
  if ('everyoneWith' in readers) return { readers: 'everyone', readScope: readers.everyoneWith };
  if ('ownerWith' in readers) {
    return {
      readers: 'owned',
      ownerScope: readers.ownerWith,
      staffScope: readers.organizationStaffWith,
    };
  }
  return { readers: 'endpoint' };
}

/**
 * Records events with SqlStatements: inside a transaction under way, with its COMMIT, in the same
 * round trip (nothing reads them before the change commits; a failure still fails the change).
 */
@Injectable()
export class SqlEventRecorder extends EventRecorder {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async record(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map(({ type, data, owner, organization }) => ({
      type: type.name,
      ...readersColumns(type.readers),
      owner: owner ?? null,
      organization: organization ?? null,
      data,
    }));
    await this.sql.queryAtCommit(RECORD, [JSON.stringify(rows)]);
  }
}
