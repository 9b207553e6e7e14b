-- wrk script for benches/load/run.sh's /healthz: the default request, and at the end the
-- same machine-readable line judge.lua prints, so the script compares the two runs.
function done(summary, latency, requests)
  io.write(string.format("measured median_us=%.1f p99_us=%.1f rps=%.0f wrong=0\n",
    latency:percentile(50), latency:percentile(99),
    summary.requests / (summary.duration / 1e6)))
end
