"""Convert public labelled model outputs into tests/data/peer_outputs/<suite>.jsonl.

Reads local copies of the upstream files (nothing is fetched here) and writes only data: one case a
line, {"gold", "prediction", "label", "source", "prediction_is", "profile"}. See
tests/data/peer_outputs/README.md for provenance, licences and how tests/test_math_peers.py grades
them. Usage:

    python scripts/peer_outputs_convert.py --gsm8k example_model_solutions.jsonl \
        --omni-a inconsistent_case_A.jsonl --omni-b inconsistent_case_B.jsonl \
        --mathvista output_gpt4_2shot_solution.json --mgsm exemplars.py
"""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path
from typing import Any

OUT_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "peer_outputs"
GSM8K_REF = "openai/grade-school-math@3101c7d5072418e28b9008a6636bde82a006892c:grade_school_math/data/example_model_solutions.jsonl"
OMNI_REF = "KbsdJames/omni-math-rule@7c5fe7ddf5a4753ef021fc3d6ff27f27e74b2c96:evaluation/data/math"
GSM8K_PROBLEMS = 50  # x 4 models = 200 rows
OMNI_B_ROWS = 100  # all 66 rows of case A, the first 100 of case B
MATHVISTA_REF = "lupantech/MathVista@53d525874bdde205128e6b160b7357a88277d479:results/gpt4/output_gpt4_2shot_solution.json"
MATHVISTA_WORD_PROBLEMS = 100  # the first 100 free-form word problems, then every geometry problem
MGSM_REF = "google-research/url-nlp@452a21ad3dae5668c06ceeac21ff073e1e40f9be:mgsm/exemplars.py"
GSM8K_MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def gsm8k(path: Path) -> list[dict[str, Any]]:
    """GPT-3 solutions to GSM8K test problems, each with OpenAI's `is_correct`. The gold is the
    number after the reference solution's last `A:`, without thousands commas (GSM8K's own `####`
    answers have none; this file's `A:` lines sometimes do). Solutions end in `A: N`, which no
    strict anchor reads: graded with the lenient profile."""
    rows = []
    for line_no, row in enumerate(read_jsonl(path)[:GSM8K_PROBLEMS], start=1):
        gold = row["ground_truth"].rsplit("A:", 1)[1].strip().replace(",", "")
        for model in GSM8K_MODELS:
            rows.append({"gold": gold, "prediction": row[model]["solution"], "label": bool(row[model]["is_correct"]),
                         "source": f"{GSM8K_REF}::line{line_no}/{model}", "prediction_is": "completion",
                         "profile": "lenient"})
    return rows


def omni(path_a: Path, path_b: Path) -> list[dict[str, Any]]:
    """Omni-MATH model generations whose judge label (`correctness`) and rule-based score disagree:
    case A, judged wrong but scored right; case B, judged right but scored wrong. Hard cases by
    construction, and the judge's labels are not always right. Boxed answers: strict profile."""
    rows = []
    for name, path, limit in (("inconsistent_case_A.jsonl", path_a, None), ("inconsistent_case_B.jsonl", path_b, OMNI_B_ROWS)):
        for line_no, row in enumerate(read_jsonl(path)[:limit], start=1):
            rows.append({"gold": row["answer"], "prediction": row["generation"], "label": bool(row["correctness"]),
                         "source": f"{OMNI_REF}/{name}::line{line_no}", "prediction_is": "completion",
                         "profile": "strict"})
    return rows


def mathvista(path: Path) -> list[dict[str, Any]]:
    """GPT-4 (text only, 2-shot) solutions to MathVista testmini: the first free-form math word
    problems (GSM8K-style prose, `Ruth needs $13.00.`) and every geometry problem (angle notation,
    `Thus, the answer is C (70°).`; a third are Chinese, answered `所以，答案是 (D) 70°。`), each
    with MathVista's `true_false`. Multiple-choice rows keep their choices, as a service task would
    send them; the gold is MathVista's answer (a choice's text). Every row keeps its `question` as `problem`
    (MathTask.problem: the names a step line may use above a caseless answer, `所以，答案是D。`). Anchored prose: strict
    profile."""
    with path.open(encoding="utf-8") as f:
        items = sorted(json.load(f).values(), key=lambda v: int(v["pid"]))
    words = [v for v in items if v["metadata"]["task"] == "math word problem" and v["question_type"] == "free_form"]
    geometry = [v for v in items if v["metadata"]["task"] == "geometry problem solving"]
    rows = []
    for v in sorted(words[:MATHVISTA_WORD_PROBLEMS] + geometry, key=lambda v: int(v["pid"])):
        row = {"gold": str(v["answer"]), "prediction": v["response"], "label": bool(v["true_false"]),
               "source": f"{MATHVISTA_REF}::pid{v['pid']}", "prediction_is": "completion", "profile": "strict",
               "language": v["metadata"]["language"], "problem": v["question"]}
        if v["question_type"] == "multi_choice":
            row["choices"] = [str(c) for c in v["choices"]]
        rows.append(row)
    return rows


def mgsm(path: Path) -> list[dict[str, Any]]:
    """MGSM's few-shot exemplars: 8 GSM8K-style step-by-step solutions, each translated by people into
    11 languages and ending in that language's anchor (`Die Antwort lautet 39.`, `La réponse est 11.`,
    `答案是 11。`). Each solution with its own answer (`EXEMPLAR_NUMBER_ANSWERS`) is a row labelled
    correct; the same solution with the next exemplar's different answer is a row labelled wrong
    (labels by construction, see the README). The file is Python: its two literals are read with
    `ast.literal_eval`, never executed. Anchored prose: strict profile."""
    literals = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            literals[node.targets[0].id] = node.value
    answers = ast.literal_eval(literals["EXEMPLAR_NUMBER_ANSWERS"])
    exemplars = ast.literal_eval(literals["MGSM_EXEMPLARS"])
    rows = []
    for lang in sorted(exemplars):
        for i, answer in enumerate(answers):
            solution = exemplars[lang][str(i + 1)]["a"]
            other = next(j for j in range(i + 1, i + len(answers)) if answers[j % len(answers)] != answer) % len(answers)
            for gold, label, tag in ((answer, True, ""), (answers[other], False, f"/gold-of-{other + 1}")):
                rows.append({"gold": str(gold), "prediction": solution, "label": label,
                             "source": f"{MGSM_REF}::{lang}/{i + 1}{tag}", "prediction_is": "completion",
                             "profile": "strict", "language": lang})
    return rows


def write(name: str, rows: list[dict[str, Any]]) -> None:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    with (OUT_DIR / f"{name}.jsonl").open("w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    print(f"{name}: {len(rows)} rows, {sum(r['label'] for r in rows)} labelled correct")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gsm8k", type=Path, required=True)
    parser.add_argument("--omni-a", type=Path, required=True)
    parser.add_argument("--omni-b", type=Path, required=True)
    parser.add_argument("--mathvista", type=Path, required=True)
    parser.add_argument("--mgsm", type=Path, required=True)
    args = parser.parse_args()
    write("gsm8k_gpt3", gsm8k(args.gsm8k))
    write("omni_math_judge", omni(args.omni_a, args.omni_b))
    write("mathvista_gpt4", mathvista(args.mathvista))
    write("mgsm_exemplars", mgsm(args.mgsm))


if __name__ == "__main__":
    main()
