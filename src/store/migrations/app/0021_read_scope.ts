import type { Kysely } from 'kysely';

/**
 * `tool_objects.read_scope`: what the numbers of a stored output were read with (JSON
 * `{channels, profit}`, channels null for the whole store; docs/security.md, "Outputs of stored
 * objects"). Rows stored before it have none and are read as the whole store. List rows copied
 * from the ads kept their ad platforms in their data (`_channels`): those become their scope.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tool_objects').addColumn('read_scope', 'text').execute();
  const linked = await db
    .selectFrom('tool_objects')
    .select(['id', 'data'])
    .where('kind', '=', 'list_item')
    .where('data', 'like', '%"_channels"%')
    .execute();
  for (const row of linked) {
    const { _channels: channels, ...data } = JSON.parse(row.data) as { _channels?: unknown };
    if (!Array.isArray(channels)) continue;
    await db
      .updateTable('tool_objects')
      .set({ data: JSON.stringify(data), read_scope: JSON.stringify({ channels, profit: false }) })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tool_objects').dropColumn('read_scope').execute();
}
