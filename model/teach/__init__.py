"""The model opened up for teaching: the walkthrough's arithmetic, one block read out, and questions with answers.

walkthrough.py the arithmetic of the step-by-step walkthrough on a person's own small matrices
inspect.py     one attention block of a trained Transformer: its weights as matrices, its numbers from a trace
questions.py   predict, then reveal: questions about the model's own numbers, and their true answers
"""
