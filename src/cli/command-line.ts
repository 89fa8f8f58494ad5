/**
 * The CLI's command line: every command with its options, the parser, and `--help`. This module
 * imports nothing of the service, so help is printed without loading it or touching a data dir;
 * the command table (commands/index.ts) is typed by these names.
 */
import { parseArgs } from 'node:util';

export interface OptionUsage {
  name: string;
  /** What the option takes (`ID`, `FILE`); absent for a switch such as `--strict`. */
  value?: string;
  required?: boolean;
  /** A secret: given as `-`, it is read from standard input (main.ts). */
  secret?: boolean;
  text: string;
}

export interface CommandUsage {
  summary: string;
  /** Arguments after the options, e.g. `key=value ...`. */
  positionals?: string;
  options: readonly OptionUsage[];
}

const workspace: OptionUsage = { name: 'workspace', value: 'ID', required: true, text: 'the workspace id' };

export const COMMAND_USAGE = {
  start: {
    summary: 'serves everything (data API, /mcp, dashboard, try-on API, collector); set up by environment variables (docs/operations.md)',
    options: [],
  },
  'workspace create': {
    summary: 'creates a workspace with an admin key and a pixel id',
    options: [
      { name: 'name', value: 'NAME', required: true, text: 'its name' },
      { name: 'currency', value: 'CODE', text: 'ISO 4217 currency of its money (default USD)' },
      { name: 'timezone', value: 'ZONE', text: 'IANA time zone (default UTC)' },
    ],
  },
  'key create': {
    summary: 'creates an API key with the given scopes; the client secret is printed once',
    options: [workspace, { name: 'scopes', value: 'LIST', required: true, text: 'comma-separated, e.g. read:meta,read:profit (docs/api.md)' }],
  },
  'key revoke': {
    summary: 'revokes an API key at once',
    options: [{ name: 'api-key', value: 'KEY', required: true, text: 'the key to revoke' }],
  },
  'settings set': {
    summary: 'changes workspace settings and prints them all (docs/attribution.md)',
    positionals: 'key=value ...',
    options: [workspace],
  },
  'storefront set': {
    summary: 'connects or changes the try-on storefront (docs/try-on.md)',
    options: [
      workspace,
      { name: 'origin', value: 'ORIGINS', text: 'the shop origin, or a comma-separated list (replaces the stored list)' },
      { name: 'consent-version', value: 'V', text: 'version label of the consent text' },
      { name: 'marketing-version', value: 'V', text: 'version label of the marketing consent text' },
      { name: 'session-attempts', value: 'N', text: 'try-ons per session' },
      { name: 'daily-attempts', value: 'N', text: 'try-ons per day' },
      { name: 'coverage-max-age-days', value: 'N', text: 'how old the catalog coverage may be' },
      { name: 'experiment', value: 'ID', text: 'an A/B experiment id, or none to end it' },
      { name: 'experiment-variants', value: 'N', text: 'variants of the experiment (2 or more)' },
    ],
  },
  'leads export': {
    summary: 'prints the try-on contact requests still kept and the storefront forms\' submissions, oldest first',
    options: [workspace, { name: 'since', value: 'YYYY-MM-DD', text: 'only those that arrived from this day on' }],
  },
  'survey publish': {
    summary: 'makes a survey draft the live post-purchase survey the pixel shows (one live survey per workspace)',
    options: [workspace, { name: 'survey', value: 'ID', required: true, text: 'the survey id (surveys.get-responses lists them)' }],
  },
  'survey close': {
    summary: 'ends the live survey: the pixel stops showing it and refuses its answers',
    options: [workspace, { name: 'survey', value: 'ID', required: true, text: 'the survey id' }],
  },
  'geo-test create': {
    summary: 'sets up a geo test: treatment and control regions and its days; geo-testing.get-tests reads its lift (docs/families.md)',
    options: [
      workspace,
      { name: 'name', value: 'TEXT', required: true, text: 'what the test is called' },
      { name: 'level', value: 'country|city', text: 'what a region is (default country: two-letter codes)' },
      { name: 'treatment', value: 'R1,R2', required: true, text: 'the regions that get the change' },
      { name: 'control', value: 'R1,R2', required: true, text: 'the regions that do not' },
      { name: 'start', value: 'YYYY-MM-DD', required: true, text: 'the first day of the test (workspace time zone)' },
      { name: 'end', value: 'YYYY-MM-DD', required: true, text: 'its last day' },
      { name: 'pre-days', value: 'N', text: 'days before the start the regions are compared over (default 28)' },
      { name: 'source', value: 'SOURCE', text: 'the channel the treatment regions ran and the control did not: the finished test calibrates data_driven' },
    ],
  },
  'lift-test add': {
    summary: 'enters what an experiment measured for a channel; data_driven takes it instead of its fitted lift in those days (docs/attribution.md)',
    options: [
      workspace,
      { name: 'source', value: 'SOURCE', required: true, text: 'the channel tested, e.g. meta or google' },
      { name: 'start', value: 'YYYY-MM-DD', required: true, text: 'the first day of the test (workspace time zone)' },
      { name: 'end', value: 'YYYY-MM-DD', required: true, text: 'its last day' },
      { name: 'incremental-share', value: 'X', required: true, text: 'the share (0 to 1) of the conversions it touched that it caused' },
      { name: 'interval', value: 'LO,HI', text: 'the measured interval of that share' },
    ],
  },
  'lift-test list': {
    summary: 'lists the lift tests of a workspace, oldest first',
    options: [workspace],
  },
  'loyalty create': {
    summary: 'sets up a loyalty program; loyalty.get-programs reads its members and points from the sale orders (docs/families.md)',
    options: [
      workspace,
      { name: 'name', value: 'TEXT', required: true, text: 'what the program is called' },
      { name: 'points-per-unit', value: 'N', required: true, text: 'points a member earns per whole currency unit spent (1 to 1000)' },
      { name: 'start', value: 'YYYY-MM-DD', required: true, text: 'the first day whose orders earn points (workspace time zone)' },
    ],
  },
  'creator link-code': {
    summary: 'links a code of the traffic (a ref link code, the stem of coupons) to a stored creator: its figures and commission count it (docs/families.md)',
    options: [
      workspace,
      { name: 'creator', value: 'ID', required: true, text: 'the creator id (creators.get-creators lists them)' },
      { name: 'code', value: 'CODE', required: true, text: 'the code as the traffic carries it, e.g. MAYA (compared in upper case)' },
    ],
  },
  'creator-program apply': {
    summary: 'applies a creator program: its creators earn its commission in creators.get-creators and the dashboard (docs/families.md)',
    options: [workspace, { name: 'program', value: 'ID', required: true, text: 'the program id (creators.get-programs lists them)' }],
  },
  'creator-program unapply': {
    summary: 'un-applies a creator program: its creators show no commission',
    options: [workspace, { name: 'program', value: 'ID', required: true, text: 'the program id' }],
  },
  'form create': {
    summary: 'drafts a storefront form whose submissions are leads (forms.add-fields adds fields later)',
    options: [
      workspace,
      { name: 'name', value: 'TEXT', required: true, text: 'what the form is called' },
      { name: 'fields', value: 'JSON', text: 'its fields: [{"label":"E-mail","type":"email","required":true}] (types: text, email, phone, number, select with options, checkbox, textarea, date)' },
    ],
  },
  'form publish': {
    summary: 'makes a form live: POST /collect/form takes its submissions from then on',
    options: [workspace, { name: 'form', value: 'ID', required: true, text: 'the form id (forms.get-forms lists them)' }],
  },
  'form close': {
    summary: 'ends a live form: POST /collect/form refuses its submissions (404) as for a draft',
    options: [workspace, { name: 'form', value: 'ID', required: true, text: 'the form id' }],
  },
  'workflow list': {
    summary: 'prints the workspace\'s workflows (drafted with workflows.create), enabled or not',
    options: [workspace],
  },
  'workflow enable': {
    summary: 'turns a complete workflow on: the engine evaluates it from its next due time (docs/workflows.md)',
    options: [workspace, { name: 'workflow', value: 'ID', required: true, text: 'the workflow id (workflow list shows them)' }],
  },
  'workflow disable': {
    summary: 'turns a workflow off: the engine leaves it alone',
    options: [workspace, { name: 'workflow', value: 'ID', required: true, text: 'the workflow id' }],
  },
  'workflow run': {
    summary: 'evaluates an enabled workflow now (a schedule fires) and prints the execution',
    options: [workspace, { name: 'workflow', value: 'ID', required: true, text: 'the workflow id' }],
  },
  'ai-visibility run': {
    summary: 'asks the configured assistant (STORELENS_LLM_URL) every tracked AI-visibility prompt and stores one check result each (docs/families.md)',
    options: [workspace],
  },
  'webhook secret': {
    summary: 'prints the order-webhook URL and signing secret (created on first use)',
    options: [workspace],
  },
  'webhook rotate': {
    summary: 'replaces the order-webhook secret; the old one stops working at once',
    options: [workspace],
  },
  'integration set': {
    summary: "connects a Shopify or WooCommerce shop's order webhooks (docs/integrations.md)",
    options: [
      workspace,
      { name: 'platform', value: 'NAME', required: true, text: 'shopify or woocommerce' },
      { name: 'shop', value: 'NAME.myshopify.com', text: "the Shopify shop's domain (shopify)" },
      { name: 'site', value: 'URL', text: "the WooCommerce site's URL (woocommerce)" },
      { name: 'secret', value: 'SECRET', required: true, secret: true, text: 'the webhook signing secret the shop shows' },
    ],
  },
  'collect status': {
    summary: "the collector's write-ahead log backlog and its dead letters",
    options: [],
  },
  'collect replay-dead-letters': {
    summary: 'tries the dead letters (rows the analytics store refused) again',
    options: [],
  },
  'geo update': {
    summary: "installs a newer IP-to-city database into the data dir (by default DB-IP's of this month), which the collector then prefers over the bundled one (docs/operations.md)",
    options: [
      { name: 'file', value: 'FILE', text: 'a .mmdb or .mmdb.gz file to install instead' },
      { name: 'url', value: 'URL', text: 'a .mmdb or .mmdb.gz file to download instead' },
    ],
  },
  import: {
    summary: 'imports a file of rows: NDJSON, or CSV when the name ends in .csv; exit code 2 when rows were rejected',
    options: [
      workspace,
      { name: 'kind', value: 'KIND', required: true, text: 'events, conversions, orders, ads, products or expenses' },
      { name: 'file', value: 'FILE', required: true, text: 'the file to read' },
      { name: 'format', value: 'FORMAT', text: "an ad platform's report export (meta, google, tiktok, microsoft) or shopify for its order export" },
      { name: 'strict', text: 'import nothing when any row is invalid' },
    ],
  },
  export: {
    summary: "writes every row of a kind in the range to a file, as the data API's export sends it, or the marketing-mix-model CSV; an interrupted NDJSON or CSV export continues when run again (docs/exports.md)",
    options: [
      workspace,
      { name: 'kind', value: 'KIND', required: true, text: 'events, sessions, conversions, ads, or mmm for the marketing-mix-model CSV' },
      { name: 'file', value: 'FILE', required: true, text: 'the file to write' },
      { name: 'format', value: 'FORMAT', text: 'ndjson (default), csv or parquet; mmm is always csv' },
      { name: 'granularity', value: 'day|week', text: 'mmm: one record per day (default) or per week' },
      { name: 'geo', value: 'city', text: 'mmm: one record per date and city' },
      { name: 'start-date', value: 'DATE', text: 'first day or timestamp (default: 7 days ago)' },
      { name: 'end-date', value: 'DATE', text: 'last day or timestamp (default: today)' },
      { name: 'timezone', value: 'ZONE', text: 'IANA time zone the days are read in' },
      { name: 'restart', text: 'start over instead of continuing an interrupted export' },
    ],
  },
  'ads connect': {
    summary: 'connects a Meta or Google Ads account; the server pulls its spend daily (docs/integrations.md)',
    options: [
      workspace,
      { name: 'platform', value: 'NAME', required: true, text: 'meta or google' },
      { name: 'account', value: 'act_ID', text: 'the Meta ad account (meta)' },
      { name: 'access-token', value: 'TOKEN', secret: true, text: 'a Meta access token (meta)' },
      { name: 'customer-id', value: 'ID', text: 'the Google Ads customer id (google)' },
      { name: 'login-customer-id', value: 'ID', text: 'the manager account id, when access goes through one (google)' },
      { name: 'developer-token', value: 'TOKEN', secret: true, text: 'the Google Ads developer token (google)' },
      { name: 'client-id', value: 'ID', text: 'the OAuth client id (google)' },
      { name: 'client-secret', value: 'SECRET', secret: true, text: 'the OAuth client secret (google)' },
      { name: 'refresh-token', value: 'TOKEN', secret: true, text: 'the OAuth refresh token (google)' },
    ],
  },
  'ads sync': {
    summary: 'pulls every connected ad account now; exit code 2 when an account failed',
    options: [workspace, { name: 'days', value: 'N', text: 'days to pull, ending today (default 28)' }],
  },
  'ads status': {
    summary: 'the connected ad accounts and their last pull (never the credentials)',
    options: [workspace],
  },
  demo: {
    summary: "fills an empty workspace with the demo shop's data, ending today",
    options: [workspace, { name: 'days', value: 'N', text: 'days of data (default 90)' }],
  },
  'user create': {
    summary: 'creates a dashboard user, or adds a workspace to an existing one (docs/dashboard.md)',
    options: [
      { name: 'email', value: 'EMAIL', required: true, text: 'their sign-in' },
      { name: 'password', value: 'PASSWORD', required: true, secret: true, text: "their password (an existing user's current one)" },
      workspace,
      { name: 'role', value: 'ROLE', text: 'owner (default) or viewer' },
      { name: 'scopes', value: 'LIST', text: "a viewer's scopes: channels narrow what they see, read:profit adds profit" },
    ],
  },
  'user reset-password': {
    summary: "sets a new password for a dashboard user and signs out all of the user's dashboard sessions",
    options: [
      { name: 'email', value: 'EMAIL', required: true, text: 'their sign-in' },
      { name: 'password', value: 'PASSWORD', secret: true, text: 'the new password (left out: one is generated and printed once)' },
    ],
  },
} as const satisfies Record<string, CommandUsage>;

export type CommandName = keyof typeof COMMAND_USAGE;

const USAGE_LINE = 'npm run --silent cli --';

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_USAGE, name);
}

/** The command named by the first words (one or two), or null. */
function commandOf(positionals: readonly string[]): CommandName | null {
  const twoWords = positionals.slice(0, 2).join(' ');
  if (isCommandName(twoWords)) return twoWords;
  const oneWord = positionals[0] ?? '';
  return isCommandName(oneWord) ? oneWord : null;
}

const ALL_OPTIONS: readonly OptionUsage[] = Object.values(COMMAND_USAGE).flatMap((c: CommandUsage) => c.options);

/** Options that take a value, over every command; any other `--flag` is a switch. */
const VALUE_OPTIONS = Object.fromEntries(ALL_OPTIONS.filter((o) => o.value).map((o) => [o.name, { type: 'string' as const }]));

export interface CommandArgs {
  options: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** The command a command line names (null: none), its options and the arguments after its words. */
export function parseCommandLine(argv: string[]): { name: CommandName | null; args: CommandArgs } {
  const { values, positionals } = parseArgs({ args: argv, options: VALUE_OPTIONS, strict: false, allowPositionals: true });
  const name = commandOf(positionals);
  const rest = positionals.slice(name ? name.split(' ').length : 0);
  return { name, args: { options: values as CommandArgs['options'], positionals: rest } };
}

/** Options that carry a secret, as `--name`. */
export const SECRET_OPTIONS: ReadonlySet<string> = new Set(ALL_OPTIONS.filter((o) => o.secret).map((o) => `--${o.name}`));

function table(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
}

/** `--help`: every command with what it does. */
export function generalHelp(): string {
  return [
    `Usage: ${USAGE_LINE} <command> [options]`,
    '',
    'Each command prints one JSON document on stdout (errors: JSON on stderr, a non-zero exit). With a',
    'server running on the same data dir (STORELENS_DATA_DIR, default ./data) commands go through it.',
    '',
    'Commands:',
    ...table(Object.entries(COMMAND_USAGE).map(([name, usage]) => [name, usage.summary])),
    '',
    `${USAGE_LINE} <command> --help shows a command's options.`,
    '',
  ].join('\n');
}

/** `<command> --help`: its synopsis and each option. */
export function commandHelp(name: CommandName): string {
  const usage: CommandUsage = COMMAND_USAGE[name];
  const synopsis = usage.options.map((o) => {
    const option = o.value ? `--${o.name} ${o.value}` : `--${o.name}`;
    return o.required ? option : `[${option}]`;
  });
  const lines = [`Usage: ${[USAGE_LINE, name, ...synopsis, ...(usage.positionals ? [usage.positionals] : [])].join(' ')}`, '', `${usage.summary[0]!.toUpperCase()}${usage.summary.slice(1)}.`];
  if (usage.options.length) {
    const text = (o: OptionUsage) => `${o.text}${o.secret ? '; - reads it from standard input' : ''}${o.required ? ' (required)' : ''}`;
    lines.push('', 'Options:', ...table(usage.options.map((o) => [o.value ? `--${o.name} ${o.value}` : `--${o.name}`, text(o)])));
  }
  return `${lines.join('\n')}\n`;
}

/** The refusal of a command line that names no command. */
export function unknownCommandMessage(argv: readonly string[]): string {
  return `Unknown command: ${argv.join(' ')}. Commands: ${Object.keys(COMMAND_USAGE).join(', ')}. ${USAGE_LINE} --help says what each does`;
}
