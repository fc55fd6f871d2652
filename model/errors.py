"""Errors whose message is meant for the person at the keyboard.

Each carries its English message template and the values that fill it, so the app can show the message
in the reader's language (ui.i18n.explain); str(error) is the English message.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Mark a message template for translation without translating it here (gettext_noop)."""
    return message


class LabError(ValueError):
    """A message for a person: `template` (English, with {named} placeholders) and its `params`."""

    def __init__(self, template: str, **params):
        self.template, self.params = template, params
        super().__init__(template.format(**params) if params else template)


class InputError(LabError):
    """The text typed in cannot be run (empty, too long, ...); the message says why and what to do."""


class CheckpointError(LabError):
    """A checkpoint is missing, damaged or does not fit its config; the message names the problem."""


class FolderError(CheckpointError):
    """A model folder (a save_pretrained output, a Hugging Face snapshot) this lab cannot open: the message names what
    was found and what is supported (model/io/folder.py)."""


def one_of(name: str, choices, value) -> LabError:
    """'{name} must be one of a, b, c; got 'x'.': a setting outside its choices (raise the result)."""
    return LabError(
        N_("{name} must be one of {choices}; got {value}."), name=name, choices=", ".join(choices), value=repr(value)
    )
