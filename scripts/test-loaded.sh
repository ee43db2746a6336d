#!/usr/bin/env bash
# `npm run test:loaded [-- vitest args]`: the whole suite with BUSY_PROCESSES (4 unless set)
# CPU-bound processes beside it, as on a busy laptop or a shared CI host (README, "Tests").
# DATABASE_URL, TEST_TIME_SCALE and the rest of the environment reach the suite as they are.
# The busy processes are stopped whatever happens; the exit code is the suite's.
set -uo pipefail
cd "$(dirname "$0")/.."

busy=()
suite=''
stop() {
  if [ -n "$suite" ]; then kill -TERM "$suite" 2>/dev/null; fi
  if [ "${#busy[@]}" -gt 0 ]; then kill -9 "${busy[@]}" 2>/dev/null; fi
  busy=()
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

# Each spins one core, and ends by itself should this script be killed outright (its parent changes).
for _ in $(seq 1 "${BUSY_PROCESSES:-4}"); do
  node -e 'const parent = process.ppid; for (let i = 1; ; i++) if (i % 1e8 === 0 && process.ppid !== parent) break;' &
  busy+=("$!")
done

started=$(date +%s)
# In the background, so that a signal to this script is handled at once rather than after the suite.
npx vitest run "$@" &
suite=$!
wait "$suite"
code=$?
suite=''
elapsed=$(($(date +%s) - started))
stop
printf '\ntest:loaded: %s busy processes beside the suite; it took %dm%02ds and exited %d\n' \
  "${BUSY_PROCESSES:-4}" $((elapsed / 60)) $((elapsed % 60)) "$code"
exit "$code"
