"""`attention-lab --servers N`: N app servers on one machine behind HAProxy (sticky sessions), class rooms shared
in Redis, all started and stopped by the app command itself (docs/capacity.md, "A class").

A following student's rerun is Python work under one interpreter lock, so one server delivers a teacher's change
to its class one student after another on one core; several servers split the class between the cores.
"""
