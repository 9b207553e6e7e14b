#!/usr/bin/env bash
# A soak: the real `warden serve` on a fresh data folder (the log on disk; a configuration
# of its own, the defaults but `[log] cache_mb = CACHE_MB`, 8 as warden's by default) under
# steady load from wrk for SECONDS, its resident memory (VmRSS in /proc/PID/status) sampled
# every EVERY seconds with the chats it holds (`/metrics`: in memory, with an actor) and the
# log's size on disk; then the samples' first, last and most, and the growth from the
# sample at one minute to the last.
# The load (benches/load/soak.lua): CONNECTIONS connections (16), each waiting DELAY_MS (10)
# between requests, a routine step in one of CHATS chats (10,000; judged at random for a
# few seconds first, so most exist), and one request in NEW (100) opening a new chat (0:
# none).
# The warm-up lasts WARM_S seconds (default CHATS / 2000 + 5, enough for most chats to exist);
# a longer one lets each chat's buffers and sled's cache reach the size they keep before the
# samples start. The warm-up runs flat out (about 27,000 steps a second here), so every second
# of it adds to the log the soak then carries: 300 s wrote 1.4 GB and 8 million records.
# Resident memory is flat when, past the first minute (sled's cache and the chats' actors
# filling), the mean of the second half of the samples is at most 10% over the first half's
# (a mean, so the allocator's swings of a few tens of MiB either way average out; a leak
# climbs in both halves, and the second's mean is over the first's by what it grew). It
# exits 1 when it isn't, or when an answer wasn't a 200 allow.
# Usage: [IDLE_MS=…] benches/load/soak.sh [SECONDS [EVERY]]   (default 600 and 10; WARDEN_BIN names
# another binary, default target/release/warden, built if missing). Needs wrk and curl.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-600}
every=${2:-10}
bin=${WARDEN_BIN:-target/release/warden}
export CHATS=${CHATS:-10000} NEW=${NEW:-100} DELAY_MS=${DELAY_MS:-10}
connections=${CONNECTIONS:-16}
[ -x "$bin" ] || cargo build -j 1 --release -p warden-actors --bin warden
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'kill ${load:-} "$pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
load=
mkdir -p "$dir/work" && git -C "$dir/work" init -q -b main
printf '[log]\ncache_mb = %d\n' "${CACHE_MB:-8}" >"$dir/config.toml"
# IDLE_MS: how long a chat with no message stays in memory (`limits.chat_idle_ms`; warden's
# default, 10 minutes, when unset). New chats add to resident memory until the first of them
# leave it: a soak longer than this window shows where it levels off.
[ -z "${IDLE_MS:-}" ] || printf '[limits]\nchat_idle_ms = %d\n' "$IDLE_MS" >>"$dir/config.toml"
WARDEN_CONFIG="$dir/config.toml" "$bin" serve --data "$dir/data" --listen 127.0.0.1:0 >"$dir/out" 2>"$dir/err" &
pid=$!
for _ in $(seq 200); do grep -q listening "$dir/out" 2>/dev/null && break; sleep 0.05; done
addr=$(sed -n 's|^warden: listening on http://\([^,]*\),.*|\1|p' "$dir/out")
[ -n "$addr" ] || { cat "$dir/err" >&2; exit 1; }
url="http://$addr"
export WORK="$dir/work"

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$pid/status"; }
metric() { curl -fsS "$url/metrics" | awk -v name="$1" '$1 == name {print $2}'; }

warm=${WARM_S:-$(( CHATS / 2000 + 5 ))}
echo "== warm-up, ${warm} s: the $CHATS chats judged at random"
NEW=0 DELAY_MS=0 wrk -t1 -c64 -d"${warm}s" -s benches/load/soak.lua "$url" >/dev/null
echo "== $seconds s: $connections connections, ${DELAY_MS} ms between requests, one in $NEW a new chat"
wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s --latency -s benches/load/soak.lua "$url" >"$dir/wrk" &
load=$!
start=$(date +%s)
samples=()
printf '%6s %10s %10s %10s %12s\n' "s" "RSS KiB" "chats" "actors" "log KiB"
while kill -0 "$load" 2>/dev/null; do
  rss=$(rss_kib)
  samples+=("$rss")
  log=$(metric warden_log_bytes); log=${log:-0}
  printf '%6d %10d %10s %10s %12d\n' "$(( $(date +%s) - start ))" "$rss" \
    "$(metric warden_chats_in_memory)" "$(metric warden_chat_actors)" "$(( ${log%.*} / 1024 ))"
  for _ in $(seq "$every"); do kill -0 "$load" 2>/dev/null || break; sleep 1; done
done
wait "$load" || true
load=
grep -E "Requests/sec|50%|99%|judged" "$dir/wrk"
max=0
for s in "${samples[@]}"; do [ "$s" -gt "$max" ] && max=$s; done
first=${samples[0]}
last=${samples[-1]}
# The first minute fills sled's cache and the chats' actors: growth is counted after it.
settled=${samples[$(( ${#samples[@]} > 6 ? 6 : 0 ))]}
echo "== RSS: first $(( first / 1024 )) MiB, last $(( last / 1024 )) MiB, most $(( max / 1024 )) MiB; from the sample at one minute ($(( settled / 1024 )) MiB) to the last: $(( (last - settled) / 1024 )) MiB"
# The samples past the first minute, in two halves, each half's mean.
skip=$(( ${#samples[@]} > 6 ? 6 : 0 ))
after=("${samples[@]:$skip}")
half=$(( ${#after[@]} / 2 ))
if [ "$half" -lt 2 ]; then
  echo "== flat: too few samples to tell (${#after[@]} past the first minute); run it longer"
  exit 1
fi
means=$(printf '%s\n' "${after[@]}" | awk -v h="$half" \
  'NR <= h { a += $1 } NR > h && NR <= 2 * h { b += $1 } END { printf "%d %d", a / h / 1024, b / h / 1024 }')
read -r early late <<<"$means"
wrong=$(sed -n 's/.*not a 200 allow \([0-9]*\).*/\1/p' "$dir/wrk")
if [ "$late" -le $(( early + early / 10 )) ] && [ "${wrong:-1}" -eq 0 ]; then
  echo "== flat: the second half's mean $late MiB, the first's $early MiB (at most 10% over); every answer a 200 allow"
else
  echo "== NOT FLAT or wrong answers: the second half's mean $late MiB, the first's $early MiB (at most $(( early + early / 10 )) MiB); answers not a 200 allow: ${wrong:-unknown}"
  exit 1
fi
