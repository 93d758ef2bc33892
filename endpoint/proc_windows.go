package endpoint

import (
	"errors"

	"golang.org/x/sys/windows"
)

// stillActive is the exit code GetExitCodeProcess gives a running process
// (STILL_ACTIVE).
const stillActive = 259

// alive reports whether a process with this pid exists. A process of
// another user that cannot be opened exists; one that has exited but
// whose handle another process still holds does not. A pid reused by
// another program is caught when its pipe is missing or refuses the
// connection.
func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
