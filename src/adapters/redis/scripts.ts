/**
 * The Lua scripts of the Redis adapter. A script runs atomically on the server, which gives what MULTI
 * alone cannot: a write that happens only if its preconditions hold (this email is free, this provider
 * account is not linked yet, the user exists), all or nothing. Scripts are sent once and then called by
 * SHA1 (EVALSHA), falling back to EVAL after a server restart or SCRIPT FLUSH.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * KEYS: the keys that must be absent, then the keys that must exist, then the keys to SET, then the
 * sets to SADD to. ARGV: the four counts, then a value and a TTL in ms ("" for none) per SET, then a
 * member and a TTL in ms ("" for none) per SADD. Fails with `EXISTS <key>` or `MISSING <key>` and
 * writes nothing. A set given a TTL (an index of expiring sessions) lives at least that long: a new set
 * gets it, an existing one is only ever extended, so it outlives every member it was given.
 */
const GUARDED_WRITE = `
local absent, present, sets, sadds = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local k = 0
for _ = 1, absent do
  k = k + 1
  if redis.call('EXISTS', KEYS[k]) == 1 then return redis.error_reply('EXISTS ' .. KEYS[k]) end
end
for _ = 1, present do
  k = k + 1
  if redis.call('EXISTS', KEYS[k]) == 0 then return redis.error_reply('MISSING ' .. KEYS[k]) end
end
local a = 4
for _ = 1, sets do
  k = k + 1
  local value, ttl = ARGV[a + 1], ARGV[a + 2]
  a = a + 2
  if ttl == '' then redis.call('SET', KEYS[k], value) else redis.call('SET', KEYS[k], value, 'PX', ttl) end
end
for _ = 1, sadds do
  k = k + 1
  local member, ttl = ARGV[a + 1], ARGV[a + 2]
  a = a + 2
  local fresh = redis.call('EXISTS', KEYS[k]) == 0
  redis.call('SADD', KEYS[k], member)
  if ttl ~= '' then
    local left = redis.call('PTTL', KEYS[k])
    if fresh or (left >= 0 and left < tonumber(ttl)) then redis.call('PEXPIRE', KEYS[k], ttl) end
  end
end
return 'OK'
`;

/**
 * KEYS[1]: the session. ARGV[1]: the prefix of user keys. Returns `{session, user}` as stored, or nil
 * when either is missing: the read of a database session in one round trip.
 */
const SESSION_AND_USER = `
local session = redis.call('GET', KEYS[1])
if not session then return false end
local ok, decoded = pcall(cjson.decode, session)
if not ok or type(decoded.userId) ~= 'string' then return false end
local id = string.gsub(string.gsub(decoded.userId, '%%', '%%25'), ':', '%%3A')
local user = redis.call('GET', ARGV[1] .. id)
if not user then return false end
return { session, user }
`;

/**
 * KEYS[1]: the user, then the old email's index when ARGV[3] is "1", then the new email's index when
 * ARGV[4] is "1" (a user without an email has no index). ARGV[1]: the user JSON, ARGV[2]: the id.
 * Moves the email index with the user, refusing an email another user has.
 */
const UPDATE_USER = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('MISSING ' .. KEYS[1]) end
local i, old, new = 1, nil, nil
if ARGV[3] == '1' then i = i + 1; old = KEYS[i] end
if ARGV[4] == '1' then i = i + 1; new = KEYS[i] end
if old ~= new then
  if new then
    local owner = redis.call('GET', new)
    if owner and owner ~= ARGV[2] then return redis.error_reply('EXISTS ' .. new) end
  end
  if old then redis.call('DEL', old) end
  if new then redis.call('SET', new, ARGV[2]) end
end
redis.call('SET', KEYS[1], ARGV[1])
return 'OK'
`;

/**
 * KEYS[1]: an index set of session tokens (by provider account or by provider session). ARGV[1]: the
 * prefix of session keys, ARGV[2]: the prefix of user keys, ARGV[3]: the fields a session must have, as
 * JSON. Deletes the indexed sessions that have them, with their entries in this index and in their
 * user's sessions; drops entries whose session is gone (expired, deleted). Returns how many it deleted.
 * An entry in the other index of a deleted session stays, harmless: that index expires with it.
 */
const DELETE_INDEXED_SESSIONS = `
local function part(value) return (string.gsub(string.gsub(value, '%%', '%%25'), ':', '%%3A')) end
local match = cjson.decode(ARGV[3])
local deleted = 0
for _, token in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. part(token)
  local text = redis.call('GET', key)
  local ok, session = false, nil
  if text then ok, session = pcall(cjson.decode, text) end
  if not ok or type(session) ~= 'table' then
    redis.call('SREM', KEYS[1], token)
  else
    local matches = true
    for field, value in pairs(match) do
      if session[field] ~= value then matches = false end
    end
    if matches then
      redis.call('DEL', key)
      redis.call('SREM', KEYS[1], token)
      if type(session.userId) == 'string' then
        redis.call('SREM', ARGV[2] .. part(session.userId) .. ':sessions', token)
      end
      deleted = deleted + 1
    end
  end
end
return deleted
`;

/**
 * KEYS: the user, then their accounts, sessions and authenticators sets, then their second factors (a
 * hash), recovery codes (a set) and factors version. ARGV[1]: the prefix of session
 * keys, ARGV[2]: the prefix of authenticator keys, ARGV[3]: the prefix of email index keys, ARGV[4]: the
 * user's id, ARGV[5]: the client's own key prefix (the accounts set names keys without it). Deletes the user with everything the sets name, and their email index (if it is theirs), in
 * one step: a session or passkey added meanwhile cannot outlive them. Returns the user as stored, or nil.
 */
const DELETE_USER = `
local function part(value) return (string.gsub(string.gsub(value, '%%', '%%25'), ':', '%%3A')) end
local user = redis.call('GET', KEYS[1])
if not user then return false end
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do redis.call('DEL', ARGV[5] .. key) end
for _, token in ipairs(redis.call('SMEMBERS', KEYS[3])) do redis.call('DEL', ARGV[1] .. part(token)) end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('DEL', ARGV[2] .. part(id)) end
local ok, decoded = pcall(cjson.decode, user)
if ok and type(decoded) == 'table' and type(decoded.email) == 'string' and decoded.email ~= '' then
  local index = ARGV[3] .. part(decoded.email)
  if redis.call('GET', index) == ARGV[4] then redis.call('DEL', index) end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
return user
`;

/**
 * KEYS: the user, then their accounts, sessions and authenticators sets, then their second factors and
 * recovery codes (a squatter's factor must not lock the prover out) and factors version (raised: a
 * browser the squatter remembered is void). ARGV[1]: the user as read,
 * ARGV[2]: the user to write (address verified), ARGV[3]: the prefix of session keys, ARGV[4]: the
 * prefix of authenticator keys, ARGV[5]: the client's own key prefix (the accounts set names keys
 * without it). Writes only over the user as read (0 when gone, -1 when changed: read again), and in
 * the same step deletes everything the sets name: nothing attached meanwhile escapes. Returns the
 * detached accounts as stored, the deleted authenticators' ids and how many sessions it deleted.
 */
const CLAIM_USER = `
local function part(value) return (string.gsub(string.gsub(value, '%%', '%%25'), ':', '%%3A')) end
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current ~= ARGV[1] then return -1 end
local accounts, authenticators, sessions = {}, {}, 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local account = redis.call('GET', ARGV[5] .. key)
  if account then
    table.insert(accounts, account)
    redis.call('DEL', ARGV[5] .. key)
  end
end
for _, token in ipairs(redis.call('SMEMBERS', KEYS[3])) do sessions = sessions + redis.call('DEL', ARGV[3] .. part(token)) end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[4])) do
  if redis.call('DEL', ARGV[4] .. part(id)) == 1 then table.insert(authenticators, id) end
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
redis.call('INCR', KEYS[7])
redis.call('SET', KEYS[1], ARGV[2])
return { accounts, authenticators, sessions }
`;

/**
 * KEYS[1]: a record. ARGV[1]: its value as read, ARGV[2]: the value to write. Writes only over that very
 * value: 1 when written, 0 when the record is gone, -1 when it changed since it was read (read again).
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if current ~= ARGV[1] then return -1 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
`;

/** KEYS[1]: a lease. ARGV[1]: its holder. Deletes it only while that holder holds it. */
const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * KEYS[1]: a rate-limit counter. ARGV[1]: its window in ms. Counts one hit; the first hit of a window
 * sets its expiry (INCR then PEXPIRE, in one script so no counter is ever left without one).
 * Returns the count and the milliseconds left in the window.
 */
const HIT_RATE_LIMIT = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if count == 1 or left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
`;

/**
 * Saves one session revocation: KEYS[1] the user's revocations (a hash), ARGV field, value, the ms
 * the record must live, the channel and the user's id. The hash lives as long as its longest record;
 * the notice is published in the same script, so no watcher hears of a revocation not yet stored.
 */
const SAVE_REVOCATION = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
redis.call('PUBLISH', ARGV[4], ARGV[5])
return 1
`;

/**
 * KEYS[1]: the user, KEYS[2]: their second factors (a hash by factor id), KEYS[3]: their factors
 * version. ARGV[1]: the factor's id, ARGV[2]: the factor as JSON. Adds the factor only when the user
 * exists and has no factor of that id, and raises the version in the same step.
 */
const CREATE_TWO_FACTOR = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply('MISSING ' .. KEYS[1]) end
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return redis.error_reply('EXISTS ' .. ARGV[1]) end
redis.call('INCR', KEYS[3])
return 'OK'
`;

/**
 * KEYS[1]: a user's second factors (a hash by factor id), KEYS[2]: their factors version (raised by an
 * activation). ARGV[1]: the factor's id, ARGV[2]: "activate"
 * or "step"; for "step", ARGV[3] the time step and ARGV[4] the time now (ISO). Activates the factor, or
 * records the step as used only when it is later than the last used one. Returns the factor as stored
 * afterwards, or false when there is no such factor or the step was used already.
 */
const UPDATE_TWO_FACTOR = `
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then return false end
local factor = cjson.decode(text)
if ARGV[2] == 'activate' then
  factor.active = true
else
  local step = tonumber(ARGV[3])
  if not (step > tonumber(factor.lastUsedStep)) then return false end
  factor.lastUsedStep = step
  factor.lastUsedAt = { ['$date'] = ARGV[4] }
end
local updated = cjson.encode(factor)
redis.call('HSET', KEYS[1], ARGV[1], updated)
if ARGV[2] == 'activate' then redis.call('INCR', KEYS[2]) end
return updated
`;

/**
 * KEYS[1]: a user's second factors, KEYS[2]: their factors version. ARGV[1]: the factor's id. Deletes
 * the factor and, when it was there, raises the version in the same step. Returns 1 or 0.
 */
const DELETE_TWO_FACTOR = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('INCR', KEYS[2])
return 1
`;

/** A script and its SHA1, computed once. */
export interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

export const scripts = {
  guardedWrite: script(GUARDED_WRITE),
  sessionAndUser: script(SESSION_AND_USER),
  updateUser: script(UPDATE_USER),
  deleteIndexedSessions: script(DELETE_INDEXED_SESSIONS),
  deleteUser: script(DELETE_USER),
  claimUser: script(CLAIM_USER),
  compareAndSet: script(COMPARE_AND_SET),
  releaseLease: script(RELEASE_LEASE),
  hitRateLimit: script(HIT_RATE_LIMIT),
  saveRevocation: script(SAVE_REVOCATION),
  createTwoFactor: script(CREATE_TWO_FACTOR),
  updateTwoFactor: script(UPDATE_TWO_FACTOR),
  deleteTwoFactor: script(DELETE_TWO_FACTOR),
};

/** Runs a script by SHA1, sending its text only when the server does not have it. */
export async function runScript(
  client: Redis,
  { source, sha }: Script,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await client.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return client.eval(source, keys.length, ...keys, ...args);
  }
}
