-- Shared helpers for Latch's wrk scripts (scripts/bench/*.lua).
-- Load with:  local C = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "common.lua")
--
-- wrk runs setup() and done() in its main Lua state and request()/response() in one Lua state per
-- thread; a per-thread counter is a *global* of the thread state, which done() reads with
-- thread:get(). C.summary() prints one "WRKJSON {...}" line that scripts/bench.sh parses.
local C = {}

C.threads = {}
local next_id = 0

function C.setup(thread)
  thread:set("tid", next_id)
  next_id = next_id + 1
  table.insert(C.threads, thread)
end

function C.read_lines(path)
  local out = {}
  for line in io.lines(path) do
    if line ~= "" then table.insert(out, line) end
  end
  return out
end

function C.urlencode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

-- A client address per request, as a crowd behind the trusted proxy latchd is started with
-- (--trusted-proxy 127.0.0.1): each thread takes its own 1,024 addresses 10.<tid>.x.y in turn, so
-- the per-source rate limits meter a crowd of 2,048 clients instead of throttling one address.
function C.forwarded_for()
  forwarded = ((forwarded or -1) + 1) % 1024
  return string.format("10.%d.%d.%d", (tid or 0) % 256, math.floor(forwarded / 256), forwarded % 256)
end

-- Writes a few diagnostic lines per thread (the first non-2xx bodies), never more.
function C.note(text)
  notes = (notes or 0) + 1
  if notes <= 3 then io.stderr:write("[wrk thread ", tostring(tid), "] ", text, "\n") end
end

-- counters: names of per-thread global counters to add up into "extra".
function C.done_with(counters)
  return function(summary, latency, requests)
    local secs = summary.duration / 1e6
    local e = summary.errors
    local extra = {}
    for _, name in ipairs(counters or {}) do
      local total = 0
      for _, t in ipairs(C.threads) do total = total + (tonumber(t:get(name)) or 0) end
      table.insert(extra, string.format('"%s":%d', name, total))
    end
    io.write(string.format(
      'WRKJSON {"requests":%d,"duration_s":%.3f,"rps":%.1f,' ..
      '"lat_p50_ms":%.3f,"lat_p90_ms":%.3f,"lat_p99_ms":%.3f,"lat_max_ms":%.3f,"lat_mean_ms":%.3f,' ..
      '"non2xx3xx":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_timeout":%d,"extra":{%s}}\n',
      summary.requests, secs, summary.requests / secs,
      latency:percentile(50) / 1000, latency:percentile(90) / 1000,
      latency:percentile(99) / 1000, latency.max / 1000, latency.mean / 1000,
      e.status, e.connect, e.read, e.write, e.timeout, table.concat(extra, ",")))
  end
end

return C
