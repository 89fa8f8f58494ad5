/** Fixture: see test/cli/scenario.ts; here no server runs while the commands do. */
import { cliScenario } from './scenario.ts';

cliScenario('standalone');
