/**
 * A timestamptz column as the API writes instants (RFC 3339, UTC, milliseconds), formatted by
 * PostgreSQL itself: no Date to parse and print again in the process, and no dependence on the
 * server's DateStyle.
 */
export const sqlInstant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
