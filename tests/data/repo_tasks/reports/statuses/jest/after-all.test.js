// An afterAll hook that fails after every test passed: jest fails the file, not a test.
'use strict';
describe('after all hook fails', () => {
  afterAll(() => { throw new Error('after all broke'); });
  test('passes before the after all hook fails', () => {});
});
