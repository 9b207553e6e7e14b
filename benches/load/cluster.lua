-- wrk script for benches/load/cluster.sh: judge.lua's routine step for one of CHATS chats at
-- random, counting the answers by what they were: a 200 allow, a 200 with another decision
-- (never expected for this step), and each other status. At the end it prints the counts.
local chats = tonumber(os.getenv("CHATS") or "1")
local work = os.getenv("WORK") or "/tmp"
local body = '{"tool_name":"Bash","tool_input":{"command":"cargo test --workspace"},"cwd":"' .. work .. '"}'
local headers = { ["Content-Type"] = "application/json" }
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  allowed = 0
  other = 0
  statuses = {}
end

function request()
  local n = math.random(0, chats - 1)
  return wrk.format("POST", "/v1/chats/c" .. n .. "/judge", headers, body)
end

function response(status, headers, body)
  if status == 200 then
    if string.find(body, '"decision":"allow"', 1, true) then
      allowed = allowed + 1
    else
      other = other + 1
    end
  else
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local allowed_all, other_all, by = 0, 0, {}
  for _, thread in ipairs(threads) do
    allowed_all = allowed_all + thread:get("allowed")
    other_all = other_all + thread:get("other")
    for status, n in pairs(thread:get("statuses")) do
      by[status] = (by[status] or 0) + n
    end
  end
  local shown = {}
  for status, n in pairs(by) do
    table.insert(shown, status .. ": " .. n)
  end
  table.sort(shown)
  io.write(string.format("judged %d, 200 allow %d, 200 not allow %d, others {%s}, socket errors %d\n",
    summary.requests, allowed_all, other_all, table.concat(shown, ", "),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
