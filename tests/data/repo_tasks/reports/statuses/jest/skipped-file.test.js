// A file whose every test is skipped: jest reports the file pending.
'use strict';
describe.skip('all skipped', () => {
  test('skipped in a skipped file', () => {});
});
