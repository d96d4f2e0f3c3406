import { Injectable } from '@nestjs/common';
import { EventPosition } from '../../common/events/event';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { EventFeed, FeedPageQuery } from '../application/event-feed';
import { StoredEvent } from '../domain/event';

const COLUMNS = `xid::text AS "xid", id AS "seq", type, data, owner_key_id AS "owner",
  organization_id AS "organizationId",
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt"`;

/**
 * Only events whose transaction is older than every transaction still under way: those are all
 * committed or gone, so no event can appear later before the last one a reader saw (a younger
 * sequence number may commit first; a younger transaction id only after every older one ended).
 */
const SETTLED = 'xid < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * The visibility rule (mayRead) as SQL, on who may read each event as its type declared it: events
 * public to a scope the key holds ($4); events of its own objects ($5) and of its organisation's
 * ($6), each for the scope its type asks. Pings are never in the feed.
 */
const PAGE: SqlStatement = {
  name: 'events_page',
  text: `SELECT ${COLUMNS} FROM events
         WHERE (xid, id) > ($1::xid8, $2::bigint) AND ${SETTLED}
           AND ($3::varchar IS NULL OR type = $3)
           AND ((readers = 'everyone' AND read_scope = ANY ($4::text[]))
             OR (readers = 'owned'
                 AND ((owner_key_id = $5 AND owner_scope = ANY ($4::text[]))
                   OR (organization_id = $6 AND staff_scope = ANY ($4::text[])))))
         ORDER BY xid, id LIMIT $7`,
};
/** A key that reads only its own objects' events: through the owner's index, not the whole feed. */
const PAGE_OF_OWNER: SqlStatement = {
  name: 'events_page_of_owner',
  text: `SELECT ${COLUMNS} FROM events
         WHERE owner_key_id = $1 AND readers = 'owned' AND owner_scope = ANY ($2::text[])
           AND (xid, id) > ($3::xid8, $4::bigint) AND ${SETTLED}
           AND ($5::varchar IS NULL OR type = $5)
         ORDER BY xid, id LIMIT $6`,
};
/** One event by its id: committed, it is readable at once, settled or not. */
const BY_POSITION: SqlStatement = {
  name: 'events_by_position',
  text: `SELECT ${COLUMNS} FROM events
         WHERE id = $2::bigint AND xid = $1::xid8 AND readers <> 'endpoint'`,
};

interface EventRow {
  xid: string;
  seq: string;
  type: string;
  data: object;
  owner: string | null;
  organizationId: string | null;
  occurredAt: string;
}

function toStored(row: EventRow): StoredEvent {
  return {
    position: { xid: row.xid, seq: row.seq },
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
    const rows = reader.onlyOwn
      ? await this.sql.query<EventRow>(PAGE_OF_OWNER, [
          reader.keyId,
          scopes,
          after.xid,
          after.seq,
          type ?? null,
          limit,
        ])
      : await this.sql.query<EventRow>(PAGE, [
          after.xid,
          after.seq,
          type ?? null,
          scopes,
          reader.keyId,
          reader.organizationId,
          limit,
        ]);
    return rows.map(toStored);
  }

  async findByPosition({ xid, seq }: EventPosition): Promise<StoredEvent | null> {
    const [row] = await this.sql.query<EventRow>(BY_POSITION, [xid, seq]);
    return row ? toStored(row) : null;
  }
}
