"""Errors whose message is meant for the person at the keyboard."""


class InputError(ValueError):
    """The text typed in cannot be run (empty, too long, ...); the message says why and what to do."""


class CheckpointError(ValueError):
    """A checkpoint is missing, damaged or does not fit its config; the message names the problem."""
