"""The translation function: every word a person reads goes through `_` (gettext catalogs under locales/).

English is the source language (the msgids); 简体中文 comes from locales/zh_CN/LC_MESSAGES/messages.po,
compiled in memory with Babel when first needed, so no binary .mo file is kept in the repository.
The language is per browser session: `?lang=zh|en` in the URL (kept in step with the sidebar switch), else the
browser's language (zh-* gives Chinese). An unknown `lang` value falls back to English.

`N_` marks a string for extraction without translating it (module-level constants, model/ and services/
messages); translate it with `_` where it is shown. `explain(exc)` translates an error from model/ or
services/ that carries a message template and its parameters.
"""

from __future__ import annotations

import gettext
import io
from functools import cache

import streamlit as st
from babel.messages.mofile import write_mo

from .catalogs import read_catalog

LANG_KEY = "lang"
LANGUAGES = {"en": "English", "zh": "中文"}  # each name in its own language: the switch reads the same to all
CATALOG_LOCALES = {"zh": "zh_CN"}


def N_(message: str) -> str:
    """Mark a message for extraction only; translate it with `_` where it is shown (gettext_noop)."""
    return message


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of a language (English: the msgids themselves). Fuzzy entries are left out."""
    locale = CATALOG_LOCALES.get(lang)
    if locale is None:
        return gettext.NullTranslations()
    compiled = io.BytesIO()
    write_mo(compiled, read_catalog(locale))
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def browser_language() -> str:
    """zh for a browser whose language is Chinese (zh, zh-CN, zh-TW, …), else en."""
    locale = st.context.locale or ""
    return "zh" if locale.lower().startswith("zh") else "en"


def current_language() -> str:
    """This session's language: the switch's value (set from the URL or the browser when a session starts),
    or, before app.py has run in this session, the URL's."""
    lang = st.session_state.get(LANG_KEY)
    if lang in LANGUAGES:
        return lang
    if LANG_KEY in st.query_params:
        url = st.query_params.get(LANG_KEY)
        return url if url in LANGUAGES else "en"
    return browser_language()


def _(message: str) -> str:
    """`message` in this session's language."""
    return translations(current_language()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """`message` in this session's language, where the same English word needs different translations."""
    return translations(current_language()).pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for n, in this session's language."""
    return translations(current_language()).ngettext(singular, plural, n)


def explain(exc: BaseException) -> str:
    """An error's message in this session's language: translated from its template when it has one, and so is an
    error it names as a parameter ("config.json has an invalid model config: {error}")."""
    template = getattr(exc, "template", None)
    if not isinstance(template, str):
        return str(exc)
    params = {k: explain(v) if isinstance(v, BaseException) else v for k, v in getattr(exc, "params", {}).items()}
    try:
        return _(template).format(**params)
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: English is better
        return str(exc)
