"""What a person reads on a page, minus tokens, code, numbers and math: for the one-language-per-page test."""

from __future__ import annotations

import re

from model import PRETRAINED, TASKS

# Every text node of the app that is visible, outside code (tokens are code spans), math (KaTeX), plotly's
# tick labels (tokens and numbers), text boxes (what the user typed) and the language switch (both names);
# plus the placeholders of visible text boxes.
VISIBLE_TEXT_JS = """
() => {
  const skip = 'code, pre, .katex, .katex-display, .st-key-lang, .xtick, .ytick, [class*="tick"], input, '
    + 'textarea, header, [data-testid="stToolbar"], [data-testid="stStatusWidget"], '
    + '[data-testid="stPlotlyChart"] .modebar';
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
    if (box.checkVisibility()) parts.push(box.placeholder);
  }
  return parts;
}
"""

# Words that stay English in Chinese: symbols, names and formats, kept short on purpose.
SYMBOLS = {
    "Attention", "Lab", "Is", "All", "You", "Need",  # the app's and the paper's names
    "Transformer", "softmax", "LayerNorm", "ReLU", "FFN", "RNN", "GRU", "LSTM", "Seq2Seq", "Bahdanau", "Luong",
    "QKᵀ", "d_model", "d_k", "d_ff", "dk", "dₖ", "PageUp", "PageDown", "PNG", "SVG", "CSV", "JSON", "NPZ", "ZIP",
    "zip", "safetensors", "config", "json", "model", "LN", "exp", "max", "argmax", "QR",
}  # fmt: skip
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def vocabulary_words() -> set[str]:
    """Every token of every task, special tokens and model names: data, not words of the interface."""
    words = {"pad", "bos", "eos", "unk"}
    for task_class in TASKS.values():
        task = task_class()
        words |= set(task.src_vocab.words) | set(task.tgt_vocab.words)
    for name in PRETRAINED:
        words |= {name, *re.split(r"[-_]", name)}
    return words


def english_words(parts: list[str]) -> list[str]:
    """English words in the texts that are neither symbols nor tokens."""
    allowed = SYMBOLS | vocabulary_words()
    return sorted({w for text in parts for w in ENGLISH_WORD.findall(text) if w not in allowed})


def chinese_texts(parts: list[str]) -> list[str]:
    """Texts holding Chinese characters that are not tokens of a Chinese vocabulary."""
    tokens = vocabulary_words()
    return sorted({t for t in parts if CJK.search(t) and not all(w in tokens for w in t.split())})
