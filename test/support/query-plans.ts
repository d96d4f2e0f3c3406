/** A node of a plan as `EXPLAIN (FORMAT JSON)` gives it; the Actual members with ANALYZE only. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
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
