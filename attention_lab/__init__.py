"""The installed app: where its files are (paths.py) and the `attention-lab` command (cli.py).

It imports no other package of the project: model/, services/ and ui/ ask paths.py where the app's files are, and
cli.py starts the app and the training command as processes.
"""
