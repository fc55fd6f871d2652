"""Class rooms: a teacher's view that a class follows, and the question the class answers.

A room is a small JSON state the teacher publishes (the page and its view, views/: model, input, step,
layer, head, lesson slide, presenter flag, …; see schema.state_json) with a `version` that moves on
every change followers must redraw: the state, the open question, its reveal, the shared models, the
end of the class (a new view also closes a revealed question). Students read it; the one thing they
write is their answer to the open question.

- create_room() gives a RoomTicket: a 6-character code to share (no 0/O/1/I) and a secret key for the
  teacher's URL. The store keeps only the key's SHA-256 and compares digests in constant time; the key
  is in no snapshot, message or error.
- Teacher calls take (code, key): publish, teacher_heartbeat, ask, clear_question, reveal,
  answer_counts, share_model, share_lesson, publish_run, close. A wrong or missing key raises WrongKey, so a
  student link can never change what others see.
- Student calls take the code: join (→ a private student id), student_heartbeat, leave, answer, my_answer
  (their own answer, kept while the question is open, revealed or not); and
  everyone reads snapshot, version, wait_for_change, room_models, get_room_model, get_room_lesson.
- Presence: a student counts as connected for limits.student_window s after their last call. A room
  ends when closed or after limits.teacher_timeout s without a teacher call; for limits.ended_memory s
  more it answers RoomClosed ("has ended"), then RoomNotFound. Live rooms, students per room, shared
  models (per room, and in bytes across all rooms) and every string are bounded (RoomLimits); each
  bound has its own error. Shared models are config.json + safetensors bytes, parsed before storing.
  A lesson the teacher uploaded or built is kept with the room too (its JSON bytes, bounded in size and
  number), so a student on any server opens the lesson the teacher shows. The training run on the teacher's
  page travels as a small record (its curves so far, schema.run_json, at most limits.max_run_bytes) in the room's
  document, so every follower on every server draws the one run the teacher started.
- Every error is a RoomError carrying an English template marked with N_() and its params, for ui/ to
  translate: `gettext(e.template).format(**e.params)`. Nothing changes when a call raises.
- Followers are told of changes instead of polling storage: wait_for_change(code, after, timeout)
  blocks on a per-room Condition in this process's RoomDocs; watch(code, key, watcher) calls watcher(RoomChange)
  on each move instead (how a server wakes its followers' sessions); version(code) reads the same memory.
  In process (MemoryRoomStore) RoomDocs is the store. With Redis (RedisRoomStore) every write is a Lua
  script that changes the room's keys atomically and publishes the room hash on its channel; one
  listener thread per process copies each message into RoomDocs, so a follower on another server wakes
  within milliseconds. Room keys carry a TTL refreshed by teacher calls: the data expires with the room.

open_room_store(env) picks Redis when ATTENTION_LAB_REDIS_URL is set, else memory; shared_room_store()
is the process-wide instance. All stores are thread-safe. This package never imports Streamlit.
"""

from services.rooms.errors import (
    AnswersClosed,
    InvalidState,
    LessonNotFound,
    LessonTooLarge,
    ModelNotFound,
    ModelStorageFull,
    ModelTooLarge,
    NotJoined,
    RoomClosed,
    RoomError,
    RoomFull,
    RoomNotFound,
    RoomUnavailable,
    StaleQuestion,
    TooManyModels,
    TooManyRooms,
    WrongKey,
)
from services.rooms.factory import open_room_store, shared_room_store
from services.rooms.limits import RoomLimits
from services.rooms.memory import MemoryRoomStore
from services.rooms.mirror import RoomChange
from services.rooms.snapshot import (
    AnswerCounts,
    ModelInfo,
    Question,
    Reveal,
    RoomSnapshot,
    RoomTicket,
    SharedModel,
)
from services.rooms.store import RoomStore

__all__ = [
    "AnswerCounts",
    "AnswersClosed",
    "InvalidState",
    "LessonNotFound",
    "LessonTooLarge",
    "MemoryRoomStore",
    "ModelInfo",
    "ModelNotFound",
    "ModelStorageFull",
    "ModelTooLarge",
    "NotJoined",
    "Question",
    "Reveal",
    "RoomChange",
    "RoomClosed",
    "RoomError",
    "RoomFull",
    "RoomLimits",
    "RoomNotFound",
    "RoomSnapshot",
    "RoomStore",
    "RoomTicket",
    "RoomUnavailable",
    "SharedModel",
    "StaleQuestion",
    "TooManyModels",
    "TooManyRooms",
    "WrongKey",
    "open_room_store",
    "shared_room_store",
]
