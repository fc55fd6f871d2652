"""A BERT-family encoder (all-MiniLM-L6-v2, from an installed package), traced under our encoder's names.

config.py      BertConfig: sizes from a Hugging Face config.json; post-LN, GELU, learned positions fixed (arch "bert")
embeddings.py  word + learned position + token-type embeddings, then a LayerNorm (src.embed, .pos, .type, .sum, .input)
layer.py       one post-LN layer from our Transformer's parts: MultiHeadAttention, Sublayer, FeedForward(GELU)
model.py       BertEncoder: embeddings → N layers, forward(ids, record=True) → (hidden, Trace)
weights.py     Hugging Face names → ours (query, key, value stacked into in_proj), every tensor checked
tokenizer.py   WordPiece by the `tokenizers` library from tokenizer.json: [CLS] … [SEP], [UNK], the cut at 256
pooling.py     the sentence embedding (mean over real tokens, L2-normalised) and cosine similarity
runner.py      LoadedEncoder: .run(text) → Trace, .embed, .similarity, like model.runner.LoadedModel
package.py     where the installed package keeps the files, and load_minilm()
sentences.py   the 50 sentences (English and Chinese) the head atlas averages over (atlas_sentences.json)
"""

from .config import BertConfig
from .model import BertEncoder
from .package import INSTALL, NAME, is_installed, load_minilm
from .pooling import cosine_similarity, l2_normalize, mean_pool, sentence_embedding
from .runner import EncoderTask, LoadedEncoder
from .tokenizer import WordPieces, WordPieceTokenizer

__all__ = [
    "INSTALL",
    "NAME",
    "BertConfig",
    "BertEncoder",
    "EncoderTask",
    "LoadedEncoder",
    "WordPieceTokenizer",
    "WordPieces",
    "cosine_similarity",
    "is_installed",
    "l2_normalize",
    "load_minilm",
    "mean_pool",
    "sentence_embedding",
]
