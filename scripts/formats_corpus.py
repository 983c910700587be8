"""Writes the conformance corpus tests/data/formats/*.jsonl (docs/datasets.md "Dataset formats"): rows shaped as each
public dataset stores them, each with a correct, a wrong and an edge completion and the verdict it must get.

    python scripts/formats_corpus.py tests/data/formats
"""
import base64
import json
import pickle
import sys
import zlib
from pathlib import Path

OUT = Path(sys.argv[1])
OUT.mkdir(parents=True, exist_ok=True)


def fence(code, tag="python"):
    return f"Here is my solution.\n```{tag}\n{code}\n```\n"


def write(name, rows):
    with open(OUT / f"{name}.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def three(row, cases):
    return [{**row, "case": case, "completion": comp, "expect": expect} for case, comp, expect in cases]


SUM_PROD = "a, b = map(int, input().split())\nprint(a + b)\nprint(a * b)"
# ---------------------------------------------------------------- open-r1 verification_info
stdin_info = {"language": "python", "test_cases": [
    {"type": "stdin_stdout", "input": "2 3\n", "output": "5\n6\n"},
    {"type": "stdin_stdout", "input": "-4 10\n", "output": "6\n-40\n"}]}
call_info = {"language": "python", "test_cases": [
    {"type": "function_call", "fn_name": "merge_sorted", "input": [[1, 4], [2, 3]], "output": [[1, 2, 3, 4]]},
    {"type": "function_call", "fn_name": "merge_sorted", "input": [[], [5]], "output": [[5]]}]}
rows = three({"problem_id": "openr1-sumprod", "source": "codeforces", "verification_info": json.dumps(stdin_info)}, [
    ("correct", fence(SUM_PROD), "accepted"),
    # open-r1's own grader zips lines, so printing only the first line passes there: a wrong answer
    ("wrong", fence("a, b = map(int, input().split())\nprint(a + b)"), "wrong_answer"),
    ("edge", fence("a, b = map(int, input().split())\nprint(a + b, '  ')\nprint(a * b)\nprint()\n"), "accepted"),
])
rows += three({"problem_id": "openr1-merge", "source": "taco", "verification_info": call_info}, [
    ("correct", fence("def merge_sorted(a, b):\n    return sorted(a + b)"), "accepted"),
    ("wrong", fence("def merge_sorted(a, b):\n    return a + b"), "wrong_answer"),
    # a tuple for a list: APPS-family graders accept it
    ("edge", fence("def merge_sorted(a, b):\n    return tuple(sorted(a + b))"), "accepted"),
])
write("open-r1", rows)

# ---------------------------------------------------------------- open-r1/codeforces
checker = '''import sys
inp, correct, sol = sys.argv[1], sys.argv[2], sys.argv[3]
n = int(open(inp).read().split()[0])
try:
    x, y = map(int, open(sol).read().split())
except Exception:
    print(0)
    sys.exit(0)
print(1 if x >= 1 and y >= 1 and x + y == n else 0)
'''
cf = {"id": "1999/Z", "contest_id": "1999", "index": "Z", "title": "Split N", "time_limit": 1.0, "memory_limit": 256.0,
      "description": "Print two positive integers x, y with x + y = n.", "input_mode": "stdio",
      "interaction_format": None, "examples": [{"input": "5\n", "output": "1 4\n"}],
      "official_tests": [{"input": "5\n", "output": "1 4\n"}, {"input": "2\n", "output": "1 1\n"},
                         {"input": "1000000\n", "output": "1 999999\n"}],
      "official_tests_complete": True, "generated_checker": checker, "executable": True, "testset_size": 3}
rows = three(cf, [
    ("correct", fence("n = int(input())\nprint(1, n - 1)"), "accepted"),
    ("wrong", fence("n = int(input())\nprint(0, n)"), "wrong_answer"),
    # another valid answer than the reference output: only the checker can accept it
    ("edge", fence("n = int(input())\nprint(n - 1, 1)"), "accepted"),
])
cf_file = {**cf, "id": "120/A", "contest_id": "120", "index": "A", "title": "Double it (file I/O)",
           "description": "Read n from input.txt, write 2n to output.txt.", "input_mode": "file",
           "official_tests": [{"input": "3\n", "output": "6\n"}, {"input": "-7\n", "output": "-14\n"}],
           "generated_checker": None, "examples": [{"input": "3\n", "output": "6\n"}]}
rows += three(cf_file, [
    ("correct", fence("n = int(open('input.txt').read())\nopen('output.txt', 'w').write(str(2 * n) + '\\n')"), "accepted"),
    ("wrong", fence("n = int(open('input.txt').read())\nopen('output.txt', 'w').write(str(n + n + 1))"), "wrong_answer"),
    # right number on stdout, nothing in output.txt: the judge reads the file
    ("edge", fence("n = int(open('input.txt').read())\nprint(2 * n)"), "wrong_answer"),
])
write("codeforces", rows)

# ---------------------------------------------------------------- APPS / TACO input_output
apps_stdin = {"problem_id": 4100, "question": "Print the mean of n integers with 6 decimals.", "difficulty": "introductory",
              "solutions": json.dumps(["n=int(input())\nxs=list(map(int,input().split()))\nprint('%.6f'%(sum(xs)/n))"]),
              "starter_code": "", "url": "https://example.invalid/4100",
              "input_output": json.dumps({"inputs": ["3\n1 2 4\n", "2\n5 6\n"], "outputs": ["2.333333\n", "5.500000\n"]})}
rows = three(apps_stdin, [
    ("correct", fence("n = int(input())\nxs = list(map(int, input().split()))\nprint('%.6f' % (sum(xs) / n))"), "accepted"),
    ("wrong", fence("n = int(input())\nxs = list(map(int, input().split()))\nprint('%.6f' % (sum(xs) // n))"), "wrong_answer"),
    # more digits than the reference: equal within 1e-6
    ("edge", fence("n = int(input())\nxs = list(map(int, input().split()))\nprint(sum(xs) / n)"), "accepted"),
])
apps_call = {"problem_id": 2500, "question": "Return the two largest numbers, largest first.", "difficulty": "introductory",
             "solutions": "[]", "starter_code": "def two_largest(xs):\n\t",
             "input_output": json.dumps({"fn_name": "two_largest", "inputs": [[[1, 9, 3]], [[5, 5, 1, 0]]],
                                         "outputs": [[[9, 3]], [[5, 5]]]})}
rows += three(apps_call, [
    ("correct", fence("def two_largest(xs):\n    return sorted(xs, reverse=True)[:2]"), "accepted"),
    ("wrong", fence("def two_largest(xs):\n    return sorted(xs)[:2]"), "wrong_answer"),
    ("edge", fence("def two_largest(xs):\n    a = max(xs)\n    rest = list(xs)\n    rest.remove(a)\n    return (a, max(rest))"), "accepted"),
])
taco_class = {"question": "Given nums, return the count of even numbers.", "source": "leetcode", "difficulty": "EASY",
              "starter_code": "class Solution:\n    def countEven(self, nums: List[int]) -> int:\n        ",
              "input_output": json.dumps({"fn_name": "countEven", "inputs": [[[1, 2, 4]], [[]]], "outputs": [2, 0]}),
              "solutions": "[]", "tags": "[]", "skill_types": "[]", "url": "", "Expected Auxiliary Space": None,
              "time_limit": None, "date": None, "picture_num": None, "memory_limit": None, "Expected Time Complexity": None,
              "raw_tags": "[]", "name": None}
rows += three(taco_class, [
    ("correct", fence("class Solution:\n    def countEven(self, nums: List[int]) -> int:\n        return sum(1 for x in nums if x % 2 == 0)"), "accepted"),
    ("wrong", fence("class Solution:\n    def countEven(self, nums: List[int]) -> int:\n        return sum(1 for x in nums if x % 2)"), "wrong_answer"),
    # a crash on the empty list is the program's runtime_error
    ("edge", fence("class Solution:\n    def countEven(self, nums):\n        return len([x for x in nums if x % 2 == 0]) // (len(nums) > 0) if nums else 1 // 0"), "runtime_error"),
])
write("apps", rows)

# ---------------------------------------------------------------- LiveCodeBench
def lcb_private(tests):
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode()


lcb_stdin = {"question_title": "Max of three", "question_content": "Print the largest of three integers.",
             "platform": "atcoder", "question_id": "abc999_a", "contest_id": "abc999", "contest_date": "2025-01-04T00:00:00",
             "starter_code": "", "difficulty": "easy",
             "public_test_cases": json.dumps([{"input": "1 5 3\n", "output": "5\n", "testtype": "stdin"}]),
             "private_test_cases": lcb_private([{"input": "-1 -5 -3\n", "output": "-1\n", "testtype": "stdin"},
                                                {"input": "7 7 7\n", "output": "7\n", "testtype": "stdin"}]),
             "metadata": "{}"}
rows = three(lcb_stdin, [
    ("correct", fence("print(max(map(int, input().split())))"), "accepted"),
    # passes the public test, fails the private ones (they are decoded and run)
    ("wrong", fence("a, b, c = map(int, input().split())\nprint(b)"), "wrong_answer"),
    ("edge", fence("import sys\nxs = sys.stdin.read().split()\nsys.stdout.write('  %d  \\n\\n' % max(map(int, xs)))"), "accepted"),
    # `reduce` and `sys` used without importing them: LiveCodeBench's grader imports them first
    ("edge", fence("print(reduce(max, map(int, sys.stdin.read().split())))"), "accepted"),
])
lcb_fn = {"question_title": "Sum of squares", "question_content": "Return the sum of squares of nums.", "platform": "leetcode",
          "question_id": "9999", "contest_id": "weekly-contest-999", "contest_date": "2025-01-05T00:00:00",
          "starter_code": "class Solution:\n    def sumOfSquares(self, nums: List[int], k: int) -> int:\n        ",
          "difficulty": "easy",
          "public_test_cases": json.dumps([{"input": "[1, 2, 3]\n1", "output": "14", "testtype": "functional"}]),
          "private_test_cases": lcb_private([{"input": "[]\n2", "output": "0", "testtype": "functional"},
                                             {"input": "[-2]\n3", "output": "12", "testtype": "functional"}]),
          "metadata": json.dumps({"func_name": "sumOfSquares"})}
rows += three(lcb_fn, [
    ("correct", fence("class Solution:\n    def sumOfSquares(self, nums: List[int], k: int) -> int:\n        return k * sum(x * x for x in nums)"), "accepted"),
    ("wrong", fence("class Solution:\n    def sumOfSquares(self, nums: List[int], k: int) -> int:\n        return sum(x * x for x in nums)"), "wrong_answer"),
    # a float result equal in value: LiveCodeBench's == accepts 14.0 for 14
    ("edge", fence("class Solution:\n    def sumOfSquares(self, nums, k):\n        return float(k * sum(x * x for x in nums))"), "accepted"),
    # a main block reading stdin: LiveCodeBench loads the program as a module, so it does not run
    ("edge", fence("class Solution:\n    def sumOfSquares(self, nums: List[int], k: int) -> int:\n        return k * sum(x * x for x in nums)\n\n"
                   "if __name__ == '__main__':\n    print(Solution().sumOfSquares(eval(input()), int(input())))"), "accepted"),
])
write("livecodebench", rows)

# ---------------------------------------------------------------- CodeContests
cc = {"name": "1000_A. Triangle count", "description": "Given n, print n*(n+1)/2.", "source": 2, "difficulty": 7,
      "public_tests": {"input": ["3\n"], "output": ["6\n"]},
      "private_tests": {"input": ["1\n", "100000\n"], "output": ["1\n", "5000050000\n"]},
      "generated_tests": {"input": ["0\n", "10\n"], "output": ["0\n", "55\n"]},
      "solutions": {"language": [3], "solution": ["n=int(input())\nprint(n*(n+1)//2)"]},
      "incorrect_solutions": {"language": [], "solution": []}, "cf_contest_id": 1000, "cf_index": "A", "cf_points": 500.0,
      "cf_rating": 800, "cf_tags": ["math"], "is_description_translated": False, "untranslated_description": "",
      "time_limit": {"seconds": 2, "nanos": 0}, "memory_limit_bytes": 268435456, "input_file": "", "output_file": ""}
rows = three(cc, [
    ("correct", fence("n = int(input())\nprint(n * (n + 1) // 2)"), "accepted"),
    # a float: 5000050000.0 is not the integer answer
    ("wrong", fence("n = int(input())\nprint(n * (n + 1) / 2)"), "wrong_answer"),
    ("edge", fence("#include <cstdio>\nint main(){long long n; scanf(\"%lld\", &n); printf(\"%lld\\n\", n*(n+1)/2);}", "cpp"), "accepted"),
])
write("code_contests", rows)

# ---------------------------------------------------------------- DeepCoder / rllm
dc_lcb = {"problem": "Print the number of vowels in s.", "solutions": [],
          "tests": json.dumps([{"input": "hello\n", "output": "2\n", "testtype": "stdin", "metadata": {}},
                               {"input": "xyz\n", "output": "0\n", "testtype": "stdin", "metadata": {}}])}
rows = three(dc_lcb, [
    ("correct", fence("print(sum(c in 'aeiou' for c in input()))"), "accepted"),
    ("wrong", fence("print(sum(c in 'aeiouy' for c in input()))"), "wrong_answer"),
    # prints nothing: before formats, DeepCoder's input/output keys ran against empty tests and this passed
    ("edge", fence("pass"), "wrong_answer"),
])
dc_taco = {"problem": "Return n factorial.", "solutions": [],
           "tests": json.dumps({"fn_name": "fact", "inputs": [[0], [5]], "outputs": [[1], [120]]})}
rows += three(dc_taco, [
    ("correct", fence("import math\ndef fact(n):\n    return math.factorial(n)"), "accepted"),
    ("wrong", fence("def fact(n):\n    return n"), "wrong_answer"),
    ("edge", fence("def fact(n):\n    return 1 if n == 0 else n * fact(n - 1)"), "accepted"),
])
dc_lcb_fn = {"problem": "Return the reversed list.", "solutions": [],
             "tests": json.dumps([{"input": "[1, 2, 3]", "output": "[3, 2, 1]", "testtype": "functional",
                                   "metadata": {"func_name": "rev"}}])}
rows += three(dc_lcb_fn, [
    ("correct", fence("class Solution:\n    def rev(self, a: List[int]) -> List[int]:\n        return a[::-1]"), "accepted"),
    ("wrong", fence("class Solution:\n    def rev(self, a):\n        return a"), "wrong_answer"),
    ("edge", fence("class Solution:\n    def rev(self, a):\n        while True:\n            pass"), "time_limit"),
])
write("deepcoder", rows)

# ---------------------------------------------------------------- verl prime_code
verl_stdin = {"data_source": "codecontests", "prompt": [{"role": "user", "content": "Print a - b."}], "ability": "code",
              "reward_model": {"style": "rule", "ground_truth": json.dumps({"inputs": ["5 3\n", "0 9\n"], "outputs": ["2\n", "-9\n"]})},
              "extra_info": {"index": 0, "split": "train"}}
rows = three(verl_stdin, [
    ("correct", fence("a, b = map(int, input().split())\nprint(a - b)"), "accepted"),
    ("wrong", fence("a, b = map(int, input().split())\nprint(abs(a - b))"), "wrong_answer"),
    ("edge", fence("a, b = map(int, input().split())\nprint(a - b)\nraise SystemExit(3)"), "runtime_error"),
])
verl_fn = {"data_source": "apps", "prompt": [{"role": "user", "content": "Write is_palindrome(s)."}], "ability": "code",
           "reward_model": {"style": "rule", "ground_truth": json.dumps({"fn_name": "is_palindrome", "inputs": [["abba"], ["ab"]],
                                                                          "outputs": [[True], [False]]})},
           "extra_info": {"index": 1, "split": "train"}}
rows += three(verl_fn, [
    ("correct", fence("def is_palindrome(s):\n    return s == s[::-1]"), "accepted"),
    ("wrong", fence("def is_palindrome(s):\n    return True"), "wrong_answer"),
    # 1 for True: equal in Python (APPS's and LiveCodeBench's graders accept it); our call tests
    # compare a bool only with a bool (docs/datasets.md "Dataset formats")
    ("edge", fence("def is_palindrome(s):\n    return int(s == s[::-1])"), "wrong_answer"),
])
verl_assert = {"data_source": "kodcode", "prompt": [{"role": "user", "content": "Write clamp(x, lo, hi)."}], "ability": "code",
               "reward_model": {"style": "rule", "ground_truth": json.dumps({"fn_name": "clamp", "assert_case": [
                   "assert clamp(5, 0, 3) == 3", "assert clamp(-1, 0, 3) == 0", "assert clamp(2, 0, 3) == 2"]})},
               "extra_info": {"index": 2, "split": "train"}}
rows += three(verl_assert, [
    ("correct", fence("def clamp(x, lo, hi):\n    return max(lo, min(x, hi))"), "accepted"),
    ("wrong", fence("def clamp(x, lo, hi):\n    return min(x, hi)"), "wrong_answer"),
    ("edge", fence("def clamp(x, lo, hi):\n    assert False, 'no'"), "wrong_answer"),
])
write("verl", rows)

# ---------------------------------------------------------------- KodCode
kod = {"version": "v1.0", "style": "instruct", "subset": "Leetcode", "question_id": "Leetcode_1_I",
       "question": "Write a function `second_largest(nums)` returning the second largest distinct value, or None.",
       "solution": "def second_largest(nums):\n    s = sorted(set(nums))\n    return s[-2] if len(s) > 1 else None\n",
       "test": "from solution import second_largest\n\ndef test_basic():\n    assert second_largest([1, 3, 2]) == 2\n\n"
               "def test_duplicates():\n    assert second_largest([4, 4, 1]) == 1\n\ndef test_none():\n    assert second_largest([7]) is None\n",
       "test_info": [{"function_name": "second_largest", "parameter_list": "(nums)",
                      "function_declaration": "def second_largest(nums):", "docstring": None}],
       "gpt_pass_sequence": [1, 1, 1], "gpt_pass_trial_num": 3, "gpt_difficulty": "easy", "gpt_pass_percentage": 1.0}
rows = three(kod, [
    ("correct", fence("def second_largest(nums):\n    s = sorted(set(nums))\n    return s[-2] if len(s) > 1 else None"), "accepted"),
    ("wrong", fence("def second_largest(nums):\n    s = sorted(nums)\n    return s[-2] if len(s) > 1 else None"), "wrong_answer"),
    # a main block that prints: importing the program as `solution` does not run it
    ("edge", fence("def second_largest(nums):\n    s = sorted(set(nums))\n    return s[-2] if len(s) > 1 else None\n\nif __name__ == '__main__':\n    print(second_largest([1, 2]))\n    raise SystemExit(1)"), "accepted"),
])
write("kodcode", rows)

# ---------------------------------------------------------------- MBPP
mbpp = {"task_id": 901, "text": "Write a function to find the shared elements of two lists, sorted.",
        "code": "def similar_elements(a, b):\n    return sorted(set(a) & set(b))",
        "test_list": ["assert similar_elements([3, 4, 5, 6], [5, 7, 4, 10]) == [4, 5]",
                      "assert similar_elements([1, 2, 3, 4], [5, 4, 3, 7]) == [3, 4]",
                      "assert similar_elements([11, 12, 14, 13], [17, 15, 14, 13]) == [13, 14]"],
        "test_setup_code": "", "challenge_test_list": []}
rows = three(mbpp, [
    ("correct", fence("def similar_elements(a, b):\n    return sorted(set(a) & set(b))"), "accepted"),
    ("wrong", fence("def similar_elements(a, b):\n    return list(set(a) & set(b))[::-1]"), "wrong_answer"),
    # a tuple is not equal to the list the assert expects (Python's ==, as MBPP's harness runs it)
    ("edge", fence("def similar_elements(a, b):\n    return tuple(sorted(set(a) & set(b)))"), "wrong_answer"),
])
mbpp_setup = {"task_id": 902, "text": "Write a function to count nodes of a binary tree.",
              "code": "def count(t):\n    return 0 if t is None else 1 + count(t.left) + count(t.right)",
              "test_list": ["assert count(root) == 3", "assert count(None) == 0"],
              "test_setup_code": "class Node:\n    def __init__(self, l=None, r=None):\n        self.left, self.right = l, r\nroot = Node(Node(), Node())",
              "challenge_test_list": []}
rows += three(mbpp_setup, [
    ("correct", fence("def count(t):\n    return 0 if t is None else 1 + count(t.left) + count(t.right)"), "accepted"),
    ("wrong", fence("def count(t):\n    return 0 if t is None else 1 + count(t.left)"), "wrong_answer"),
    ("edge", fence("def count(t):\n    if t is None:\n        return 0\n    stack, n = [t], 0\n    while stack:\n        x = stack.pop(); n += 1\n        stack += [c for c in (x.left, x.right) if c is not None]\n    return n"), "accepted"),
])
write("mbpp", rows)

# ---------------------------------------------------------------- HumanEval
he_prompt = 'def running_max(numbers: list) -> list:\n    """Running maximum.\n    >>> running_max([1, 3, 2])\n    [1, 3, 3]\n    """\n'
he = {"task_id": "HumanEval/900", "prompt": he_prompt, "entry_point": "running_max",
      "canonical_solution": "    out, best = [], None\n    for x in numbers:\n        best = x if best is None else max(best, x)\n        out.append(best)\n    return out\n",
      "test": "\n\nMETADATA = {}\n\n\ndef check(candidate):\n    assert candidate([]) == []\n    assert candidate([1, 3, 2]) == [1, 3, 3]\n    assert candidate([5, 4, 6]) == [5, 5, 6]\n"}
rows = three(he, [
    ("correct", fence(he_prompt + he["canonical_solution"]), "accepted"),
    ("wrong", fence("def running_max(numbers):\n    return sorted(numbers)"), "wrong_answer"),
    # the body only, continuing the prompt, as HumanEval is sampled
    ("edge", he["canonical_solution"], "accepted"),
])
write("humaneval", rows)

# ---------------------------------------------------------------- BigCodeBench
bcb_prompt = "import collections\n\ndef task_func(words):\n    \"\"\"Return a Counter of word lengths.\"\"\"\n"
bcb_test = ("import unittest\nimport collections\n\nclass TestCases(unittest.TestCase):\n    def test_empty(self):\n        self.assertEqual(task_func([]), collections.Counter())\n"
            "    def test_lengths(self):\n        r = task_func(['a', 'bb', 'cc'])\n        self.assertIsInstance(r, collections.Counter)\n        self.assertEqual(r[2], 2)\n        self.assertEqual(r[1], 1)\n")
bcb = {"task_id": "BigCodeBench/9000", "complete_prompt": bcb_prompt,
       "instruct_prompt": "Write task_func(words) returning a collections.Counter of word lengths.",
       "canonical_solution": "    return collections.Counter(len(w) for w in words)\n", "code_prompt": bcb_prompt,
       "test": bcb_test, "entry_point": "task_func", "doc_struct": "{}", "libs": "['collections']"}
rows = three(bcb, [
    ("correct", fence(bcb_prompt + bcb["canonical_solution"]), "accepted"),
    # a dict with the right counts is not a Counter: assertIsInstance fails
    ("wrong", fence("def task_func(words):\n    d = {}\n    for w in words:\n        d[len(w)] = d.get(len(w), 0) + 1\n    return d"), "wrong_answer"),
    ("edge", bcb["canonical_solution"], "accepted"),
])
bcb_pd_prompt = "import pandas as pd\n\ndef task_func(rows):\n    \"\"\"A DataFrame with columns a and b from (a, b) pairs, sorted by a.\"\"\"\n"
bcb_pd = {"task_id": "BigCodeBench/9001", "complete_prompt": bcb_pd_prompt, "code_prompt": bcb_pd_prompt,
          "instruct_prompt": "Write task_func(rows) returning a DataFrame with columns a, b sorted by a.",
          "canonical_solution": "    return pd.DataFrame(rows, columns=['a', 'b']).sort_values('a').reset_index(drop=True)\n",
          "test": ("import unittest\nimport pandas as pd\n\nclass TestCases(unittest.TestCase):\n    def test_sorted(self):\n"
                   "        df = task_func([(2, 'x'), (1, 'y')])\n        self.assertEqual(list(df.columns), ['a', 'b'])\n"
                   "        self.assertEqual(df['a'].tolist(), [1, 2])\n        self.assertEqual(df['b'].tolist(), ['y', 'x'])\n"),
          "entry_point": "task_func", "doc_struct": "{}", "libs": "['pandas']"}
rows += three(bcb_pd, [
    ("correct", fence(bcb_pd_prompt + bcb_pd["canonical_solution"]), "accepted"),
    ("wrong", fence(bcb_pd_prompt + "    return pd.DataFrame(rows, columns=['a', 'b'])\n"), "wrong_answer"),
    ("edge", bcb_pd["canonical_solution"], "accepted"),
])
write("bigcodebench", rows)
