-- wrk script for bench/overload.sh: bench/responses.lua's request, and a count of the answers by status
-- (200 admitted, 503 shed) and of shed answers that carried Retry-After.

wrk.method = "POST"
wrk.path = "/v1/responses"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_API_KEY") or "sk-gw-dev-alice")
wrk.body = '{"model":"gpt-4.1","input":"hi","tools":[{"type":"code_interpreter","container":{"type":"auto"}}]}'

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  ok, shed, retry_after, other, others = 0, 0, 0, 0, ""
  seen = {}
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  elseif status == 503 and body:find('"overloaded"', 1, true) then
    shed = shed + 1
    if headers["Retry-After"] ~= nil then retry_after = retry_after + 1 end
  else
    other = other + 1
    -- The first answer of each other status, for the log: what went wrong besides shedding.
    if not seen[status] then
      seen[status] = true
      others = others .. status .. ":" .. body:sub(1, 120):gsub("%s", "_") .. ";"
    end
  end
end

function done(summary, latency, requests)
  local o, s, r, x, kinds = 0, 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    o = o + thread:get("ok")
    s = s + thread:get("shed")
    r = r + thread:get("retry_after")
    x = x + thread:get("other")
    kinds = kinds .. thread:get("others")
  end
  if kinds ~= "" then io.write("OTHER_ANSWERS " .. kinds .. "\n") end
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d ok=%d shed=%d retry_after=%d other=%d p50_us=%d p99_us=%d max_us=%d " ..
    "err_connect=%d err_read=%d err_write=%d err_timeout=%d\n",
    summary.requests, summary.duration, o, s, r, x, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.timeout))
end
