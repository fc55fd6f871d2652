"""A decoder-only GPT in the GPT-2 layout, traced under our decoder's names (model/naming.py).

config.py     GPTConfig: sizes; learned positions, pre-LN, GELU (tanh) fixed (arch "gpt"); mlp and tied options
vocab.py      CharVocab: one token per character, capped to the most frequent, the rest one unknown mark □
tokenizer.py  GPTTokenizer: what LoadedGPT asks of a vocabulary (CharVocab, ByteLevelBPE satisfy it)
bpe.py        ByteLevelBPE: GPT-2's byte-level BPE through `tokenizers`, every token shown as readable text
gpt2.py       GPT-2's config.json and tensor names → GPTConfig and our names (Conv1D weights transposed)
attention.py  CausalSelfAttention: MultiHeadAttention with the causal mask and a key/value cache path
block.py      GPTBlock: pre-LN self-attention and GELU MLP, under DecoderLayer's attribute names
cache.py      KVCache: the keys and values already computed, so generation feeds one token at a time
model.py      GPT: wte + wpe → N blocks → ln_f → logits tied to wte; forward(ids, record=True) → (logits, Trace)
runner.py     LoadedGPT: next_token, generate, trace, run, tokenize (the pages' interface); GPTTask
train.py      train_gpt: random windows, next-character cross-entropy, a progress callback
train_cli.py  `python -m model.train --task gpt-en | gpt-zh`: the recipes of the shipped GPTs
induction.py  the induction task: random segments repeated once at a varied length, in 32 single-character tokens
induction_train.py  the induction run: an attention-only GPT trained until a head's induction score reaches 0.5
induction_cli.py  `python -m model.train --task induction`: that run, and the checkpoint it saves
train_checks.py  the training goals' measures on a trained model (seeded 五言绝句)
"""

from .cache import KVCache
from .config import GPTConfig
from .model import GPT
from .runner import GPT_TASKS, GPTTask, LoadedGPT, NextToken
from .vocab import UNKNOWN_MARK, CharVocab

__all__ = [
    "GPT",
    "GPT_TASKS",
    "UNKNOWN_MARK",
    "CharVocab",
    "GPTConfig",
    "GPTTask",
    "KVCache",
    "LoadedGPT",
    "NextToken",
]
