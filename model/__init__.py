"""Attention Lab's model package: a traced encoder–decoder Transformer and RNN, a GPT, toy tasks and training.

Pure PyTorch: nothing here imports Streamlit, plotly, or the app's layers above it (services, ui, viz).

transformer/     the encoder–decoder Transformer: config, attention, positions, layers, model
rnn/             the recurrent encoder–decoder with attention: config, cells, encoder, attention, model
bert/            a BERT-family encoder (MiniLM from an installed package) traced under the encoder's names
gpt/             a decoder-only GPT in the GPT-2 layout (character-level, KV cache) traced under the decoder's names
analysis/        numbers computed from traces: attention, layers, the RNN lessons, heads switched off, the probe,
                 the head atlas (what each head attends to)
io/              checkpoints, the shipped models, archives, trace exports, opened model folders (safetensors,
                 never pickle)
teach/           the walkthrough's arithmetic, one block opened up, questions with their answers
tasks/           the toy tasks and their vocabularies
naming.py        AttentionKind and every trace name with its shape: the contract with everything else
trace.py         Trace, what a traced forward returns; ablation.py what a run may switch off
sampling.py      choosing the next token: temperature, top-k, top-p, greedy, seeded samples
architectures.py the families by name; runner.py LoadedModel (bert/runner.py LoadedEncoder); decode.py greedy decoding
train.py         training (`python -m model.train`); checkpoints/ the shipped models
"""

from . import sampling
from .ablation import NO_ABLATION, Ablation
from .bert import BertConfig, BertEncoder, LoadedEncoder, cosine_similarity, load_minilm, sentence_embedding
from .errors import CheckpointError, FolderError, InputError
from .gpt import GPT, CharVocab, GPTConfig, KVCache, LoadedGPT, NextToken
from .io.checkpoint import load_checkpoint, load_checkpoint_bytes, save_checkpoint
from .io.folder import FolderInfo, inspect_folder, load_folder
from .io.pretrained import (
    PRETRAINED,
    AnyLoaded,
    available_pretrained,
    install_command,
    load_pretrained,
    missing_pretrained,
    pretrained_arch,
    rnn_of,
    transformer_of,
)
from .rnn import RNNConfig, RNNSeq2Seq
from .runner import LoadedModel
from .tasks import TASKS, Task, get_task
from .trace import Trace
from .transformer import ModelConfig, Seq2SeqTransformer
from .transformer.attention import AttentionResult, attention, causal_mask
from .transformer.positional import sinusoidal_at, sinusoidal_curve, sinusoidal_table

__all__ = [
    "GPT",
    "NO_ABLATION",
    "PRETRAINED",
    "TASKS",
    "Ablation",
    "AnyLoaded",
    "AttentionResult",
    "BertConfig",
    "BertEncoder",
    "CharVocab",
    "CheckpointError",
    "FolderError",
    "FolderInfo",
    "GPTConfig",
    "InputError",
    "KVCache",
    "LoadedEncoder",
    "LoadedGPT",
    "LoadedModel",
    "ModelConfig",
    "NextToken",
    "RNNConfig",
    "RNNSeq2Seq",
    "Seq2SeqTransformer",
    "Task",
    "Trace",
    "attention",
    "available_pretrained",
    "causal_mask",
    "cosine_similarity",
    "get_task",
    "inspect_folder",
    "install_command",
    "load_checkpoint",
    "load_checkpoint_bytes",
    "load_folder",
    "load_minilm",
    "load_pretrained",
    "missing_pretrained",
    "pretrained_arch",
    "rnn_of",
    "sampling",
    "save_checkpoint",
    "sentence_embedding",
    "sinusoidal_at",
    "sinusoidal_curve",
    "sinusoidal_table",
    "transformer_of",
]  # fmt: skip
