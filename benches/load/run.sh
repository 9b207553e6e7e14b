#!/usr/bin/env bash
# The judge over HTTP under load, with wrk on loopback against the real `warden serve` on a
# fresh data folder (the log on disk, every acknowledged event durable by docs/durability.md):
#   1. one keep-alive connection, one existing chat, a routine step; /healthz beside it, on
#      the same server in the same run;
#   2. 64 connections over 10,000 chats (each judged once first, so they exist in the log);
#   3. the daemon's resident memory after it.
# Usage: benches/load/run.sh [SECONDS]   (WARDEN_BIN names another binary; default
# target/release/warden, built if missing). Needs wrk (Debian's `wrk`).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
bin=${WARDEN_BIN:-target/release/warden}
[ -x "$bin" ] || cargo build --release -p warden-actors --bin warden
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
mkdir -p "$dir/work" && git -C "$dir/work" init -q -b main
"$bin" serve --data "$dir/data" --listen 127.0.0.1:0 >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 200); do grep -q listening "$dir/out" 2>/dev/null && break; sleep 0.05; done
addr=$(sed -n 's|^warden: listening on http://\([^,]*\),.*|\1|p' "$dir/out")
[ -n "$addr" ] || { cat "$dir/err" >&2; exit 1; }
url="http://$addr"
script=benches/load/judge.lua
export WORK="$dir/work"

echo "== one connection, one existing chat, a routine step ($seconds s)"
CHATS=1 wrk -t1 -c1 -d2s -s "$script" "$url" >/dev/null
CHATS=1 wrk -t1 -c1 -d"${seconds}s" --latency -s "$script" "$url" | grep -E "Requests/sec|50%|99%|judged"
echo "== /healthz, one connection ($seconds s)"
wrk -t1 -c1 -d"${seconds}s" --latency "$url/healthz" | grep -E "Requests/sec|50%|99%"

echo "== 64 connections over 10,000 chats ($((seconds * 2)) s)"
CHATS=10000 wrk -t1 -c64 -d"$((seconds))s" -s "$script" "$url" >/dev/null
CHATS=10000 wrk -t1 -c64 -d"$((seconds * 2))s" --latency -s "$script" "$url" | grep -E "Requests/sec|50%|99%|judged"
echo "== resident memory: $(( $(ps -o rss= -p "$pid") / 1024 )) MiB"
