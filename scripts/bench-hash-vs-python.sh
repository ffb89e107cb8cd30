#!/usr/bin/env bash
# Times the Python reference DB hash and dbhash.Hash on the same tau2 DB
# files, in one run on one machine, and prints the speed-up.
#
#   scripts/bench-hash-vs-python.sh
#
# Both sides read the tau2 data in the repository, domains/tau2/tau2data.
# Needs python3 (standard library only) and go.
set -euo pipefail
cd "$(dirname "$0")/.."
tau2=domains/tau2/tau2data
[ -d "$tau2/airline" ] || { echo "no tau2 data under $tau2" >&2; exit 1; }

echo "== Python: the published definition of get_dict_hash, restated (median of 7 runs, DB loaded beforehand)"
py=$(python3 - "$tau2" <<'PY'
import glob, hashlib, json, math, os, statistics, sys, time

SKIP = {"session"}
UNORDERED = {"standby_list", "notifications", "bookings", "system_accounts", "group_memberships", "asset_recoveries"}

def normal(value):
    # float -> int when finite and whole; "none"/"null" strings -> None;
    # lists under UNORDERED keys sorted by their default json.dumps text.
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            item = normal(item)
            if key in UNORDERED and isinstance(item, list):
                item = sorted(item, key=lambda x: json.dumps(x, sort_keys=True, default=str))
            result[key] = item
        return result
    if isinstance(value, list):
        return [normal(item) for item in value]
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lower() in ("none", "null"):
        return None
    return value

def db_hash(db):
    if isinstance(db, dict):
        db = {k: v for k, v in db.items() if k not in SKIP}
    text = json.dumps(normal(db), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()

root = sys.argv[1]
dbs = {
    "tau2_airline": {os.path.basename(p)[:-5]: json.load(open(p)) for p in sorted(glob.glob(os.path.join(root, "airline/db/*.json")))},
    "tau2_retail": json.load(open(os.path.join(root, "retail/db.json"))),
}
for name, db in dbs.items():
    times = []
    for _ in range(7):
        start = time.perf_counter()
        digest = db_hash(db)
        times.append(time.perf_counter() - start)
    print(name, statistics.median(times), digest)
PY
)
echo "$py" | awk '{printf "  %-13s %8.1f ms  %s\n", $1, $2*1000, $3}'

echo "== Go: dbhash.Hash (go test -bench, GOMAXPROCS=$(nproc))"
gobench=$(go test -run '^$' -bench 'HashAirline$|HashRetail$' -benchtime 3s -count 1 ./dbhash)
echo "$gobench" | grep -E '^Benchmark' | awk '{printf "  %-24s %8.2f ms/op  %s %s  %s %s\n", $1, $3/1e6, $9, $10, $11, $12}'

echo "== Speed-up (Python time / Go time, same run)"
awk -v py="$py" -v gob="$gobench" 'BEGIN {
  n = split(py, lines, "\n"); for (i = 1; i <= n; i++) { split(lines[i], f, " "); pt[f[1]] = f[2] }
  m = split(gob, glines, "\n")
  for (i = 1; i <= m; i++) {
    split(glines[i], g, " ")
    if (g[1] ~ /^BenchmarkHashAirline/) gt["tau2_airline"] = g[3] / 1e9
    if (g[1] ~ /^BenchmarkHashRetail/)  gt["tau2_retail"] = g[3] / 1e9
  }
  for (k in pt) if (k in gt) printf "  %-13s %6.1fx\n", k, pt[k] / gt[k]
}'
