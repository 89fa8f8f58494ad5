/**
 * The end of a bulk load (`import`, the demo seed): merge the partitions it wrote of the tables
 * readers fold with FINAL, so the next report reads one part per partition instead of folding a
 * part per batch at query time. The engine would reach the same state by itself (analytics
 * migration 0011 forces merges of parts older than ten minutes), but only in rounds over about
 * half an hour after a large load; until then a report cost about twice as much
 * (docs/performance.md, "A bulk load ends merged").
 */
import type { Clickhouse } from '../../store/clickhouse.ts';
import type { FoldedTable } from './kinds.ts';

/** Partitions touched per table, as system.parts spells them ('tuple()' for a table of one partition). */
export class TouchedPartitions {
  private readonly byTable = new Map<string, Set<string>>();

  constructor(private readonly tables: FoldedTable[]) {}

  add(row: Record<string, unknown>): void {
    for (const { table, partitionOf } of this.tables) {
      let partitions = this.byTable.get(table);
      if (!partitions) this.byTable.set(table, (partitions = new Set()));
      partitions.add(partitionOf ? partitionOf(row) : 'tuple()');
    }
  }

  entries(): [table: string, partitions: string[]][] {
    return [...this.byTable].map(([table, partitions]) => [table, [...partitions].sort()]);
  }
}

/** The same partition ids system.parts listed, back in a statement: only these characters are taken. */
const PARTITION_ID = /^[0-9a-z_-]+$/;

/**
 * Runs `OPTIMIZE TABLE t PARTITION ID p FINAL` for each touched partition that is in more than
 * one active part; a partition already in one part is left as it is. A merge that fails (a
 * server's request time limit on a very large partition) fails no load: its rows are stored, the
 * progress says so, and the engine's forced merges fold the partition later.
 */
export async function mergeTouchedPartitions(
  ch: Clickhouse,
  touched: TouchedPartitions,
  progress?: (message: string) => void,
): Promise<void> {
  for (const [table, partitions] of touched.entries()) {
    const split = await ch.query<{ partition: string; partition_id: string; parts: string }>('merge-parts', `
SELECT partition, partition_id, count() AS parts FROM system.parts
WHERE database = currentDatabase() AND table = {table:String} AND active AND partition IN {partitions:Array(String)}
GROUP BY partition, partition_id HAVING count() > 1 ORDER BY partition`, { table, partitions });
    for (const { partition, partition_id: id, parts } of split) {
      if (!PARTITION_ID.test(id)) throw new Error(`unexpected partition id ${JSON.stringify(id)} of ${table}`);
      const name = `${table}${partition === 'tuple()' ? '' : ` ${partition}`}`;
      const started = performance.now();
      try {
        await ch.exec(`OPTIMIZE TABLE ${table} PARTITION ID '${id}' FINAL`);
      } catch (error) {
        progress?.(`could not merge ${name} (${parts} parts; the engine merges them later): ${(error as Error).message}`);
        continue;
      }
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      progress?.(`merged ${name}: ${parts} parts into one (${seconds}s)`);
    }
  }
}
