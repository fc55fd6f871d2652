"""`python -m attention_lab …` is `attention-lab …`."""

from .cli import main

main()
