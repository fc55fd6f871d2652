"""The "Using the model from Python" snippets of both READMEs run exactly as written, and every value a comment
promises (`lab.predict(...)  # 'le chien …'`, `….shape  # (1, 4, 8, 8): …`) is the value the line gives."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import torch

from .minilm import minilm

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)
PROMISE = re.compile(r"#\s*('[^']*'|\([\d, ]+\))")  # a comment that starts with a string or a shape


def promised(line: str):
    match = PROMISE.search(line)
    return None if match is None else ast.literal_eval(match.group(1))


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_the_python_snippets_run_as_written(readme, tmp_path, monkeypatch):
    minilm()  # the third snippet loads MiniLM: skipped without its package (failed in CI)
    monkeypatch.chdir(tmp_path)  # the folder snippet writes tiny-gpt2/ where it runs
    blocks = PYTHON_BLOCK.findall((ROOT / readme).read_text(encoding="utf-8"))
    assert len(blocks) == 6, "the model section's six snippets (Transformer, RNN, MiniLM, GPT, induction, a folder)"
    namespace: dict = {}
    checked = 0
    for block in blocks:
        lines = block.splitlines()
        for statement in ast.parse(block).body:
            code = compile(ast.Module([statement], []), readme, "exec")
            if isinstance(statement, ast.Expr):
                value = eval(compile(ast.Expression(statement.value), readme, "eval"), namespace)
                expected = promised(lines[statement.lineno - 1])
                if expected is not None:
                    got = tuple(value) if isinstance(value, torch.Size) else value
                    assert got == expected, lines[statement.lineno - 1]
                    checked += 1
            else:
                exec(code, namespace)
    # the prediction, the cross-attention shape, the RNN's arch, its attention shape; MiniLM's arch, word pieces,
    # attention shape, embedding shape, a similarity and the atlas's shape; the GPT's arch, tokens and causal weights;
    # the induction model's vocabulary, a head's trace name, its shape, where it looks, its induction score, the
    # previous-token head's score and what it writes; the folder's arch, its tokens as text and an attention shape
    assert checked == 23
    gpt = namespace["lm"]  # the GPT snippet's promises in prose: most likely first, probs summing to 1, same seed
    dist, tr = namespace["dist"], namespace["tr"]
    assert dist.probs == sorted(dist.probs, reverse=True) and abs(sum(dist.probs) - 1) < 1e-9
    assert namespace["text"] == gpt.generate("To be", n=40, temperature=0.8, top_k=10, top_p=0.95, seed=1)
    weights = tr["decoder.0.self_attn.weights"][0]
    assert bool((torch.triu(weights, diagonal=1) == 0).all())
