-- Refresh-token grant with rotation: every refresh token is presented exactly once.
-- Script args:  -- <tokens-file> <client_id> <threads>
-- The tokens file holds one refresh token per line, issued by sign-ins before the run
-- (scripts/bench.sh issues CONNS + 2*THREADS of them). Thread i takes every THREADS-th line as its
-- pool; request() pops a token, response() pushes the rotated successor back, so each connection
-- follows its own chain. wrk calls request() once more on thread 0 before the run (to check the
-- script), which burns one token: hence the 2 spare tokens per thread.
-- A non-200 answer ends that chain; if a pool runs dry the request carries "pool-empty" and the
-- server answers 400, which shows up as non-2xx: either means the harness or the server is wrong.
local C = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "common.lua")
setup = C.setup

local pool, client = {}, nil
rotated, pool_empty, bad = 0, 0, 0

function init(args)
  client = C.urlencode(args[2])
  local nthreads = tonumber(args[3]) or 2
  for i, token in ipairs(C.read_lines(args[1])) do
    if (i - 1) % nthreads == (tid or 0) then table.insert(pool, token) end
  end
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end

function request()
  local token = table.remove(pool)
  if token == nil then
    pool_empty = pool_empty + 1
    token = "pool-empty"
  end
  return wrk.format(nil, nil, { ["Content-Type"] = "application/x-www-form-urlencoded",
      ["X-Forwarded-For"] = C.forwarded_for() },
    "client_id=" .. client .. "&grant_type=refresh_token&refresh_token=" .. C.urlencode(token))
end

function response(status, headers, body)
  local token = status == 200 and body:match('"refresh_token"%s*:%s*"([^"]+)"')
  if token then
    rotated = rotated + 1
    table.insert(pool, token)
  else
    bad = bad + 1
    C.note("refresh answered " .. status .. ": " .. body:sub(1, 200))
  end
end

done = C.done_with({ "rotated", "pool_empty", "bad" })
