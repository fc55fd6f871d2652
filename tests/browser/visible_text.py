"""What a person reads on a page, minus tokens, code, numbers and math: for the one-language-per-page test."""

from __future__ import annotations

import re

from attention_lab.chart import CHARTS
from model import PRETRAINED, TASKS
from model.gpt import GPT_TASKS
from model.tasks.segment import longest_match
from model.teach.walkthrough import DEFAULT_TOKENS

# Every text node of the app that is visible, outside code (tokens are code spans), math (KaTeX), plotly's
# tick labels (tokens and numbers), text boxes (what the user typed), the language switch (both names) and
# Streamlit's icon ligatures and screen-reader skip link; plus the placeholders of visible empty text boxes.
VISIBLE_TEXT_JS = """
() => {
  const skip = 'code, pre, .katex, .katex-display, .st-key-lang, .xtick, .ytick, [class*="tick"], input, '
    + 'textarea, header, [data-testid="stToolbar"], [data-testid="stStatusWidget"], '
    + 'CHARTS .modebar, [data-testid="stIconMaterial"], [data-testid="stSkipToContent"]';
  const app = document.querySelector('[data-testid="stApp"]');
  const parts = [];
  const walker = document.createTreeWalker(app, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    const text = walker.currentNode.textContent.trim();
    if (!text || !el || el.closest(skip)) continue;
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true, opacityProperty: false})) continue;
    parts.push(text);
  }
  for (const box of app.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    // a select's search box shows its placeholder only while nothing is chosen
    if (box.checkVisibility() && !box.value && box.getAttribute('role') !== 'combobox') parts.push(box.placeholder);
  }
  return parts;
}
""".replace("CHARTS", CHARTS)

# Words that stay English in Chinese: symbols, names and formats, kept short on purpose.
SYMBOLS = {
    "Attention", "Lab", "Is", "All", "You", "Need",  # the app's and the paper's names
    "Transformer", "softmax", "LayerNorm", "ReLU", "FFN", "RNN", "GRU", "LSTM", "Seq2Seq", "Bahdanau", "Luong",
    "QKᵀ", "d_model", "d_k", "d_ff", "dk", "dₖ", "PageUp", "PageDown", "PNG", "SVG", "CSV", "JSON", "NPZ", "ZIP",
    "zip", "safetensors", "config", "json", "model", "LN", "exp", "max", "argmax", "QR", "QK", "Concat", "CPU",
    "PE", "pos", "sin", "cos", "src", "tgt",  # the positional-encoding formula and trace names
    "tanh", "PyTorch", "torch", "AMD", "EPYC",  # the RNN page: the tanh cell, the benchmark machine's CPU and library
    "GPT", "GELU", "KV", "top", "logit", "logits",  # the GPT: its name, its MLP, its cache, top-k / top-p, logits
}  # fmt: skip
SYMBOLS_LOWER = {s.lower() for s in SYMBOLS}  # "Softmax" at the start of a sentence is still softmax
# Streamlit's own frontend words, which no public API translates (the file uploader's drop zone).
FRONTEND_TEXT = {"Drag and drop file here", "Browse files", "Press Enter to apply"}
ENGLISH_WORD = re.compile(r"(?<![_\w])[A-Za-z][A-Za-z']+")  # not a subscript such as the ij of α_ij
CJK = re.compile(r"[\u3001\u3002\u300c-\u300f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff5e]")


def vocabulary_words() -> set[str]:
    """Every token of every task, special tokens and model names: data, not words of the interface."""
    words = {"pad", "bos", "eos", "unk", *DEFAULT_TOKENS}  # the walkthrough's worked example too
    for task_class in TASKS.values():
        task = task_class()
        words |= set(task.src_vocab.words) | set(task.tgt_vocab.words)
    for name in (*PRETRAINED, *(task.name for task in GPT_TASKS.values())):  # models and the GPTs' tasks
        words |= {name, *re.split(r"[-_]", name)}
    return words


def english_words(parts: list[str]) -> list[str]:
    """English words in the texts that are neither symbols nor tokens."""
    allowed = SYMBOLS | vocabulary_words()
    words = {w for text in parts if text not in FRONTEND_TEXT for w in ENGLISH_WORD.findall(text)}
    return sorted(w for w in words if w not in allowed and w.lower() not in SYMBOLS_LOWER)


def chinese_texts(parts: list[str]) -> list[str]:
    """Texts holding Chinese that is not made of tokens of a Chinese vocabulary (the translate-zh task's
    description quotes 'X 的 Y', for one)."""
    tokens = vocabulary_words()
    runs = re.compile(CJK.pattern + "+")
    return sorted({t for t in parts if any(_not_tokens(run, tokens) for run in runs.findall(t))})


def _not_tokens(run: str, tokens: set[str]) -> bool:
    return any(piece not in tokens for piece in longest_match(run, tokens))
