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
 * member per SADD. Fails with `EXISTS <key>` or `MISSING <key>` and writes nothing.
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
  a = a + 1
  redis.call('SADD', KEYS[k], ARGV[a])
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
