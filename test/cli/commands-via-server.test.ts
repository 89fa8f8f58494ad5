/** Fixture: see test/cli/scenario.ts; here a server runs on the data dir and the CLI goes through it. */
import { cliScenario } from './scenario.ts';

cliScenario('server');
