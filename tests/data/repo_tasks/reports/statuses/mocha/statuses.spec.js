// Every status mocha reports, for sandbox/repo/results.py parse_mocha_json (tests/test_repo_results.py).
'use strict';
const assert = require('assert');

it('top level passes', () => {});

describe('outer suite', () => {
  it('passes', () => {});
  it('fails', () => { assert.strictEqual(1 + 1, 3); });
  it.skip('is skipped with it.skip', () => {});
  xit('is skipped with xit', () => {});
  it('is pending: no function');
  it('skips itself at run time', function () { this.skip(); });
  it('title with spaces, [brackets], "double" and \'single\' quotes > and a gt', () => {});
  it('async rejection fails', async () => { throw new Error('rejected'); });

  describe('inner [nested] describe', () => {
    it('passes deep', () => {});
    describe('third level', () => {
      it('passes deeper', () => {});
    });
  });

  describe.skip('a skipped describe', () => {
    it('is skipped by its describe', () => {});
  });

  describe('before each hook fails', () => {
    beforeEach(function () { throw new Error('hook broke'); });
    it('first under the failing hook', () => {});
    it('second under the failing hook', () => {});
  });

  describe('after each hook fails', () => {
    afterEach(function () { throw new Error('after hook broke'); });
    it('passes before its after each hook fails', () => {});
    it('never runs after the after each failure', () => {});
  });

  describe('before all hook fails', () => {
    before(function () { throw new Error('before all broke'); });
    it('first under the failing before all', () => {});
    describe('nested under the failing before all', () => {
      it('deep under the failing before all', () => {});
    });
  });
});

describe('outer suite', () => {
  it('passes', () => {});  // the same full title twice, in two describe blocks of one name
});

describe('duplicate titles', () => {
  it('same title', () => {});
  it('same title', () => { assert.fail('the second of two same titles fails'); });
});
