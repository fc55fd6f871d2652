"""The Lua scripts behind RedisRoomStore: each check-and-change runs atomically inside Redis.

Every script gets KEYS = room hash, students zset (id → last call), answers hash (id → option),
models hash ("c:"/"w:" + name → bytes; "l:" + id → a lesson's bytes), rooms index zset (code → teacher's last
call), model bytes hash (code → bytes its shared models hold, across rooms), and
ARGV = channel, code, now, teacher_timeout, student_window, ttl, max_students, then its own.
It answers {status} or {"ok", field, value, ...} (the room hash after the change), and publishes that
hash on the room's channel whenever it changed, so every server's copy follows.
"""

_PRELUDE = """
local room, students, answers, models, index, model_bytes = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local channel, code, now_text = ARGV[1], ARGV[2], ARGV[3]
local now, timeout, window, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local max_students = tonumber(ARGV[7])

-- nil while the room is live, else why not
local function status()
  local seen = redis.call('HGET', room, 'teacher_seen')
  if not seen then return 'not_found' end
  if redis.call('HGET', room, 'closed') == '1' or now - tonumber(seen) > timeout then return 'closed' end
  return nil
end

local function prune_students()
  redis.call('ZREMRANGEBYSCORE', students, '-inf', '(' .. string.format('%.6f', now - window))
end

-- count a student as connected now; 'full' if the room has no place for a new one
local function admit(student)
  prune_students()
  if not redis.call('ZSCORE', students, student) and redis.call('ZCARD', students) >= max_students then
    return 'full'
  end
  redis.call('ZADD', students, now_text, student)
  redis.call('EXPIRE', students, ttl)
  return nil
end

local function touch_teacher()
  redis.call('HSET', room, 'teacher_seen', now_text)
  redis.call('ZADD', index, now_text, code)
  for _, key in ipairs({room, students, answers, models}) do redis.call('EXPIRE', key, ttl) end
end

-- is the open question the one with this id?
local function is_open(question_id)
  local text = redis.call('HGET', room, 'question')
  return text and text ~= '' and cjson.decode(text)['id'] == question_id
end

-- the student count changed since the room hash last said?
local function count_changed()
  return tostring(redis.call('ZCARD', students)) ~= redis.call('HGET', room, 'student_count')
end

-- store the student count, move rev, publish the room hash and answer it to the writer
local function emit()
  redis.call('HSET', room, 'student_count', redis.call('ZCARD', students))
  redis.call('HINCRBY', room, 'rev', 1)
  local flat = redis.call('HGETALL', room)
  local doc = {}
  for i = 1, #flat, 2 do doc[flat[i]] = flat[i + 1] end
  redis.call('PUBLISH', channel, cjson.encode(doc))
  table.insert(flat, 1, 'ok')
  return flat
end

-- the end of every teacher change: move the version if followers must redraw, keep the room alive
local function teacher_done(move_version)
  if move_version then redis.call('HINCRBY', room, 'version', 1) end
  prune_students()
  touch_teacher()
  return emit()
end
"""

CREATE = """
-- ARGV[8] key hash, ARGV[9] max rooms
redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. string.format('%.6f', now - timeout))
if redis.call('ZCARD', index) >= tonumber(ARGV[9]) then return {'too_many'} end
if redis.call('EXISTS', room) == 1 then return {'collision'} end
redis.call('HSET', room, 'key_hash', ARGV[8], 'version', 1, 'rev', 0, 'closed', '0', 'state', '{}',
  'question', '', 'revealed', '', 'student_count', 0, 'models', '[]')
touch_teacher()
return emit()
"""

UPDATE = """
-- ARGV[8] '1' to move the version, ARGV[9] '1' to clear answers, ARGV[10..] field, value, ...
local why = status()
if why then return {why} end
for i = 10, #ARGV, 2 do redis.call('HSET', room, ARGV[i], ARGV[i + 1]) end
if ARGV[9] == '1' then redis.call('DEL', answers) end
return teacher_done(ARGV[8] == '1')
"""

REVEAL = """
-- ARGV[8] question id, ARGV[9] true answer, ARGV[10] number of options
local why = status()
if why then return {why} end
if not is_open(ARGV[8]) then return {'stale'} end
local counts = {}
for i = 1, tonumber(ARGV[10]) do counts[i] = 0 end
for _, choice in ipairs(redis.call('HVALS', answers)) do
  local slot = tonumber(choice) + 1
  if counts[slot] then counts[slot] = counts[slot] + 1 end
end
local revealed = {question_id = ARGV[8], answer = tonumber(ARGV[9]), counts = counts}
redis.call('HSET', room, 'revealed', cjson.encode(revealed))
return teacher_done(true)
"""

SHARE_MODEL = """
-- ARGV[8] name, ARGV[9] config.json, ARGV[10] weights, ARGV[11] size, ARGV[12] max models, ARGV[13] max bytes of
-- all rooms' models together
local why = status()
if why then return {why} end
local listing = cjson.decode(redis.call('HGET', room, 'models'))
local found, mine = false, 0
for _, model in ipairs(listing) do
  if model['name'] == ARGV[8] then model['size'] = tonumber(ARGV[11]); found = true end
  mine = mine + model['size']
end
if not found then
  if #listing >= tonumber(ARGV[12]) then return {'too_many_models'} end
  table.insert(listing, {name = ARGV[8], size = tonumber(ARGV[11])})
  mine = mine + tonumber(ARGV[11])
end
local others, held = 0, redis.call('HGETALL', model_bytes)
for i = 1, #held, 2 do
  local seen = redis.call('ZSCORE', index, held[i])
  if not seen or now - tonumber(seen) > timeout then
    redis.call('HDEL', model_bytes, held[i])  -- that room has ended: its models are gone or going
  elseif held[i] ~= code then
    others = others + tonumber(held[i + 1])
  end
end
if others + mine > tonumber(ARGV[13]) then return {'models_full'} end
redis.call('HSET', model_bytes, code, mine)
redis.call('HSET', models, 'c:' .. ARGV[8], ARGV[9], 'w:' .. ARGV[8], ARGV[10])
redis.call('HSET', room, 'models', cjson.encode(listing))
return teacher_done(true)
"""

SHARE_LESSON = """
-- ARGV[8] lesson id, ARGV[9] its JSON bytes, ARGV[10] lessons a room keeps. They live in the models hash
-- ("l:" + id → bytes, "lessons" → their ids, oldest first), so they expire and end with the room.
local why = status()
if why then return {why} end
local kept = redis.call('HGET', models, 'lessons')
local listing = {}
for _, id in ipairs(kept and cjson.decode(kept) or {}) do
  if id ~= ARGV[8] then table.insert(listing, id) end
end
table.insert(listing, ARGV[8])
while #listing > tonumber(ARGV[10]) do redis.call('HDEL', models, 'l:' .. table.remove(listing, 1)) end
redis.call('HSET', models, 'l:' .. ARGV[8], ARGV[9], 'lessons', cjson.encode(listing))
return teacher_done(false)
"""

CLOSE = """
-- ARGV[8] seconds an ended room is remembered
if not redis.call('HGET', room, 'teacher_seen') then return {'not_found'} end
if redis.call('HGET', room, 'closed') == '1' then return {'same'} end
redis.call('DEL', students, answers, models)
redis.call('ZREM', index, code)
redis.call('HDEL', model_bytes, code)
redis.call('HSET', room, 'closed', '1', 'teacher_seen', now_text, 'state', '{}', 'question', '', 'revealed', '',
  'models', '[]', 'run', '')
redis.call('HINCRBY', room, 'version', 1)
redis.call('EXPIRE', room, tonumber(ARGV[8]))
return emit()
"""

PRESENCE = """
-- ARGV[8] student id, ARGV[9] 'join' | 'touch' | 'leave'
local why = status()
if why then return {why} end
if ARGV[9] == 'leave' then
  prune_students()
  redis.call('ZREM', students, ARGV[8])
else
  why = admit(ARGV[8])
  if why then return {why} end
end
if count_changed() then return emit() end
return {'same'}
"""

ANSWER = """
-- ARGV[8] student id, ARGV[9] question id, ARGV[10] option index
local why = status()
if why then return {why} end
if not is_open(ARGV[9]) then return {'stale'} end
local revealed = redis.call('HGET', room, 'revealed')
if revealed and revealed ~= '' then return {'revealed'} end
why = admit(ARGV[8])
if why then return {why} end
redis.call('HSET', answers, ARGV[8], ARGV[10])
redis.call('EXPIRE', answers, ttl)
if count_changed() then return emit() end
return {'same'}
"""

MY_ANSWER = """
-- ARGV[8] student id, ARGV[9] question id; answers {'ok', choice} or {'none'} (reads only, publishes nothing)
local why = status()
if why then return {why} end
if not is_open(ARGV[9]) then return {'none'} end
local choice = redis.call('HGET', answers, ARGV[8])
if not choice then return {'none'} end
return {'ok', choice}
"""

SCRIPTS = {
    "create": CREATE,
    "update": UPDATE,
    "reveal": REVEAL,
    "share_model": SHARE_MODEL,
    "share_lesson": SHARE_LESSON,
    "close": CLOSE,
    "presence": PRESENCE,
    "answer": ANSWER,
    "my_answer": MY_ANSWER,
}


def script_source(name: str) -> str:
    """The named script with the shared prelude in front."""
    return _PRELUDE + SCRIPTS[name]
