"""Models and traces in and out of files: checkpoints, the shipped models, archives, trace exports. Never pickle.

checkpoint.py  model.safetensors + config.json, written atomically, checked before loading
pretrained.py  the checkpoints shipped in model/checkpoints/
archive.py     the zip of a checkpoint a person downloads and uploads
export.py      a trace as NPZ or as a zip of CSVs, and file names that say what they hold
folder.py      a GPT-2 or BERT folder the user holds (save_pretrained, a Hugging Face snapshot) → our models
folder_zip.py  a zip of such a folder (an upload), unpacked with every hostile entry refused
"""
