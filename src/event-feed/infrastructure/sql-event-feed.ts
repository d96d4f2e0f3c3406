import { Injectable } from '@nestjs/common';
import { eventIdOf, LegacyEventPosition, numberOfUuid, uuidOf } from '../../common/events/event-id';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { EventFeed, FeedPageQuery } from '../application/event-feed';
import { StoredEvent } from '../domain/event';

const COLUMNS = `public_id::text AS "publicId", type, data, owner_key_id AS "owner",
  organization_id AS "organizationId",
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"`;

/**
 * The greatest number: the owner's page has a closed range, so that the planner, with or without
 * statistics, finds the owner's index in order the cheapest plan (docs/adr/0050).
 */
const LAST_NUMBER = `'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid`;

/**
 * Whether the reader may see the event, as a CASE: the planner takes any such expression for half
 * the rows, statistics or not, where it would multiply its guesses for each comparison into a
 * handful of rows and sort every match instead of reading the feed's index in order and stopping
 * at the page's end (docs/adr/0050). `visible` is the rule; its parameters are the statement's.
 */
const readable = (visible: string) => `CASE WHEN ${visible} THEN true ELSE false END`;

/**
 * The visibility rule (mayRead) as SQL, on who may read each event as its type declared it: events
 * public to a scope the key holds ($3); events of its own objects ($4) and of its organisation's
 * ($5), each for the scope its type asks. Pings are never in the feed.
 */
const PAGE: SqlStatement = {
  name: 'events_page',
  text: `SELECT ${COLUMNS} FROM events
         WHERE public_id > $1::uuid
           AND ${readable(`($2::varchar IS NULL OR type = $2)
             AND ((readers = 'everyone' AND read_scope = ANY ($3::text[]))
               OR (readers = 'owned'
                   AND ((owner_key_id = $4 AND owner_scope = ANY ($3::text[]))
                     OR (organization_id = $5 AND staff_scope = ANY ($3::text[])))))`)}
         ORDER BY public_id LIMIT $6`,
};
/** A key that reads only its own objects' events: through the owner's index, not the whole feed. */
const PAGE_OF_OWNER: SqlStatement = {
  name: 'events_page_of_owner',
  text: `SELECT ${COLUMNS} FROM events
         WHERE owner_key_id = $1 AND public_id > $3::uuid AND public_id <= ${LAST_NUMBER}
           AND ${readable(`readers = 'owned' AND owner_scope = ANY ($2::text[])
             AND ($4::varchar IS NULL OR type = $4)`)}
         ORDER BY public_id LIMIT $5`,
};
/** One event by its number. */
const BY_NUMBER: SqlStatement = {
  name: 'events_by_number',
  text: `SELECT ${COLUMNS} FROM events WHERE public_id = $1::uuid AND readers <> 'endpoint'`,
};
/** One event by the position a v1.2 id named, once it is numbered. */
const BY_LEGACY_POSITION: SqlStatement = {
  name: 'events_by_legacy_position',
  text: `SELECT ${COLUMNS} FROM events
         WHERE id = $2::bigint AND xid = $1::xid8 AND public_id IS NOT NULL
           AND readers <> 'endpoint'`,
};
/**
 * Where a v1.2 id's page resumes: after that event's number; when retention has deleted it, after
 * the number of the newest event recorded before it (the sequence orders them closely enough for
 * events gone past retention); when none is left, from the start.
 */
const LEGACY_CURSOR: SqlStatement = {
  name: 'events_legacy_cursor',
  text: `SELECT coalesce(
           (SELECT public_id FROM events WHERE id = $2::bigint AND xid = $1::xid8),
           (SELECT public_id FROM events WHERE id <= $2::bigint AND public_id IS NOT NULL
             ORDER BY id DESC LIMIT 1),
           '00000000-0000-0000-0000-000000000000')::text AS "publicId"`,
};

interface EventRow {
  publicId: string;
  type: string;
  data: object;
  owner: string | null;
  organizationId: string | null;
  occurredAt: string;
}

function toStored(row: EventRow): StoredEvent {
  return {
    id: eventIdOf(numberOfUuid(row.publicId)),
    type: row.type,
    occurredAt: row.occurredAt,
    data: row.data,
    owner: row.owner,
    organizationId: row.organizationId === null ? null : Number(row.organizationId),
  };
}

@Injectable()
export class SqlEventFeed extends EventFeed {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async page({ reader, after, type, limit }: FeedPageQuery): Promise<StoredEvent[]> {
    const scopes = [...reader.scopes];
    const from = after === null ? uuidOf(0n) : uuidOf(after);
    const rows = reader.onlyOwn
      ? await this.sql.query<EventRow>(PAGE_OF_OWNER, [
          reader.keyId,
          scopes,
          from,
          type ?? null,
          limit,
        ])
      : await this.sql.query<EventRow>(PAGE, [
          from,
          type ?? null,
          scopes,
          reader.keyId,
          reader.organizationId,
          limit,
        ]);
    return rows.map(toStored);
  }

  async findByNumber(number: bigint): Promise<StoredEvent | null> {
    const [row] = await this.sql.query<EventRow>(BY_NUMBER, [uuidOf(number)]);
    return row ? toStored(row) : null;
  }

  async findByLegacyPosition({ xid, seq }: LegacyEventPosition): Promise<StoredEvent | null> {
    const [row] = await this.sql.query<EventRow>(BY_LEGACY_POSITION, [xid, seq]);
    return row ? toStored(row) : null;
  }

  async numberAfterLegacyPosition({ xid, seq }: LegacyEventPosition): Promise<bigint> {
    const [row] = await this.sql.query<{ publicId: string }>(LEGACY_CURSOR, [xid, seq]);
    return numberOfUuid(row.publicId);
  }
}
