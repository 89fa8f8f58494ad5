import { cityDatabase } from '../../collect/geo/city-database.ts';
import { dbIpLiteUrls, installCityDatabase } from '../../collect/geo/install.ts';
import { CommandError, type Command } from '../command.ts';

/**
 * `geo update [--file PATH | --url URL]`: installs a newer IP-to-city database (docs/operations.md,
 * "Visitor cities"); by default DB-IP's free city database of this month. Run through a server, the
 * collector uses it from the next request on; otherwise from the next start.
 */
export const geoUpdateCommand: Command = async (ctx, args) => {
  const { file, url } = args.options;
  for (const [name, value] of [['file', file], ['url', url]] as const) {
    if (value === true || value === '') throw new CommandError(`--${name} needs a value`);
  }
  if (file !== undefined && url !== undefined) throw new CommandError('--file and --url: give one source, not both');
  const source = typeof file === 'string' ? { file } : { urls: typeof url === 'string' ? [url] : dbIpLiteUrls(new Date()) };
  const installed = await installCityDatabase(ctx.config.dataDir, source, ctx.progress);
  cityDatabase(ctx.config.dataDir, ctx.logger).reload();
  return installed;
};
