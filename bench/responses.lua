-- wrk script: POST /v1/responses with a non-streaming Code Interpreter request.
--
-- The same key works both ways: the simulator accepts any bearer token, and the
-- gateway's dev profile knows sk-gw-dev-alice. Override with BENCH_API_KEY.

wrk.method = "POST"
wrk.path = "/v1/responses"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_API_KEY") or "sk-gw-dev-alice")
-- BENCH_STREAM=true asks for the SSE stream instead, as an SDK does (stream:true and Accept: text/event-stream: the
-- gateway passes Accept on, and bench/proxy.sh's fake upstream streams only for it); used to warm up the relay.
local streaming = os.getenv("BENCH_STREAM") == "true"
local stream = streaming and '"stream":true,' or ""
if streaming then
  wrk.headers["Accept"] = "text/event-stream"
end
-- BENCH_FILE_ID names an uploaded file for the container (bench/proxy.sh), so the gateway checks its owner.
local file = os.getenv("BENCH_FILE_ID")
local files = file and (',"file_ids":["' .. file .. '"]') or ""
wrk.body = '{"model":"gpt-4.1","input":"hi",' .. stream ..
  '"tools":[{"type":"code_interpreter","container":{"type":"auto"' .. files .. '}}]}'

-- One machine-readable line for run.sh; wrk's own --latency text stays in the log
-- for humans. Latencies are in microseconds, as wrk records them.
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d " ..
    "err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
