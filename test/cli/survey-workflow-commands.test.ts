/**
 * `survey publish|close` and `workflow list|enable|run|disable` through the real command line, once beside a running server (the CLI goes
 * through its admin route) and once alone on the data dir (it opens the stores itself). Fixture:
 * workspace 1 "Seed shop" with a survey draft and a daily workflow that saves a note, made through the tool endpoint of a server on the
 * same data dir; the standalone run stops that server first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runCli, startServer, tempDataDir, type Server } from './run-cli.ts';

interface Workspace {
  workspace_id: number;
  pixel_id: string;
  api_key: string;
  client_secret: string;
}

async function tool(server: Server, workspace: Workspace, name: string, args: unknown) {
  const response = await fetch(`${server.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${workspace.api_key}:${workspace.client_secret}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return ((await response.json()) as { result: { structuredContent: any } }).result.structuredContent;
}

const QUESTIONS = [{ text: 'How did you hear about us?', type: 'single_choice', options: ['Instagram', 'Podcast'] }];

for (const mode of ['server', 'standalone'] as const) {
  describe(`survey commands (${mode === 'server' ? 'through a running server' : 'no server running'})`, () => {
    let dataDir: string;
    let server: Server | null = null;
    let workspace: Workspace;
    let surveyId: string;
    let workflowId: string;
    const cli = (...args: string[]) => runCli(dataDir, args);

    before(async () => {
      dataDir = tempDataDir();
      server = await startServer(dataDir);
      workspace = (await cli('workspace', 'create', '--name', 'Seed shop')).json;
      surveyId = (await tool(server, workspace, 'surveys.create', { title: 'After your order', questions: QUESTIONS })).survey.id;
      workflowId = (await tool(server, workspace, 'workflows.create', { name: 'Morning note', trigger: { type: 'daily_schedule' }, actions: [{ type: 'save_note' }] })).workflow.id;
      if (mode === 'standalone') {
        await server.stop();
        server = null;
      }
    });

    after(async () => {
      await server?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test('survey publish makes the draft live; survey close ends it; both print the survey', async () => {
      const published = await cli('survey', 'publish', '--workspace', '1', '--survey', surveyId);
      assert.deepEqual([published.code, published.json], [0, { survey: { id: surveyId, title: 'After your order', questions: QUESTIONS, status: 'live' } }]);
      if (server) {
        const live = await fetch(`${server.baseUrl}/collect/survey?pixel_id=${workspace.pixel_id}`);
        assert.deepEqual([live.status, await live.json()], [200, { survey: { id: surveyId, title: 'After your order', questions: QUESTIONS } }]);
      }
      const closed = await cli('survey', 'close', '--workspace', '1', '--survey', surveyId);
      assert.deepEqual([closed.code, closed.json.survey.status], [0, 'closed']);
      const again = await cli('survey', 'close', '--workspace', '1', '--survey', surveyId);
      assert.deepEqual([again.code, again.stdout, again.error], [1, '', { error: { message: `Survey ${surveyId} is not live (it is closed)` } }]);
      const unknown = await cli('survey', 'publish', '--workspace', '1', '--survey', '99');
      assert.deepEqual([unknown.code, unknown.error], [1, { error: { message: 'Survey 99 not found' } }]);
    });

    test('workflow enable turns it on, workflow run evaluates it now, workflow disable turns it off', async () => {
      const enabled = await cli('workflow', 'enable', '--workspace', '1', '--workflow', workflowId);
      assert.deepEqual([enabled.code, enabled.json.workflow.id, enabled.json.workflow.enabled], [0, workflowId, true]);
      const run = await cli('workflow', 'run', '--workspace', '1', '--workflow', workflowId);
      assert.equal(run.code, 0);
      const { execution } = run.json;
      assert.deepEqual([execution.workflow_id, execution.status, execution.outcome.reason, execution.outcome.actions.map((a: any) => [a.type, a.status])], [
        workflowId,
        'fired',
        'manual',
        [['save_note', 'done']],
      ]);
      const listed = await cli('workflow', 'list', '--workspace', '1');
      assert.deepEqual(listed.json.workflows.map((w: any) => [w.id, w.name, w.enabled]), [[workflowId, 'Morning note', true]]);
      const disabled = await cli('workflow', 'disable', '--workspace', '1', '--workflow', workflowId);
      assert.deepEqual([disabled.code, disabled.json.workflow.enabled], [0, false]);
      const refused = await cli('workflow', 'run', '--workspace', '1', '--workflow', workflowId);
      assert.deepEqual([refused.code, refused.error], [1, { error: { message: `Workflow ${workflowId} is disabled: enable it first` } }]);
      const unknown = await cli('workflow', 'enable', '--workspace', '1', '--workflow', '99');
      assert.deepEqual([unknown.code, unknown.error], [1, { error: { message: 'Workflow 99 not found' } }]);
      const malformed = await cli('workflow', 'enable', '--workspace', '1', '--workflow', 'abc');
      assert.deepEqual([malformed.code, malformed.error], [1, { error: { message: '--workflow must be a workflow id' } }]);
    });
  });
}
