"""Streamlit's wire messages (streamlit.proto), for the load client that speaks to a server as a browser does
(devtools/load/) and for recordings of a run (replay.py).

The protobuf classes are Streamlit's own, generated from its .proto files and changed with any release; there is
no public, versioned protocol (no upstream issue found). Every one the project names is re-exported here, so an
upgrade that renames one fails here and in tests/app/test_streamlit_private.py.
"""

from __future__ import annotations

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Block_pb2 import Block
from streamlit.proto.Button_pb2 import Button
from streamlit.proto.ButtonGroup_pb2 import ButtonGroup
from streamlit.proto.Checkbox_pb2 import Checkbox
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.DownloadButton_pb2 import DownloadButton
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Markdown_pb2 import Markdown
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.Radio_pb2 import Radio
from streamlit.proto.Selectbox_pb2 import Selectbox
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.TextArea_pb2 import TextArea
from streamlit.proto.TextInput_pb2 import TextInput
from streamlit.proto.WidgetStates_pb2 import WidgetState

__all__ = [
    "BackMsg", "Block", "Button", "ButtonGroup", "Checkbox", "ClientState", "DownloadButton", "Element", "ForwardMsg",
    "Markdown", "NumberInput", "Radio", "Selectbox", "Slider", "TextArea", "TextInput", "WidgetState",
]  # fmt: skip
