import { collectStatus } from '../../collect/status.ts';
import { replayDeadLetters } from '../../collect/replay-dead-letters.ts';
import { dropKnownTransactions } from '../../collect/known-transactions.ts';
import { bumpDataVersions } from '../../store/app/data-versions.ts';
import type { Command } from '../command.ts';

/** `collect status`: the write-ahead log's backlog and the dead letters (docs/operations.md). */
export const collectStatusCommand: Command = async (ctx) => collectStatus(ctx.config.dataDir);

/** `collect replay-dead-letters`: tries the refused rows again; prints what happened and the status after. */
export const replayDeadLettersCommand: Command = async (ctx) => {
  const result = await replayDeadLetters(ctx.stores.ch, ctx.config.dataDir, {
    beforeInsert: dropKnownTransactions(ctx.stores.ch),
    afterInsert: (workspaceIds) => bumpDataVersions(ctx.stores.db, workspaceIds),
  });
  const { dead_letters: deadLetters } = await collectStatus(ctx.config.dataDir);
  return { ...result, dead_letters: deadLetters };
};
