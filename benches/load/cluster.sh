#!/usr/bin/env bash
# warden on several nodes under load (issue 15, docs/cluster.md "The proof on loopback"), with
# wrk on loopback: three `nats-server -js` routed to each other (replicas 3) and 1, 2 and 3
# `warden serve` nodes ([cluster], one stream, one token), each run on a fresh stream:
#   - CHATS chats (default 1,000), each judged once first so it exists;
#   - then CONNECTIONS connections (default 48) spread over the nodes, one wrk a node, each
#     request a routine step for a chat picked at random: a node serves the chats placed on
#     it and forwards the others (about (n-1)/n of them) to their node.
# Prints, for each count of nodes, judge requests/s (the wrks summed) and each wrk's p50/p99.
# Then, with three nodes, the full proof: one warden node killed with SIGKILL under load,
# then one nats-server killed with SIGKILL, and what the wrks counted as not a 200 allow.
# Every node's [log] url names all three servers (ALL_SERVERS=0: each node its own server
# only, as measured before), so the server killed is one that live nodes were connected to;
# beside the wrks, a writer records a mark in one of 50 chats at a time through the two live
# nodes, and every mark acknowledged is looked for in its chat afterwards.
# Usage: benches/load/cluster.sh [SECONDS]   (WARDEN_BIN names another binary; default
# target/release/warden, built if missing; NODES=3 runs the three nodes' load and the proof
# alone). Needs wrk and nats-server (Debian's packages).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
chats=${CHATS:-1000}
connections=${CONNECTIONS:-48}
bin=${WARDEN_BIN:-target/release/warden}
[ -x "$bin" ] || cargo build -j 1 --release -p warden-actors --bin warden
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
nats=$(command -v nats-server || echo /usr/sbin/nats-server)
[ -x "$nats" ] || { echo "nats-server is not installed (apt-get install nats-server)" >&2; exit 1; }
dir=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$dir"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Three servers, routed.
declare -a nport rport npid
for k in 0 1 2; do nport[$k]=$(free_port); rport[$k]=$(free_port); done
routes="nats://127.0.0.1:${rport[0]},nats://127.0.0.1:${rport[1]},nats://127.0.0.1:${rport[2]}"
for k in 0 1 2; do
  mkdir -p "$dir/nats$k"
  "$nats" -js -a 127.0.0.1 -p "${nport[$k]}" -sd "$dir/nats$k" -n "s$k" --cluster_name warden \
    --cluster "nats://127.0.0.1:${rport[$k]}" --routes "$routes" >/dev/null 2>&1 &
  npid[$k]=$!; pids+=("$!")
done
mkdir -p "$dir/work" && git -C "$dir/work" init -q -b main
token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
export WORK="$dir/work"
script=benches/load/cluster.lua

# Starts node k of a run on stream $1; sets url[k] and wpid[k].
declare -a url wpid
start_node() {
  local stream=$1 k=$2 d="$dir/$1-n$2"
  mkdir -p "$d/data" && chmod 700 "$d/data" && printf '%s\n' "$token" >"$d/data/token" && chmod 600 "$d/data/token"
  local servers="nats://127.0.0.1:${nport[$k]}"
  [ "${ALL_SERVERS:-1}" = 1 ] && servers="nats://127.0.0.1:${nport[0]},nats://127.0.0.1:${nport[1]},nats://127.0.0.1:${nport[2]}"
  cat >"$d/config.toml" <<EOF
[log]
engine = "jetstream"
url = "$servers"
stream = "$stream"
replicas = 3
[cluster]
node = "n$k"
EOF
  local addr="" try
  # The servers elect JetStream's meta leader some seconds after they route: until then the
  # log's stream can't be made, and the node exits saying so; it is started again.
  for try in $(seq 30); do
    "$bin" serve --data "$d/data" --listen 127.0.0.1:0 --config "$d/config.toml" >"$d/out" 2>"$d/err" &
    wpid[$k]=$!; pids+=("$!")
    for _ in $(seq 600); do
      grep -q listening "$d/out" 2>/dev/null && break
      kill -0 "${wpid[$k]}" 2>/dev/null || break
      sleep 0.05
    done
    addr=$(sed -n 's|^warden: listening on http://\([^,]*\),.*|\1|p' "$d/out")
    [ -n "$addr" ] && break
    grep -q "could not be opened" "$d/err" || break
    sleep 1
  done
  [ -n "$addr" ] || { echo "node $k did not start:" >&2; cat "$d/err" >&2; exit 1; }
  url[$k]="http://$addr"
}

# One wrk a node, CONNECTIONS spread over them, for $2 s; prints each and the sum.
load() {
  local n=$1 secs=$2 k per=$(( connections / $1 )) wrks=()
  for k in $(seq 0 $((n - 1))); do
    CHATS=$chats wrk -t1 -c"$per" -d"${secs}s" --latency -s "$script" "${url[$k]}" >"$dir/wrk$k" 2>&1 &
    wrks+=("$!")
  done
  wait "${wrks[@]}" 2>/dev/null || true
  local total=0
  for k in $(seq 0 $((n - 1))); do
    local rps p50 p99 judged
    rps=$(awk '/Requests\/sec/ {print $2}' "$dir/wrk$k")
    p50=$(awk '$1 == "50%" {print $2}' "$dir/wrk$k")
    p99=$(awk '$1 == "99%" {print $2}' "$dir/wrk$k")
    judged=$(grep judged "$dir/wrk$k" || true)
    echo "   node n$k: $rps requests/s, p50 $p50, p99 $p99; $judged"
    total=$(python3 -c "print(round($total + ${rps:-0}))")
  done
  echo "   $n node(s): $total judge requests/s in all"
}

wait_js() {
  # The servers elect JetStream's meta leader a few seconds after they route: the first
  # node opens its stream once they have.
  for _ in $(seq 100); do
    if (exec 3<>/dev/tcp/127.0.0.1/"${nport[0]}") 2>/dev/null; then return; fi
    sleep 0.1
  done
}
wait_js

for n in ${NODES:-1 2 3}; do
  stream="load$n"
  for k in $(seq 0 $((n - 1))); do start_node "$stream" "$k"; done
  sleep 3 # every node in every live set
  echo "== $n node(s), $chats chats, $connections connections ($seconds s)"
  for c in $(seq 0 $((chats - 1))); do
    k=$(( c % n ))
    curl -s -o /dev/null -H 'Content-Type: application/json' \
      -d "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"cargo test --workspace\"},\"cwd\":\"$WORK\"}" \
      "${url[$k]}/v1/chats/c$c/judge"
  done
  load "$n" 2 >/dev/null
  load "$n" "$seconds"
  if [ "$n" -lt 3 ]; then
    for k in $(seq 0 $((n - 1))); do kill -TERM "${wpid[$k]}"; wait "${wpid[$k]}" 2>/dev/null || true; done
  fi
done

# The server killed: with every server in every node's url, s0, which live nodes use; with
# one server a node, s2, the one the dead node n2 used.
victim=2
[ "${ALL_SERVERS:-1}" = 1 ] && victim=0
echo "== the proof under load: n2 killed with SIGKILL, then nats-server s$victim ($((seconds * 2)) s)"
proofs=()
for k in 0 1; do
  CHATS=$chats wrk -t1 -c"$(( connections / 2 ))" -d"$((seconds * 2))s" --latency -s "$script" "${url[$k]}" >"$dir/proof$k" 2>&1 &
  proofs+=("$!")
done
# The marks: four writers, each one mark at a time, through n0 or n1 in turn, for as long as
# the wrks run; a line per mark with its chat and the status it was answered.
for w in 0 1 2 3; do
  (
    end=$(( $(date +%s) + seconds * 2 ))
    m=$(( w * 1000000 ))
    while [ "$(date +%s)" -lt "$end" ]; do
      c="m$(( m % 50 ))"; k=$(( m % 2 ))
      status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 -H 'Content-Type: application/json' \
        -d "{\"kind\":\"read\",\"name\":\"mark $m\"}" "${url[$k]}/v1/chats/$c/events" || echo 000)
      echo "$c mark $m $status"
      m=$(( m + 1 ))
    done
  ) >"$dir/marks$w" &
  proofs+=("$!")
done
sleep $(( seconds / 2 )); kill -9 "${wpid[2]}"; echo "   SIGKILL n2 at $(( seconds / 2 )) s"
sleep $(( seconds / 2 )); kill -9 "${npid[$victim]}"; echo "   SIGKILL nats-server s$victim at $seconds s"
wait "${proofs[@]}" 2>/dev/null || true
for k in 0 1; do
  echo "   node n$k: $(awk '/Requests\/sec/ {print $2}' "$dir/proof$k") requests/s, p50 $(awk '$1 == "50%" {print $2}' "$dir/proof$k"), p99 $(awk '$1 == "99%" {print $2}' "$dir/proof$k"); $(grep judged "$dir/proof$k" || true)"
done
echo "   (a 200 that is not an allow would be a wrong verdict for this routine step; every other answer is a 5xx, which the hook asks on)"
# Every mark acknowledged (200) is in its chat's state: each chat's state read once (asked of
# either live node until one answers 200, for up to a minute), then looked in for each.
# How long the reading takes, and the longest one chat's state took, say whether a node
# stalled after the server's death (a node whose chats come into memory one at a time).
acked=0 lost=0 unread=0 longest=0 longest_chat=""
check_start=$(date +%s%N)
nothing=0
for n in $(seq 0 49); do
  c="m$n" state=""
  # A chat none of whose marks was acknowledged may have nothing recorded: there is nothing
  # to look for, and asking for it (a 404 a minute long) measured the script, not a node.
  if ! cat "$dir"/marks? | awk -v c="$c" '$1 == c && $4 == 200 { found = 1 } END { exit !found }'; then
    nothing=$(( nothing + 1 ))
    continue
  fi
  one_start=$(date +%s%N)
  for try in $(seq 120); do
    state=$(curl -s --max-time 20 -w '\n%{http_code}' "${url[$(( try % 2 ))]}/v1/chats/$c" || true)
    [ "${state##*$'\n'}" = 200 ] && break
    state=""
    sleep 0.5
  done
  one=$(( ($(date +%s%N) - one_start) / 1000000 ))
  [ "$one" -gt "$longest" ] && { longest=$one; longest_chat=$c; }
  while read -r _ _ m status; do
    [ "$status" = 200 ] || continue
    acked=$(( acked + 1 ))
    if [ -z "$state" ]; then unread=$(( unread + 1 ));
    elif [[ $state != *"\"mark $m\""* ]]; then lost=$(( lost + 1 )); echo "   lost: $c mark $m"; fi
  done < <(cat "$dir"/marks? | awk -v c="$c" '$1 == c')
done
echo "   states of the $(( 50 - nothing )) chats with a mark acknowledged read in $(( ($(date +%s%N) - check_start) / 1000000 )) ms, after the wrks stopped; the longest, $longest_chat, $longest ms"
echo "   marks: $(cat "$dir"/marks? | wc -l) sent, $acked acknowledged, $lost of them lost ($unread in chats not read); answers: $(cat "$dir"/marks? | awk '{print $4}' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
