-- GET of a static document (discovery, JWKS): wrk's own request, plus the WRKJSON summary line.
local C = dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "common.lua")
setup = C.setup
done = C.done_with({})
