"""Every error a room call can raise: an English template marked with N_() plus its parameters.

ui/ shows `gettext(exc.template).format(**exc.params)`; `str(exc)` is the English text. Parameters
never hold the teacher's key, and text that came from the user is cut short before it is echoed.
"""

from services.i18n_marker import N_
from views import ViewError


class RoomError(Exception):
    """Base of the family: a message for the person at the keyboard, never a traceback."""

    template = N_("Something went wrong with the class.")

    def __init__(self, template: str | None = None, **params: object) -> None:
        self.template = template or type(self).template
        self.params = params
        super().__init__(self.template.format(**params))


class RoomNotFound(RoomError):
    """No live or recently ended room has this code (or the code is malformed)."""

    template = N_("There is no class with the code {code}. Check the code, or ask your teacher for the link.")
    MALFORMED = N_("That is not a class code: a class code has {length} letters and digits.")


class RoomClosed(RoomError):
    """The teacher closed the room, or has been gone longer than the teacher timeout."""

    template = N_("Class {code} has ended.")


class WrongKey(RoomError):
    """A teacher call came without the room's key (a student link, or a guessed key)."""

    template = N_(
        "This link does not carry the teacher's key for class {code}, so it cannot change what the class sees."
    )


class RoomFull(RoomError):
    """The room already has its maximum number of connected students."""

    template = N_("Class {code} is full: it already has {limit} students.")


class TooManyRooms(RoomError):
    """The store already holds its maximum number of live rooms."""

    template = N_("The server already runs {limit} classes, its limit. Try again when one has ended.")


class InvalidState(RoomError):
    """What was sent to a room (state, question, answer, model name or file) is malformed; nothing changed."""

    NOT_A_MAPPING = N_("What was sent to the class must be a set of named settings.")
    UNKNOWN_FIELD = N_("The setting “{field}” cannot be sent to a class.")
    UNKNOWN_PAGE = N_("There is no page “{page}” to show a class.")
    MISSING_FIELD = N_("The setting “{field}” is missing.")
    NOT_TEXT = ViewError.NOT_TEXT
    NOT_VALID_TEXT = ViewError.BAD_CHARACTERS
    TOO_LONG = ViewError.TOO_LONG
    EMPTY = N_("“{field}” must not be empty.")
    BAD_NAME = N_("“{field}” may hold only letters, digits, “_”, “-”, “.” and “:”.")
    NOT_INT = ViewError.NOT_WHOLE
    NOT_BOOL = ViewError.NOT_FLAG
    NOT_NUMBER = N_("“{field}” must be a finite number.")
    NOT_CHOICE = ViewError.NOT_CHOICE
    UNKNOWN_KEY = ViewError.UNKNOWN_KEY
    NOT_SCALAR = N_("“{field}” must be text, a number, or true or false.")
    TOO_MANY = N_("“{field}” holds too many entries: {count}, at most {limit}.")
    TOO_LARGE = N_("What was sent to the class is too large: {size} bytes, at most {limit}.")
    OPTIONS = N_("A question needs between {low} and {high} options; this one has {count}.")
    CHOICE = N_("Answer {choice} is not one of the {count} options.")
    KEY_INSIDE = N_("What was sent to the class contains the teacher's key; students would see it, so it was not sent.")
    NO_QUESTION = N_("There is no open question to reveal.")
    MODEL_NAME = N_("A model name must be 1 to {limit} characters, without line breaks.")
    MODEL_CONFIG = N_("The model's config.json is not a JSON object.")
    MODEL_WEIGHTS = N_("The model's weights are not a safetensors file.")
    LESSON = N_("A lesson sent to a class must be its JSON file's bytes.")

    template = NOT_A_MAPPING


class ModelTooLarge(RoomError):
    """A model shared with a room is over the size limit; it was not shared."""

    template = N_("The model is {size_mb:.1f} MB; a class can share models of up to {limit_mb:.1f} MB.")


class TooManyModels(RoomError):
    """The room already shares its maximum number of models (sharing under an existing name replaces it)."""

    template = N_("Class {code} already shares {limit} models, its limit.")


class ModelStorageFull(RoomError):
    """All rooms' shared models together already fill the server's allowance; this one was not shared."""

    template = N_(
        "The server already holds {limit_mb:.0f} MB of shared models, its limit. Try again when a class has ended."
    )


class ModelNotFound(RoomError):
    """The room shares no model of that name."""

    template = N_("Class {code} has no model named “{name}”.")


class LessonTooLarge(RoomError):
    """A lesson kept with a room is over the size limit; it was not kept, so students see the shipped lesson."""

    template = N_(
        "The lesson is {size_kb:.0f} KB; a class can be shown lessons of up to {limit_kb:.0f} KB. "
        "Your students see the shipped lesson instead."
    )


class LessonNotFound(RoomError):
    """The room keeps no lesson of that id (never shared with it, or one of its oldest, since dropped)."""

    template = N_("Class {code} has no lesson “{lesson}”.")


class StaleQuestion(RoomError):
    """An answer names a question that is no longer the open one (or no question is open)."""

    template = N_("That question is no longer open: the teacher has moved on.")


class AnswersClosed(RoomError):
    """The answer to the open question has been revealed, so answers are closed."""

    template = N_("The answer has been revealed, so answers are closed.")


class NotJoined(RoomError):
    """A student call came with a malformed student id."""

    template = N_("You are not in class {code}; open the join link again.")


class RoomUnavailable(RoomError):
    """The shared room backend (Redis) cannot be reached; nothing changed."""

    template = N_("The class service cannot be reached right now; try again in a moment.")
