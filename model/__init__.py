"""Attention Lab's model package: a traced encoder–decoder Transformer and RNN, toy tasks and training.

Pure PyTorch: nothing here imports Streamlit or plotly.
"""

from .ablation import NO_ABLATION, Ablation
from .attention import AttentionResult, attention, causal_mask
from .checkpoint import load_checkpoint, load_checkpoint_bytes, save_checkpoint
from .config import ModelConfig
from .errors import CheckpointError, InputError
from .positional import sinusoidal_table
from .pretrained import PRETRAINED, load_pretrained
from .rnn import RNNSeq2Seq
from .rnn_config import RNNConfig
from .runner import LoadedModel
from .tasks import TASKS, Task, get_task
from .trace import Trace
from .transformer import Seq2SeqTransformer

__all__ = [
    "NO_ABLATION",
    "PRETRAINED",
    "TASKS",
    "Ablation",
    "AttentionResult",
    "CheckpointError",
    "InputError",
    "LoadedModel",
    "ModelConfig",
    "RNNConfig",
    "RNNSeq2Seq",
    "Seq2SeqTransformer",
    "Task",
    "Trace",
    "attention",
    "causal_mask",
    "get_task",
    "load_checkpoint",
    "load_checkpoint_bytes",
    "load_pretrained",
    "save_checkpoint",
    "sinusoidal_table",
]  # fmt: skip
