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
