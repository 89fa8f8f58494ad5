/**
 * The web kit's mapping of the domain errors. Every kind but Conflict is answered by some HTTP
 * route and pinned by the surface tests (test/api, test/dashboard, test/collect); only the tools
 * throw Conflict so far, so its status is checked here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toHttpError } from '../../src/http/errors.ts';
import { Conflict } from '../../src/kit/errors.ts';

test('a Conflict is a 409 with its message', () => {
  const answer = toHttpError(new Conflict('List 3 already has a column hook'));
  assert.deepEqual({ status: answer.statusCode, message: answer.message, headers: answer.headers }, {
    status: 409,
    message: 'List 3 already has a column hook',
    headers: {},
  });
});
