/** A node of a plan as `EXPLAIN (FORMAT JSON)` gives it; the Actual members with ANALYZE only. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The nodes of a plan, depth first. */
export function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The rows an analysed plan read from a table: each of its nodes' rows, once per loop. */
export function rowsRead(plan: PlanNode, relation: string): number {
  return nodesOf(plan)
    .filter((node) => node['Relation Name'] === relation)
    .reduce((rows, node) => rows + node['Actual Rows']! * node['Actual Loops']!, 0);
}

/**
 * The rows an analysed plan looked at in a table: those its nodes returned and those they threw
 * away by a filter or a recheck, once per loop. A scan that filters every row away returns none
 * (`rowsRead` is 0) yet read them all. PostgreSQL reports the rows removed as an average per loop.
 */
export function rowsExamined(plan: PlanNode, relation: string): number {
  return nodesOf(plan)
    .filter((node) => node['Relation Name'] === relation)
    .reduce(
      (rows, node) =>
        rows +
        (node['Actual Rows']! +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
          node['Actual Loops']!,
      0,
    );
}
