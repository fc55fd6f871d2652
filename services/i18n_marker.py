"""The no-op marker for user-facing message templates outside ui/.

`N_("...")` returns its argument unchanged; it only tells Babel's extractor (keyword `N_`) that the
string is a message to translate. ui/ translates the template with gettext, then formats it.
"""


def N_(message: str) -> str:
    """Mark `message` for translation without translating it here."""
    return message
