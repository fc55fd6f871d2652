"""The RNN vs Transformer page (pages/rnn-vs-transformer.py): which models it compares, its five parts, and the
notice the Transformer-only pages show for an RNN model."""
