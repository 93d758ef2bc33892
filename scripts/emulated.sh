# Sourced by the scripts that run the tests under an emulator
# (scripts/wine-test.sh, scripts/qemu-test.sh).

# need_tools NAME INSTALL TOOL...: when a TOOL is missing, says so, with
# INSTALL, the command that installs them, and exits: 0 (the tests
# skipped), or 1 where HASHLINE_REQUIRE_EDITORS is set, as in CI.
need_tools() {
  local name=$1 install=$2 missing=() tool
  shift 2
  for tool; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local msg="$name: ${missing[*]} missing: $install"
  if [ -n "${HASHLINE_REQUIRE_EDITORS:-}" ]; then echo "FAIL $msg (HASHLINE_REQUIRE_EDITORS is set)" >&2; exit 1; fi
  echo "SKIP $msg"
  exit 0
}

# The tests of e2e in which a real MCP client starts the server.
mcp_clients=(TestMCPTypeScriptSDK TestClaudeCode TestCodexDisk TestGeminiCLI TestOpencode)

# e2e_clients LOG TEST...: runs e2e's tests TEST... (names or patterns) on
# this machine against the server HASHLINE_BIN names, appending to LOG;
# fails unless each passed.
e2e_clients() {
  local log=$1 rc=0 t
  shift
  env -u HASHLINE_TEST_EXEC go test -count=1 -timeout 20m -v -run "^($(IFS='|'; echo "$*"))\$" ./e2e/ >>"$log" 2>&1 || rc=$?
  for t; do
    grep -q "^--- PASS: $t " "$log" || { echo "$t did not pass" >>"$log"; rc=1; }
  done
  return $rc
}

# show_failures prints the first lines of what each failed test of a go
# test -v log said (go test prints them as they come, under "=== RUN",
# "=== NAME" or "=== CONT" of the test), so that a failure reaches the
# output that CI keeps and not only the log.
show_failures() {
  awk '
    FNR == NR { if ($0 ~ /^[[:space:]]*--- FAIL: /) { n = $0; sub(/^[[:space:]]*--- FAIL: /, "", n); sub(/ .*/, "", n); failed[n] = 1 } next }
    /^=== (RUN|NAME|CONT|PAUSE)/ { cur = $3; left = 0; next }
    /^[[:space:]]*--- / { cur = ""; left = 0; next }
    cur in failed && !(cur in told) && /^[[:space:]]+[^[:space:]]+_test\.go:[0-9]+: / { told[cur] = 1; shown++; left = 15; print "  | " cur ":" }
    left > 0 && shown <= 6 { print "  | " $0; left-- }
  ' "$1" "$1"
}
