// Every status jest reports, for sandbox/repo/results.py parse_jest_json (tests/test_repo_results.py).
'use strict';

test('top level passes', () => {});

describe('outer suite', () => {
  test('passes', () => {});
  test('fails', () => { expect(1 + 1).toBe(3); });
  test.skip('is skipped with test.skip', () => {});
  xit('is skipped with xit', () => {});
  test.todo('is a todo');
  test('title with spaces, [brackets], "double" and \'single\' quotes > and a gt', () => {});
  test('async rejection fails', async () => { throw new Error('rejected'); });
  test.each([[1, 2], [2, 3]])('each row %i + 1 = %i', (a, b) => { expect(a + 1).toBe(b); });

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
    beforeEach(() => { throw new Error('hook broke'); });
    it('first under the failing hook', () => {});
    it('second under the failing hook', () => {});
  });

  describe('after each hook fails', () => {
    afterEach(() => { throw new Error('after hook broke'); });
    it('passes before its after each hook fails', () => {});
  });

  describe('before all hook fails', () => {
    beforeAll(() => { throw new Error('before all broke'); });
    it('first under the failing before all', () => {});
    describe('nested under the failing before all', () => {
      it('deep under the failing before all', () => {});
    });
  });
});

describe('outer suite', () => {
  test('passes', () => {});  // the same full title twice, in two describe blocks of one name
});

describe('duplicate titles', () => {
  test('same title', () => {});
  test('same title', () => { throw new Error('the second of two same titles fails'); });
});
