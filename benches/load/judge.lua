-- wrk script for benches/load/run.sh: POST a routine step to one of CHATS chats, chosen at
-- random for each request. WORK is the work folder the step names (a git repository). At
-- the end it prints how many answers were not a 200 allow.
local chats = tonumber(os.getenv("CHATS") or "1")
local work = os.getenv("WORK") or "/tmp"
local body = '{"tool_name":"Bash","tool_input":{"command":"cargo test --workspace"},"cwd":"' .. work .. '"}'
local headers = { ["Content-Type"] = "application/json" }
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  failed = 0
end

function request()
  local n = math.random(0, chats - 1)
  return wrk.format("POST", "/v1/chats/c" .. n .. "/judge", headers, body)
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"decision":"allow"', 1, true) then
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local wrong = 0
  for _, thread in ipairs(threads) do
    wrong = wrong + thread:get("failed")
  end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  io.write(string.format("judged %d, not a 200 allow %d, socket errors %d\n", summary.requests,
    wrong, errors))
  -- For run.sh's bounds: latencies in µs, requests a second, answers that were wrong.
  io.write(string.format("measured median_us=%.1f p99_us=%.1f rps=%.0f wrong=%d\n",
    latency:percentile(50), latency:percentile(99),
    summary.requests / (summary.duration / 1e6), wrong + errors))
end
