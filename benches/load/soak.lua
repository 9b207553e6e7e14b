-- wrk script for benches/load/soak.sh: steady load, a routine step POSTed to one of CHATS
-- chats chosen at random, and one request in NEW (0: none) opening a new chat instead, so
-- the chats in memory keep growing and leave it once idle. Each connection waits DELAY_MS
-- between its requests, so the load is steady and leaves the shared machine room. WORK is
-- the work folder the step names (a git repository). At the end it prints how many
-- answers were not a 200 allow, and how many chats it opened.
local chats = tonumber(os.getenv("CHATS") or "10000")
local new = tonumber(os.getenv("NEW") or "100")
local delay_ms = tonumber(os.getenv("DELAY_MS") or "10")
local work = os.getenv("WORK") or "/tmp"
local body = '{"tool_name":"Bash","tool_input":{"command":"cargo test --workspace"},"cwd":"' .. work .. '"}'
local headers = { ["Content-Type"] = "application/json" }
local threads = {}
local counter = 1

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  failed = 0
  opened = 0
  math.randomseed(os.time() + id)
end

function delay()
  return delay_ms
end

function request()
  local chat
  if new > 0 and math.random(new) == 1 then
    opened = opened + 1
    chat = "s" .. id .. "-" .. opened
  else
    chat = "c" .. math.random(0, chats - 1)
  end
  return wrk.format("POST", "/v1/chats/" .. chat .. "/judge", headers, body)
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"decision":"allow"', 1, true) then
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local wrong, made = 0, 0
  for _, thread in ipairs(threads) do
    wrong = wrong + thread:get("failed")
    made = made + thread:get("opened")
  end
  io.write(string.format("judged %d, not a 200 allow %d, socket errors %d, new chats %d\n",
    summary.requests, wrong,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    made))
end
