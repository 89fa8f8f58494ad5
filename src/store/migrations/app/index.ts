import type { Migration } from 'kysely';
import * as initial from './0001_initial.ts';
import * as tools from './0002_tools.ts';
import * as tryon from './0003_tryon.ts';
import * as collect from './0004_collect.ts';
import * as shopIntegrations from './0005_shop_integrations.ts';
import * as importsAndAdAccounts from './0006_imports_and_ad_accounts.ts';
import * as dashboard from './0007_dashboard.ts';
import * as tryonLimits from './0008_tryon_limits.ts';
import * as oauthTokenResource from './0010_oauth_token_resource.ts';
import * as oauthGrants from './0011_oauth_grants.ts';
import * as dataVersions from './0020_data_versions.ts';
import * as readScope from './0021_read_scope.ts';
import * as liftTests from './0030_lift_tests.ts';

/** Keyed by name; Kysely applies them in name order. */
export const appMigrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_tools': tools,
  '0003_tryon': tryon,
  '0004_collect': collect,
  '0005_shop_integrations': shopIntegrations,
  '0006_imports_and_ad_accounts': importsAndAdAccounts,
  '0007_dashboard': dashboard,
  '0008_tryon_limits': tryonLimits,
  '0010_oauth_token_resource': oauthTokenResource,
  '0011_oauth_grants': oauthGrants,
  '0020_data_versions': dataVersions,
  '0021_read_scope': readScope,
  '0030_lift_tests': liftTests,
};
