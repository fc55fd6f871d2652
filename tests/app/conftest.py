"""AppTest runs the app in this process, where app.py sets torch to one intra-op thread; the tests' own
reference runs use the same count, so both sum in the same order (two threads differ in the last bit)."""

import pytest
import torch


@pytest.fixture(autouse=True)
def one_torch_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
