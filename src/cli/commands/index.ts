import type { Command } from '../command.ts';
import { aiVisibilityRunCommand } from './ai-visibility.ts';
import { adsConnectCommand, adsStatusCommand, adsSyncCommand } from './ads.ts';
import { collectStatusCommand, replayDeadLettersCommand } from './collect.ts';
import { demoCommand } from './demo.ts';
import { importCommand } from './import.ts';
import { exportCommand } from './export.ts';
import { geoUpdateCommand } from './geo.ts';
import { leadsExportCommand } from './leads.ts';
import { setIntegrationCommand } from './integration.ts';
import { setStorefrontCommand } from './storefront.ts';
import { surveyCloseCommand, surveyPublishCommand } from './survey.ts';
import { geoTestCreateCommand } from './geo-test.ts';
import { liftTestAddCommand, liftTestListCommand } from './lift-test.ts';
import { loyaltyCreateCommand } from './loyalty.ts';
import { creatorProgramApplyCommand, creatorProgramUnapplyCommand } from './creator-program.ts';
import { creatorLinkCodeCommand } from './creator.ts';
import { formCloseCommand, formCreateCommand, formPublishCommand } from './form.ts';
import { createUserCommand, resetPasswordCommand } from './user.ts';
import type { CommandName } from '../command-line.ts';
import { webhookRotateCommand, webhookSecretCommand } from './webhook.ts';
import { workflowDisableCommand, workflowEnableCommand, workflowListCommand, workflowRunCommand } from './workflow.ts';
import { createKeyCommand, createWorkspaceCommand, revokeKeyCommand, setSettingsCommand } from './workspace.ts';

/** Every command by its words (`workspace create`), except `start`, which serves (main.ts). */
export const commands: Record<Exclude<CommandName, 'start'>, Command> = {
  'workspace create': createWorkspaceCommand,
  'key create': createKeyCommand,
  'key revoke': revokeKeyCommand,
  'settings set': setSettingsCommand,
  'storefront set': setStorefrontCommand,
  'leads export': leadsExportCommand,
  'survey publish': surveyPublishCommand,
  'survey close': surveyCloseCommand,
  'geo-test create': geoTestCreateCommand,
  'lift-test add': liftTestAddCommand,
  'lift-test list': liftTestListCommand,
  'loyalty create': loyaltyCreateCommand,
  'creator link-code': creatorLinkCodeCommand,
  'creator-program apply': creatorProgramApplyCommand,
  'creator-program unapply': creatorProgramUnapplyCommand,
  'form create': formCreateCommand,
  'form publish': formPublishCommand,
  'form close': formCloseCommand,
  'workflow list': workflowListCommand,
  'workflow enable': workflowEnableCommand,
  'workflow disable': workflowDisableCommand,
  'workflow run': workflowRunCommand,
  'ai-visibility run': aiVisibilityRunCommand,
  'webhook secret': webhookSecretCommand,
  'webhook rotate': webhookRotateCommand,
  'integration set': setIntegrationCommand,
  'collect status': collectStatusCommand,
  'collect replay-dead-letters': replayDeadLettersCommand,
  'geo update': geoUpdateCommand,
  import: importCommand,
  export: exportCommand,
  'ads connect': adsConnectCommand,
  'ads sync': adsSyncCommand,
  'ads status': adsStatusCommand,
  demo: demoCommand,
  'user create': createUserCommand,
  'user reset-password': resetPasswordCommand,
};
