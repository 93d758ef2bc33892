# need_tools NAME INSTALL TOOL...: sourced by the scripts that run the
# tests under an emulator. When a TOOL is missing it says so, with INSTALL,
# the command that installs them, and exits: 0 (the tests skipped), or 1
# where HASHLINE_REQUIRE_EDITORS is set, as in CI.
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
