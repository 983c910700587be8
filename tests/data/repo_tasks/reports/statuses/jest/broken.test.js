// A suite file that does not load (a syntax error): its tests never run.
'use strict';
describe('never loaded', () => {
  test('would pass', () => {});
});
const = 1;
