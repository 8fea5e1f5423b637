-- wrk script for bench_api_load.py: each connection (one per wrk thread) records hands at its
-- own table, the same bodies as the Python client's body() and bare_body().
-- Arguments after "--": token, comma-separated table ids, "hands" or "bare", and the folder of
-- bodies-<table>.txt: the table's distinct hands, one request body a line, sent in order
-- (bench/distinct_hands.py; a run longer than the file wraps round to its first hand), and
-- where in the file this run starts (each run of the benchmark starts further on).

local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  token, mode = args[1], args[3]
  local tables = {}
  for t in string.gmatch(args[2], "%d+") do tables[#tables + 1] = t end
  table_id = tables[(id % #tables) + 1]
  headers = {["Authorization"] = "Token " .. token, ["Content-Type"] = "application/json"}
  i = tonumber(args[5] or "0")
  bodies = {}
  if mode ~= "bare" then
    for line in io.lines(args[4] .. "/bodies-" .. table_id .. ".txt") do
      bodies[#bodies + 1] = line
    end
  end
end

local function hand_body(n)
  return bodies[((n - 1) % #bodies) + 1]
end

function request()
  i = i + 1
  if mode == "bare" then
    local body = '{"action":"create","object_type":"bench","object_id":"' .. i
      .. '","note":"table ' .. table_id .. '"}'
    return wrk.format("POST", "/bare/", headers, body)
  end
  return wrk.format("POST", "/api/v1/hands/", headers, hand_body(i))
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "p50": %.3f, "p90": %.3f, "p99": %.3f, "max": %.3f, '
    .. '"mean": %.3f, "non_2xx": %d, "socket_errors": %d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3,
    latency:percentile(90) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3,
    latency.mean / 1e3, errors.status, errors.connect + errors.read + errors.write + errors.timeout))
end
