"""What the app command serves (`streamlit run serve.py …`): app.py, with the server's start warmed first.

st.App's lifespan runs before the server answers /_stcore/health, so a class opening a shared link on a fresh
server finds the imports, the default model and its first trace ready (ui/warm.py). `streamlit run app.py` still
serves the same app, unwarmed; every `streamlit run` option passes through either way.
"""

import asyncio
import logging
from contextlib import asynccontextmanager

import streamlit as st
import torch

from ui.warm import warm

torch.set_num_threads(1)  # as app.py: the warm trace runs on one thread too


@asynccontextmanager
async def _lifespan(_app):
    took = await asyncio.to_thread(warm)
    logging.getLogger("attention_lab.serve").info("warm before the first visitor: %s", took)
    yield


app = st.App("app.py", lifespan=_lifespan)
