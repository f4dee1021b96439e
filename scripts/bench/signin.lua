-- Full native-auth password sign-in, three requests per sign-in:
--   POST <prefix>/initiate  (client_id, username, challenge_type)       -> {continuation_token}
--   POST <prefix>/challenge (client_id, continuation_token)             -> {challenge_type:"password", continuation_token}
--   POST <prefix>/token     (client_id, continuation_token, grant_type=password, password, scope)
--                                                                        -> {access_token, id_token, refresh_token, ...}
-- Script args:  -- <prefix e.g. /default/oauth2/v2.0> <users-file> <password> <client_id>
-- A per-thread state machine: response() tells the three answers apart by their fields and queues
-- the continuation token for the next step; request() sends the most advanced step that has a
-- queued token (token, then challenge), else starts a new sign-in with the next user. Every
-- continuation token is used exactly once. A sign-in counts when the token step returns
-- 200 with an access_token.
local C = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "common.lua")
setup = C.setup

local prefix, users, password, client, next_user = nil, {}, nil, nil, 1
local for_challenge, for_token = {}, {}
signins, initiated, challenged, bad = 0, 0, 0, 0

function init(args)
  prefix = args[1]
  for _, u in ipairs(C.read_lines(args[2])) do table.insert(users, C.urlencode(u)) end
  password = C.urlencode(args[3])
  client = C.urlencode(args[4])
  next_user = 1 + (tid or 0) % #users
end

local function post(path, body)
  return wrk.format("POST", prefix .. path,
    { ["Content-Type"] = "application/x-www-form-urlencoded", ["X-Forwarded-For"] = C.forwarded_for() }, body)
end

function request()
  local ct = table.remove(for_token, 1)
  if ct then
    return post("/token", "client_id=" .. client .. "&continuation_token=" .. C.urlencode(ct) ..
      "&grant_type=password&password=" .. password .. "&scope=openid%20offline_access")
  end
  ct = table.remove(for_challenge, 1)
  if ct then
    return post("/challenge", "client_id=" .. client .. "&continuation_token=" .. C.urlencode(ct) ..
      "&challenge_type=password%20redirect")
  end
  local user = users[next_user]
  next_user = next_user % #users + 1
  return post("/initiate", "client_id=" .. client .. "&username=" .. user ..
    "&challenge_type=password%20redirect")
end

function response(status, headers, body)
  if status == 200 then
    if body:find('"access_token"', 1, true) then
      signins = signins + 1
      return
    end
    local ct = body:match('"continuation_token"%s*:%s*"([^"]+)"')
    if ct and body:find('"challenge_type"%s*:%s*"password"') then
      challenged = challenged + 1
      table.insert(for_token, ct)
      return
    elseif ct and not body:find('"challenge_type"', 1, true) then
      initiated = initiated + 1
      table.insert(for_challenge, ct)
      return
    end
  end
  bad = bad + 1
  C.note("sign-in step answered " .. status .. ": " .. body:sub(1, 200))
end

done = C.done_with({ "signins", "initiated", "challenged", "bad" })
